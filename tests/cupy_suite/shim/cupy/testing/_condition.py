"""repeat, repeat_with_success_at_least and retry: statistical tests run several times."""

import functools

import pytest


def _runner(times, min_success):
    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kw):
            successes, failures = 0, []
            for i in range(times):
                if successes >= min_success or successes + times - i < min_success:
                    break  # decided either way
                try:
                    func(*args, **kw)
                    successes += 1
                except pytest.skip.Exception:
                    raise
                except Exception as e:
                    failures.append(e)
            if successes < min_success:
                err = failures[0]
                err.add_note(f"{successes} of {successes + len(failures)} runs passed, "
                             f"{min_success} of {times} needed")
                raise err
        return wrapper
    return decorator


def repeat_with_success_at_least(times, min_success):
    """Passes when at least min_success of `times` runs pass."""
    return _runner(times, min_success)


def repeat(times, intensive_times=None):
    """Passes when every one of `times` runs passes."""
    return _runner(times, times)


def retry(times):
    """Passes when one of `times` runs passes."""
    return _runner(times, 1)
