"""The benchmark harness behind `python -m comparison`: the sweep (`sweep`), CUDA-event
timing against the copy ceiling (`timing`), the report (`report`), figures (`plot`),
per-call latency (`latency`), GPU records for benchmarks/ (`record`) and the command line
(`cli`). The library core (`comparison.api` and what it uses) never imports this."""
