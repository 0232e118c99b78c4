import pypto.language as pl

@pl.program
class P:
    @pl.function
    def f(self) -> pl.Scalar[pl.INT64]:
        x = (1 +
        return x
