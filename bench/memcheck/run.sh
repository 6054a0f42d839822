#!/usr/bin/env bash
# bench/memcheck/run.sh - what HETGPU_MEMCHECK=1 costs, per kernel.
# SPDX-License-Identifier: Apache-2.0
#
# Runs bench/nvidia/bench.cu (built with hetgpu-cc, or BENCH_BIN when the
# machine has no compiler) on one device with and without memcheck, RUNS
# times interleaved, and prints per kernel the ratio memcheck/plain
# (compare.py: minimum of the runs per kernel; its "nvcc" column is the run
# without memcheck here). The translation caches are separate and emptied
# first.
# Usage: run.sh [device [scale [reps]]]   (defaults cpu, 0.015625, 10)
# Env: HETGPU_BUILD_DIR, BENCH_BIN, BENCH_OUT (default /tmp/hetgpu-bench-memcheck),
#      RUNS (default 3).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${HETGPU_BUILD_DIR:-$root/build}
out=${BENCH_OUT:-/tmp/hetgpu-bench-memcheck}
device=${1:-cpu}
scale=${2:-0.015625}
reps=${3:-10}
runs=${RUNS:-3}
mkdir -p "$out"
rm -rf "$out"/plain-*.txt "$out"/memcheck-*.txt "$out/cache-plain" "$out/cache-memcheck"
bin=${BENCH_BIN:-$out/bench-hetgpu}
if [ -z "${BENCH_BIN:-}" ]; then
  "$build/bin/hetgpu-cc" -O2 "$root/bench/nvidia/bench.cu" -o "$bin"
fi
for r in $(seq 1 "$runs"); do
  HETGPU_CACHE_DIR="$out/cache-plain" HETGPU_DEVICE="$device" \
    "$bin" "$scale" "$reps" > "$out/plain-$r.txt"
  HETGPU_CACHE_DIR="$out/cache-memcheck" HETGPU_DEVICE="$device" \
    HETGPU_MEMCHECK=1 "$bin" "$scale" "$reps" > "$out/memcheck-$r.txt" \
    2> "$out/memcheck-$r.err"
done
if grep -q "Invalid" "$out"/memcheck-*.err; then
  echo "memcheck reported errors in bench.cu (false positives?):" >&2
  grep -m5 -A4 "Invalid" "$out"/memcheck-1.err >&2
fi
python3 "$root/bench/nvidia/compare.py" --nvcc "$out"/plain-*.txt \
  --hetgpu "$out"/memcheck-*.txt | sed 's/hetGPU\/nvcc/memcheck\/plain/g; s/nvcc/plain/g'
