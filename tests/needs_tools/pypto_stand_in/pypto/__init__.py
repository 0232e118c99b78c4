"""A stand-in for PyPTO with its API's shape and no compiler: `pl.parse`
keeps the text, `ir.python_print` gives it back, the pass changes nothing.
It lets `cargo test` check tools/pypto-opt's plumbing (translation both
ways, chunks, function order) on machines without PyPTO; the real pass
is checked only with the real PyPTO (tests/needs_tools/pypto.rs)."""
