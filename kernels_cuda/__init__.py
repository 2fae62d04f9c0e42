"""Hand-written CUDA kernels: softmax / log-softmax (softmax.py) and reductions (reduce.py).

Importing this package (or its op modules) compiles nothing and touches no GPU: the
extension is built by `kernels_cuda.build.extension()` on the first launch.
"""
