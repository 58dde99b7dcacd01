"""Runs a command and reports whether it stayed within time and memory.

Usage: bounded.py SECONDS MEGABYTES COMMAND...

Prints "exit N" (negative: killed by a signal), then "within SECONDS s" or
"took T s", then "within MEGABYTES MB" or "used M MB" (peak resident set of
the command). Used by the resource-limit tests: a hostile input must be
refused with a clean error quickly and without a large allocation.
$RAF_BOUNDED_TIME_SCALE multiplies the time bound (lit sets it to 10 on the
sanitizer build).
"""

import os
import resource
import subprocess
import sys
import time

seconds, megabytes, command = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3:]
# The sanitizer build's tools run several times slower (test/lit.cfg.py).
seconds *= float(os.environ.get("RAF_BOUNDED_TIME_SCALE", "1"))
start = time.monotonic()
run = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
elapsed = time.monotonic() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
print(f"exit {run.returncode}")
print(f"within {sys.argv[1]} s" if elapsed <= seconds else f"took {elapsed:.2f} s")
print(f"within {sys.argv[2]} MB" if peak <= megabytes else f"used {peak:.0f} MB")
sys.stdout.write(run.stderr.decode(errors="replace"))
