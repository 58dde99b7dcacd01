"""Checks that an optimizer run can be replayed and its IR dumps re-read.

Usage: replay.py OPT INPUT PASS-OPTION...

1. Runs `OPT PASS-OPTION... --dump-pass-pipeline INPUT`, which prints the
   textual pipeline the options build, and keeps the output IR (both runs
   on one thread).
2. Runs `OPT --pass-pipeline=<that text> INPUT` and compares its output with
   the first run's: prints "replayed N passes: same output" or the
   difference.
3. Runs the options again with --mlir-print-ir-after-all (whole module,
   one thread) and parses every dump with `OPT`: prints "N dumps re-parsed"
   and then "dialects: ..." (the dialect prefixes of all ops the dumps
   contain), or the pass whose dump does not parse and the error.

Exits non-zero if any step fails. Used by the replay tests of
docs/ecosystem.md.
"""

import os
import re
import subprocess
import sys
import tempfile

opt, source, options = sys.argv[1], sys.argv[2], sys.argv[3:]
failed = False


def run(args):
    return subprocess.run([opt] + args, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)


# One thread: with several, the names the pipeline gives to constant globals
# depend on the order in which threads finish functions.
serial = ["--mlir-disable-threading"]
first = run(serial + options + ["--dump-pass-pipeline", source])
if first.returncode != 0:
    sys.exit(f"the pipeline failed:\n{first.stderr}")
# "Pass Manager with N passes:" then the pipeline over several lines.
lines = first.stderr.splitlines()
header = next(i for i, l in enumerate(lines) if l.startswith("Pass Manager with"))
count = re.match(r"Pass Manager with (\d+) passes", lines[header]).group(1)
pipeline = "".join(l.strip() for l in lines[header + 1:])

second = run(serial + ["--pass-pipeline=" + pipeline, source])
if second.returncode != 0:
    print(f"replay failed:\n{second.stderr}")
    failed = True
elif second.stdout != first.stdout:
    print(f"replayed {count} passes: different output")
    failed = True
else:
    print(f"replayed {count} passes: same output")

dumps = run(options + ["--mlir-print-ir-after-all",
                       "--mlir-print-ir-module-scope",
                       "--mlir-disable-threading", source])
if dumps.returncode != 0:
    sys.exit(f"the pipeline failed with dumps:\n{dumps.stderr}")
parts = re.split(r"^// -----// IR Dump After (.*) //----- //$",
                 dumps.stderr, flags=re.M)
dialects = set()
parsed = 0
with tempfile.TemporaryDirectory() as tmp:
    for index in range(1, len(parts), 2):
        name, text = parts[index], parts[index + 1]
        path = os.path.join(tmp, f"dump{index // 2}.mlir")
        with open(path, "w") as f:
            f.write(text)
        reparse = run([path])
        if reparse.returncode != 0:
            print(f"the dump after {name} does not parse:\n{reparse.stderr}")
            failed = True
            continue
        parsed += 1
        dialects.update(re.findall(r"^\s*(?:%[^=]*= )?\"?([a-z_]+)\.[a-z_.]+",
                                   text, flags=re.M))
print(f"{parsed} dumps re-parsed")
print("dialects: " + " ".join(sorted(dialects)))
sys.exit(1 if failed else 0)
