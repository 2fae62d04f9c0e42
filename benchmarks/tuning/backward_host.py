"""Where the host time of an eager backward goes: µs per `torch.autograd.grad(y, x, dy,
retain_graph=True)` on one small recorded forward (the backward alone, looped), for
torch's own node, the cuda backend's C++ node, the triton backend's C++ node
(kernels_triton/grad_node.py), that node with a trivial Python backward (`dy` back:
what the engine, the thread switch and a Python call cost), and the triton backward's
launch called directly on the main thread (no autograd).

    PYTHONPATH=. python benchmarks/tuning/backward_host.py --shape 1,1024
"""
from __future__ import annotations

import argparse

import torch

from profile_call import loop_us  # this folder's profile_call.py (the script's directory is on sys.path)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shape", default="1,1024", help="rows,cols (default 1,1024)")
    p.add_argument("--calls", type=int, default=2000)
    p.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    args = p.parse_args()
    import comparison
    from kernels_triton import grad_node
    from kernels_triton import softmax as triton_softmax

    rows, cols = (int(v) for v in args.shape.split(","))
    x = torch.randn(rows, cols, device=args.device, requires_grad=True)
    dy = torch.randn(rows, cols, device=args.device)
    where = torch.cuda.get_device_name() if args.device == "cuda" else "cpu"
    print(f"device {where}, torch {torch.__version__}; {rows}x{cols} fp32, {args.calls} calls each")

    def backward_of(y):
        return lambda: torch.autograd.grad(y, x, dy, retain_graph=True)

    cases = {"torch's own node": backward_of(torch.softmax(x, -1))}
    if args.device == "cuda":
        cases["cuda backend (C++ node, C++ launch)"] = backward_of(comparison.softmax(x, backend="cuda"))
    cases["triton backend (C++ node, Python launch)"] = backward_of(comparison.softmax(x, backend="triton"))
    trivial = grad_node.backward_attacher(lambda y, g: g, "TrivialBackward", "no double backward")
    with torch.no_grad():
        y_plain = torch.softmax(x, -1)
    cases["C++ node, Python backward returning dy"] = backward_of(trivial(x, y_plain))
    y = y_plain.detach()
    cases["triton backward launch alone (main thread)"] = lambda: triton_softmax.run(y, "softmax_backward", "auto",
                                                                                     dy=dy)
    for name, fn in cases.items():
        print(f"{name:45s} {loop_us(fn, args.calls):7.1f} us/call")


if __name__ == "__main__":
    main()
