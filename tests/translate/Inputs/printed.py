# pypto.program: Before
import pypto.language as pl

n = pl.dynamic("n")

@pl.program
class Before:
    @pl.function
    def kernel(self) -> pl.Scalar[pl.TASK_ID]:
        return pl.system.task_invalid()

    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def two(self, x: pl.Scalar[pl.INT64], b: pl.Out[pl.Tensor[[64, n], pl.BF16]], c: pl.InOut[pl.Array[4, pl.TASK_ID]], n: pl.Scalar[pl.INDEX]) -> tuple[pl.Scalar[pl.INT64], pl.Scalar[pl.BOOL]]:
        return x, True

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator, auto_scope=False)
    def main(self, n: pl.Scalar[pl.INT64], t: pl.Tensor[[64, n], pl.BF16]) -> pl.Scalar[pl.TASK_ID]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            tids: pl.Array[4, pl.TASK_ID] = pl.array.create(4, dtype=pl.TASK_ID)
            phase_fence_barrier_0_tid: pl.Scalar[pl.TASK_ID] = pl.system.task_dummy(deps=[tids])
            for p in pl.parallel(4):
                _submit_tmp: pl.Tuple[pl.Scalar[pl.TASK_ID], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kernel, deps=[phase_fence_barrier_0_tid])
                a: pl.Scalar[pl.TASK_ID] = _submit_tmp[0]
                a_tid: pl.Scalar[pl.TASK_ID] = _submit_tmp[1]
                _submit_tmp_1: pl.Tuple[pl.Scalar[pl.TASK_ID], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.kernel, deps=[a_tid, tids], core_num=pl.const(4, pl.INT64), sync_start=True, allow_early_resolve=True, predicate=(n > pl.const(0, pl.INT64)), attrs={"arg_directions": []})
                b: pl.Scalar[pl.TASK_ID] = _submit_tmp_1[0]
                b_tid: pl.Scalar[pl.TASK_ID] = _submit_tmp_1[1]
            for i, (acc, prev) in pl.range(1, n, 2, init_values=(pl.const(0, pl.INT64), tids)):
                _tuple_tmp: pl.Tuple[pl.Scalar[pl.INT64], pl.Scalar[pl.BOOL]] = self.two(acc, t, prev, n, attrs={"arg_directions": [pl.adir.scalar, pl.adir.output_existing, pl.adir.inout, pl.adir.scalar]})
                q: pl.Scalar[pl.INT64] = _tuple_tmp[0]
                r: pl.Scalar[pl.BOOL] = _tuple_tmp[1]
                s: pl.Scalar[pl.INT64] = acc + i * pl.const(2, pl.INT64) - -3
                total, last = pl.yield_(s, prev)
        with pl.scope():
            w: pl.Scalar[pl.BOOL] = True
        if n > pl.const(2, pl.INT64):
            pick: pl.Scalar[pl.INT64] = pl.yield_(pl.const(1, pl.INT64))
        else:
            pick: pl.Scalar[pl.INT64] = pl.yield_(n % pl.const(3, pl.INT64))
        if n == pl.const(1, pl.INT64):
            x: pl.Scalar[pl.FP32] = 1.5
        else:
            if n == pl.const(2, pl.INT64):
                y: pl.Scalar[pl.FP32] = 2.5
        for (c,) in pl.while_(init_values=(pl.const(0, pl.INT64),)):
            pl.cond(c < pl.const(10, pl.INT64))
            c2: pl.Scalar[pl.INT64] = c + pl.const(1, pl.INT64)
            count: pl.Scalar[pl.INT64] = pl.yield_(c2)
        while False:
            pass
        for u in pl.unroll(3):
            continue
        d = pl.tensor.not_(t)
        return pl.system.task_invalid()
