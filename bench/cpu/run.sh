#!/usr/bin/env bash
# bench/cpu/run.sh - hetGPU CPU device vs PoCL on the same cores.
# SPDX-License-Identifier: Apache-2.0
#
# Builds bench/nvidia/bench.cu with hetgpu-cc and bench/cpu/ocl_bench.cpp with
# g++ -lOpenCL, runs both (hetGPU with HETGPU_DEVICE=cpu, OpenCL on the first
# platform, i.e. PoCL), and prints time ratios hetGPU/PoCL via compare.py.
# Usage: run.sh [scale [reps]]   (defaults 0.015625 = 1/64 and 10)
# Env: HETGPU_BUILD_DIR (default <repo>/build), BENCH_OUT (default /tmp/hetgpu-bench-cpu),
#      RUNS (default 3: each side runs RUNS times, interleaved; compare.py
#      takes the minimum per kernel: the machine is shared and noisy),
#      HETGPU_BASE_LIB_DIR (optional: the lib/ folder of an older build; the
#      same program then also runs against its libhetgpu-rt.so, through
#      LD_LIBRARY_PATH, for a before/after comparison in the same run),
#      HETGPU_BASE_ENV (optional: VAR=VALUE ... for that second run, e.g.
#      "HETGPU_HOST_WARP_ARRAYS=0 HETGPU_HOST_ROW_LOOPS=0" to compare
#      translation options of the same build; with or without
#      HETGPU_BASE_LIB_DIR).
# Every hetGPU configuration has its own translation cache under BENCH_OUT,
# emptied at the start (the first FIRST line is a cold translation).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${HETGPU_BUILD_DIR:-$root/build}
out=${BENCH_OUT:-/tmp/hetgpu-bench-cpu}
scale=${1:-0.015625}
reps=${2:-10}
runs=${RUNS:-3}
base=${HETGPU_BASE_LIB_DIR:-}
base_env=${HETGPU_BASE_ENV:-}
base_label=${base:-$base_env}
mkdir -p "$out"
rm -f "$out"/hetgpu-*.txt "$out"/pocl-*.txt "$out"/base-*.txt
# Fresh caches: a translation cached by an older build would be reused.
rm -rf "$out/cache" "$out/cache-base"

"$build/bin/hetgpu-cc" -O2 "$root/bench/nvidia/bench.cu" -o "$out/bench-hetgpu"
g++ -O2 -std=c++17 "$here/ocl_bench.cpp" -o "$out/ocl_bench" -lOpenCL

for r in $(seq 1 "$runs"); do
  HETGPU_CACHE_DIR="$out/cache" HETGPU_DEVICE=cpu \
    "$out/bench-hetgpu" "$scale" "$reps" | tee "$out/hetgpu-$r.txt"
  "$out/ocl_bench" "$here/kernels.cl" "$scale" "$reps" | tee "$out/pocl-$r.txt"
  if [ -n "$base_label" ]; then
    # shellcheck disable=SC2086 # base_env is a list of assignments
    env ${base:+LD_LIBRARY_PATH="$base"} $base_env \
      HETGPU_CACHE_DIR="$out/cache-base" HETGPU_DEVICE=cpu \
      "$out/bench-hetgpu" "$scale" "$reps" | tee "$out/base-$r.txt"
  fi
done
echo
# compare.py's baseline column is labelled nvcc; here the baseline is PoCL.
python3 "$root/bench/nvidia/compare.py" --nvcc "$out"/pocl-*.txt \
  --hetgpu "$out"/hetgpu-*.txt | sed 's/nvcc/PoCL/g'
if [ -n "$base_label" ]; then
  echo
  echo "== before ($base_label) vs PoCL"
  python3 "$root/bench/nvidia/compare.py" --nvcc "$out"/pocl-*.txt \
    --hetgpu "$out"/base-*.txt | sed 's/nvcc/PoCL/g'
  echo
  echo "== now vs before ($base_label): ratio now/before"
  python3 "$root/bench/nvidia/compare.py" --nvcc "$out"/base-*.txt \
    --hetgpu "$out"/hetgpu-*.txt | sed 's/nvcc/before/g'
fi
