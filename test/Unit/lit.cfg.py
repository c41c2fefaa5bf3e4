# -*- Python -*-
# The GoogleTest executables (runtime and compiler unit tests) as a lit
# suite, so one lit run counts every test.

import os
import lit.formats

config.name = "TILE-Unit"
config.suffixes = []
config.test_exec_root = config.tile_unittest_dir
config.test_source_root = config.tile_unittest_dir
config.test_format = lit.formats.GoogleTest(".", "Tests")
