#!/usr/bin/env bash
# bench/cpu/run.sh - hetGPU CPU device vs PoCL on the same cores.
# SPDX-License-Identifier: Apache-2.0
#
# Builds bench/nvidia/bench.cu with hetgpu-cc and bench/cpu/ocl_bench.cpp with
# g++ -lOpenCL, runs both (hetGPU with HETGPU_DEVICE=cpu, OpenCL on the first
# platform, i.e. PoCL), and prints time ratios hetGPU/PoCL via compare.py.
# Usage: run.sh [scale [reps]]   (defaults 0.015625 = 1/64 and 10)
# Env: HETGPU_BUILD_DIR (default <repo>/build), BENCH_OUT (default /tmp/hetgpu-bench-cpu)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${HETGPU_BUILD_DIR:-$root/build}
out=${BENCH_OUT:-/tmp/hetgpu-bench-cpu}
scale=${1:-0.015625}
reps=${2:-10}
mkdir -p "$out"

"$build/bin/hetgpu-cc" -O2 "$root/bench/nvidia/bench.cu" -o "$out/bench-hetgpu"
g++ -O2 -std=c++17 "$here/ocl_bench.cpp" -o "$out/ocl_bench" -lOpenCL

HETGPU_DEVICE=cpu "$out/bench-hetgpu" "$scale" "$reps" | tee "$out/hetgpu.txt"
"$out/ocl_bench" "$here/kernels.cl" "$scale" "$reps" | tee "$out/pocl.txt"
echo
# compare.py's baseline column is labelled nvcc; here the baseline is PoCL.
python3 "$root/bench/nvidia/compare.py" --nvcc "$out/pocl.txt" \
  --hetgpu "$out/hetgpu.txt" | sed 's/nvcc/PoCL/g'
