# The experiments behind h200_tuning_online_reductions_2026-11-21.txt, kept as they ran (on
# the GPU machine, from the repository root; the constants they override may have moved since).
set -uo pipefail
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TORCH_EXTENSIONS_DIR=/tmp/torch_ext
T=benchmarks/tuning/tune.py
(
for n in 33 66 99; do
python3 $T --label "online$n" --cols 65536,131072 --impl triton/online --set "kernels_triton.softmax._persistent_grid=lambda k, u, rb, r, l: (min(u, $n), 1)"
done
python3 $T --label online66w --cols 65536 --impl triton/online --set "kernels_triton.softmax._persistent_grid=lambda k, u, rb, r, l: (min(u, 66), 1)" --set kernels_triton.softmax.ONLINE_MAX_WARPS=32
for op in reduce_sum reduce_max; do
python3 $T --label rbase --op $op --cols 128,1024,4096,65536 --impl cuda/auto,triton/auto,torch/auto
python3 $T --label roneshot --op $op --cols 128,1024,4096,65536 --impl cuda/auto --set kernels_cuda.reduce.MAX_THREADS_PER_SM=2**40
python3 $T --label troneshot --op $op --cols 128,1024,4096,65536 --impl triton/auto --set "kernels_triton.reduce.INTERPRETER_PROGRAMS=2**31-1" --set "kernels_triton.reduce._resident_programs=lambda *a, **k: {'programs_resident': 2**31-1}"
done
) 2>&1 | tee $OUT/exp2.txt
