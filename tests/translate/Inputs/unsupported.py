import pypto.language as pl


@pl.program
class Unsupported:
    x = 1

    @pl.function(level=pl.Level.HOST)
    def kernel(self) -> pl.Scalar[pl.TASK_ID]:
        return pl.system.task_invalid()

    @staticmethod
    @pl.function(type=pl.FunctionType.Orchestration, role=pl.Role.SubWorker)
    def main(self, n: pl.Scalar[pl.INT64], m) -> pl.Tile[[4], pl.FP32]:
        a = n ** 2
        b = n // 2
        c = 0 < n < 4
        d = min(n, 2)
        e = ~n
        f = "text"
        g = (n, n)
        h = n if n else n
        index = 1
        n += 1
        assert n
        with pl.spmd(4):
            pass
        for i in range(4):
            pass
        for i in pl.pipeline(4, stage=2):
            pass
        t = pl.foo(1)
        u = pl.tensor.add(n, 1, attrs={"dummy": True})
        return n[0]
