"""What importing vkarray does once its namespace is complete (the last import of
__init__.py): with dask already imported (a dask.distributed worker unpickling a vkarray chunk,
say), vkarray.dask registers vkarray with dask's dispatch tables and distributed's
serialization. `import vkarray` alone never imports dask; otherwise `import vkarray.dask` does
this."""

import sys as _sys

if "dask.array" in _sys.modules or "distributed" in _sys.modules:
    from . import dask as _dask_support  # noqa: F401
