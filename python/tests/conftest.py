"""Settings shared by every test module.

``RAF_TEST_TIMEOUT_SCALE`` (set by ``scripts/test.sh --sanitize``) multiplies
the timeouts the tests give their subprocesses: on the sanitizer build the
tools run several times slower (instrumented code, ASan's allocator), so a
limit meant to catch a hang on the normal build would fail a correct run.
The limits stay: a hung tool still fails its test, only later."""

import functools
import os
import subprocess
import threading

_SCALE = float(os.environ.get("RAF_TEST_TIMEOUT_SCALE", "1") or 1)
# subprocess.run calls communicate, which calls wait, each with a timeout:
# only the outermost call of a thread scales, so a limit is scaled once.
_inside = threading.local()


def _scaled(function):
    """`function` with its `timeout` keyword argument multiplied by the scale."""

    @functools.wraps(function)
    def call(*args, **kwargs):
        if getattr(_inside, "active", False):
            return function(*args, **kwargs)
        if kwargs.get("timeout") is not None:
            kwargs["timeout"] = kwargs["timeout"] * _SCALE
        _inside.active = True
        try:
            return function(*args, **kwargs)
        finally:
            _inside.active = False

    return call


if _SCALE != 1:
    subprocess.run = _scaled(subprocess.run)
    subprocess.Popen.communicate = _scaled(subprocess.Popen.communicate)
    subprocess.Popen.wait = _scaled(subprocess.Popen.wait)
