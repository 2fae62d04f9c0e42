"""Triton kernels for the `triton` backend: one op module per operation family.

Import-light on purpose: nothing here imports Triton, queries a GPU or compiles; the
backend (`kernels_triton.backend`) imports the op modules (`softmax`, `reduce`) on
first use, and their kernels compile on their first launch.
"""
