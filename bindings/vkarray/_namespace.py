"""The vkarray namespace as seen from the modules that compose numpy's names: functions
defined in C++ (_vkarray) and in Python (concatenate, pad, unique, ...) alike, looked up when
called, so those modules can be imported while vkarray/__init__.py is still running."""


class _Namespace:
    def __getattr__(self, name):
        import vkarray
        return getattr(vkarray, name)


vk = _Namespace()
