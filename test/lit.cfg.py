# -*- Python -*-
# lit configuration of the RAF-MLIR IR tests.

import os

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
tools = ["raf-opt", "raf-run", "raf-translate", "raf-vta-sim", "raf-tune"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
