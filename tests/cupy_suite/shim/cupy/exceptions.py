"""cupy.exceptions: numpy's exception and warning classes (what vkarray raises)."""

import numpy as _numpy

_np_exc = getattr(_numpy, "exceptions", _numpy)  # numpy >= 1.25 has numpy.exceptions

AxisError = _np_exc.AxisError
ComplexWarning = _np_exc.ComplexWarning
TooHardError = _np_exc.TooHardError
VisibleDeprecationWarning = _np_exc.VisibleDeprecationWarning
DTypePromotionError = getattr(_np_exc, "DTypePromotionError", TypeError)
RankWarning = _np_exc.RankWarning
