# Programs as PyPTO's unit tests write them: inside test functions, two per test.
import pypto.language as pl
import pytest
from pypto import ir


def _expand(program):
    return program


def test_profitable():
    """Docstrings and the harness around programs are not IR."""

    @pl.program
    class Before:
        @pl.function
        def kernel(self) -> pl.Scalar[pl.TASK_ID]:
            return pl.system.task_invalid()

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self) -> pl.Scalar[pl.TASK_ID]:
            with pl.manual_scope():
                tids = pl.array.create(4, pl.TASK_ID)
                for p, (tids_iter,) in pl.parallel(4, init_values=(tids,)):
                    a, a_tid = pl.submit(self.kernel, deps=[tids_iter])
                    tids_out = pl.yield_(tids_iter)
                if True:
                    local_tids = pl.yield_(tids)
                else:
                    local_tids = pl.yield_(tids)
            return pl.system.task_invalid()

    @pl.program
    class Expected:
        @pl.function
        def kernel(self) -> pl.Scalar[pl.TASK_ID]:
            return pl.system.task_invalid()

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, n: pl.Scalar[pl.INT64]) -> pl.Scalar[pl.TASK_ID]:
            with pl.manual_scope():
                for p in pl.range(n):
                    pass
            return pl.system.task_invalid()

    ir.assert_structural_equal(_expand(Before), Expected)


if __name__ == "__main__":
    pytest.main([__file__, "-v"])
