#!/usr/bin/env bash
# torch_time.sh — exercises the torch runner's GPU side (issue 4, item 2) on a
# machine with a GPU and a torch that sees it (python3 with torch 2.x, or
# CUDAPERF_PYTHON): a `run` on cuda against the CPU's (same weights, outputs
# within 1e-3 with TF32 off), and the `time` request (torch eager and
# torch.compile under the timing protocol), printing the figures.
#   tests/gpu/torch_time.sh            (builds bin/test-runner if needed)
# Exit status: that of the test runner (0: every check passed).
set -u
cd "$(dirname "$0")/../.."
[ -x bin/test-runner ] || make -j"$(nproc)" bin/test-runner >/dev/null || exit 1
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.cuda.is_available())' || true
exec bin/test-runner torch_runner_time_gpu torch_runner_errors torch_runner_describe_and_run
