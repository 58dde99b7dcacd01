"""Settings shared by every test module.

``RAF_TEST_TIMEOUT_SCALE`` (set by ``scripts/test.sh --sanitize``) multiplies
the timeouts the tests give their subprocesses: on the sanitizer build the
tools run several times slower (instrumented code, ASan's allocator), so a
limit meant to catch a hang on the normal build would fail a correct run.
The limits stay: a hung tool still fails its test, only later."""

import functools
import os
import subprocess

_SCALE = float(os.environ.get("RAF_TEST_TIMEOUT_SCALE", "1") or 1)


def _scaled(function):
    """`function` with its `timeout` keyword argument multiplied by the scale."""

    @functools.wraps(function)
    def call(*args, **kwargs):
        if kwargs.get("timeout") is not None:
            kwargs["timeout"] = kwargs["timeout"] * _SCALE
        return function(*args, **kwargs)

    return call


if _SCALE != 1:
    subprocess.run = _scaled(subprocess.run)
    subprocess.Popen.communicate = _scaled(subprocess.Popen.communicate)
    subprocess.Popen.wait = _scaled(subprocess.Popen.wait)
