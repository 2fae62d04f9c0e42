#!/usr/bin/env bash
# Records this GPU's benchmarks on the GPU machine, from the repository root: a thin wrapper
# of `python -m comparison record` (comparison/harness/record.py) that sets up what a bare
# GPU machine lacks, then writes benchmarks/<gpu>/ (e.g. benchmarks/h100/):
#   bash benchmarks/record.sh forward                   # one sweep (python -m comparison record --list)
#   bash benchmarks/record.sh backward,step --dtype fp32 # more record options pass through
#   bash benchmarks/record.sh                           # every sweep (longer than one 10-minute device call)
# The peers Liger-Kernel and QuACK run when benchmarks/install_peers.sh installed them first
# (its /tmp/site/peers.env is read here); otherwise their rows say why they did not run.
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
export TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-/tmp/torch_ext}
peers=${PEER_SITE:-/tmp/site}/peers.env
if [ -f "$peers" ]; then source "$peers"; fi
sweeps=()
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then sweeps=(--sweeps "$1"); shift; fi
exec python3 -m comparison record "${sweeps[@]}" "$@"
