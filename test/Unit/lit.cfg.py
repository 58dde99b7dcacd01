# -*- Python -*-
# Runs every gtest binary under <build>/unittests as lit tests, one per case.

import os

import lit.formats

config.name = "RAF-MLIR-Unit"
config.suffixes = []
config.test_source_root = config.unittest_dir
config.test_exec_root = config.unittest_dir
config.test_format = lit.formats.GoogleTest(".", "Tests")
