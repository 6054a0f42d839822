#!/usr/bin/env bash
# bench/opencl/run.sh - hetGPU's SPIR-V on PoCL vs hand-written OpenCL C on
# PoCL, same kernels, same device, one run (issue #5 item 5).
# SPDX-License-Identifier: Apache-2.0
#
# Builds bench/nvidia/bench.cu with hetgpu-cc (run with HETGPU_DEVICE=opencl:
# hetIR -> SPIR-V -> PoCL) and bench/cpu/ocl_bench.cpp, the OpenCL C twins of
# the same kernels (bench/cpu/kernels.cl) with their own host driver, then
# prints per-kernel time ratios hetGPU/OpenCL C and their geometric mean
# (bench/nvidia/compare.py; its baseline column is relabelled).
# Usage: run.sh [scale [reps]]   (defaults 0.015625 = 1/64 and 10)
# Env: HETGPU_BUILD_DIR (default <repo>/build), BENCH_OUT (default
# /tmp/hetgpu-bench-opencl); HETGPU_OPENCL_WARP_LOOP=all|auto|off is passed
# through (all: every kernel one warp per work-item, to measure that form).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${HETGPU_BUILD_DIR:-$root/build}
out=${BENCH_OUT:-/tmp/hetgpu-bench-opencl}
scale=${1:-0.015625}
reps=${2:-10}
mkdir -p "$out"

"$build/bin/hetgpu-cc" -O2 "$root/bench/nvidia/bench.cu" -o "$out/bench-hetgpu"
g++ -O2 -std=c++17 "$root/bench/cpu/ocl_bench.cpp" -o "$out/ocl_bench" -lOpenCL

HETGPU_DEVICE=opencl "$out/bench-hetgpu" "$scale" "$reps" | tee "$out/hetgpu.txt"
"$out/ocl_bench" "$root/bench/cpu/kernels.cl" "$scale" "$reps" | tee "$out/opencl-c.txt"
echo
python3 "$root/bench/nvidia/compare.py" --nvcc "$out/opencl-c.txt" \
  --hetgpu "$out/hetgpu.txt" | sed 's/nvcc/OpenCL C/g'
