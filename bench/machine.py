"""The machine line every benchmark report starts with: CPU model, cores,
kernel, the commit raf-opt was built from (and whether the tree had local
changes), extra versions, and the date."""

import datetime
import os
import pathlib
import platform
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[1]


def machine_info(extra=()) -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain",
                            "--untracked-files=no"], capture_output=True, text=True).stdout.strip()
    parts = [f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}",
             f"raf-opt built from commit {commit}{' (with local changes)' if dirty else ''}",
             *extra, datetime.date.today().isoformat()]
    return "; ".join(parts)
