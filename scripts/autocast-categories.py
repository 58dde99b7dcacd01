#!/usr/bin/python3
"""Prints the AutoCast category table of the relay operators as markdown.

The categories are read from the operator definitions themselves
(include/raf/Dialect/Relay/IR/RelayOperators.td, through `llvm-tblgen
--dump-json`), so the table in docs/autocast.md is what the pass sees:
every `Relay_Operator` record's AutoCast category, argument count and fusion
kind (which decides whether its operands' casts are shared).

Usage: scripts/autocast-categories.py [--tblgen /usr/lib/llvm-22/bin/llvm-tblgen]
"""

import argparse
import json
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]

RULES = {
    "Always": "the first k float operands are cast to the low-precision type",
    "Never": "operands keep, or get back, their original type",
    "Infer": "the first k float operands follow their majority (ties: low precision)",
    "Follow": "low precision if the input already is, else unchanged",
    "Special": "operator-specific rule in the pass",
}
SHARED = {"CommReduce", "OutEWiseFusable", "Opaque"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tblgen", default="/usr/lib/llvm-22/bin/llvm-tblgen")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "ops.json"
        subprocess.run([args.tblgen, "--dump-json", "-I", str(ROOT / "include"),
                        "-I", "/usr/lib/llvm-22/include",
                        str(ROOT / "include/raf/Dialect/Relay/IR/RelayOps.td"),
                        "-o", str(out)], check=True)
        records = json.loads(out.read_text())
    by_category = {}
    by_fusion = {}
    for name in records["!instanceof"]["Relay_Operator"]:
        record = records[name]
        decls = record["operatorDecls"]
        category = re.search(r"AutoCastCategory::(\w+);", decls).group(1)
        count = int(re.search(r"getAutoCastArgCount\(\) \{ return (\d+); \}", decls).group(1))
        fusion = re.search(r"FusionKind::(\w+);", decls).group(1)
        op = record["opName"]
        by_category.setdefault(category, []).append((op, count))
        by_fusion.setdefault(fusion, []).append(op)

    print("| Category | Rule | Operators (k) |")
    print("|---|---|---|")
    for category in RULES:
        ops = sorted(by_category.get(category, []))
        listed = ", ".join(f"`{op}` ({k})" for op, k in ops)
        print(f"| {category.lower()} | {RULES[category]} | {listed} |")
    print()
    print("| Fusion kind | Casts of the operands | Operators |")
    print("|---|---|---|")
    for fusion in ["ElemWise", "Broadcast", "Injective", "CommReduce", "OutEWiseFusable",
                   "Opaque"]:
        ops = sorted(by_fusion.get(fusion, []))
        mode = "shared" if fusion in SHARED else "exclusive"
        print(f"| {fusion} | {mode} | {', '.join(f'`{op}`' for op in ops)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
