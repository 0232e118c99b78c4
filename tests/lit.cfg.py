# The `.pfir` tests under LLVM's lit (`pip install lit`, then `lit tests`),
# with the pfir binary `PFIR` names (default: target/debug/pfir, which
# `cargo test` builds). `pfir test tests` runs the same tests without
# Python; see docs/testing.md, "Running the tests under LLVM's lit".
import os
import subprocess

import lit.formats

config.name = "pfir"
config.test_format = lit.formats.ShTest()
config.suffixes = [".pfir"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(config.test_source_root)
# lit's scratch files (`%t`) go under target/ (or `PFIR_LIT_OUTPUT`), not
# next to the tests.
config.test_exec_root = os.environ.get("PFIR_LIT_OUTPUT", os.path.join(root, "target", "llvm-lit"))
pfir = os.path.abspath(os.environ.get("PFIR", os.path.join(root, "target", "debug", "pfir")))
# `FileCheck` is pfir's own (LLVM's need not be installed); `pfir` the one
# under test.
config.substitutions.append((r"\bFileCheck\b", pfir + " filecheck"))
config.substitutions.append(("%{pfir}", pfir))
config.environment["PATH"] = os.pathsep.join([os.path.dirname(pfir), os.environ["PATH"]])
# `testkit`: the binary has the test-only passes (a `cargo test` build).
passes = subprocess.run([pfir, "opt", "--help"], capture_output=True, text=True).stdout
if "test-drop-deps" in passes:
    config.available_features.add("testkit")
