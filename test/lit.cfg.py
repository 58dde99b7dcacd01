# -*- Python -*-
# lit configuration of the RAF-MLIR IR tests.

import os
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "RAF-MLIR"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.raf_obj_root, "test")
config.excludes = ["Unit", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "Inputs"]

config.substitutions.append(("%raf_src_root", config.raf_src_root))
config.substitutions.append(("%raf_obj_root", config.raf_obj_root))

# Debian's interpreter, which sees python3-numpy (another python3 may not).
config.substitutions.append(("%python", "/usr/bin/python3"))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.raf_tools_dir, config.llvm_tools_dir]
tools = ["raf-opt", "raf-run", "raf-translate", "raf-vta-sim", "raf-tune",
         "raf-pipeline-doc"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The sanitizer build (LLVM_USE_SANITIZER; docs/fuzzing.md): the feature
# `sanitizer`; the time bounds of Tools/Inputs/bounded.py scaled by 10 for
# its slower tools; and mlir-opt, built without the sanitizers, run with the
# AddressSanitizer runtime preloaded so that it can load our instrumented
# plugin.
if getattr(config, "raf_sanitizers", ""):
    config.available_features.add("sanitizer")
    config.environment["RAF_BOUNDED_TIME_SCALE"] = "10"
    runtime = subprocess.run(
        [config.raf_cxx_compiler, "-print-file-name=libclang_rt.asan-x86_64.so"],
        stdout=subprocess.PIPE, text=True).stdout.strip()
    if "Address" in config.raf_sanitizers and os.path.isfile(runtime):
        mlir_opt = os.path.join(config.llvm_tools_dir, "mlir-opt")
        config.substitutions.append(
            (r"(?<![-\w/.=])mlir-opt(?![-\w./])",
             f"env LD_PRELOAD={runtime} {mlir_opt}"))
