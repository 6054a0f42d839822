#!/usr/bin/env bash
# bench/libraries/run.sh - Thrust/CUB speed against a baseline measured in
# the same run, from the same source (libraries.cu):
#   run.sh cpu [BUILD]          hetgpu-cc's build on the CPU device against
#                               g++'s build for Thrust's OpenMP backend
#   run.sh gpu HETGPU NVCC      two prebuilt binaries on the NVIDIA GPU
#                               (hetgpu-cc's, nvcc's with the toolkit's
#                               Thrust/CUB); bench/nvidia/prepare-carry.sh
#                               builds and stages both
# Prints each operation's time and the ratio hetGPU / baseline (lower is
# better; the goal is <= 1.10), then the geometric mean. The builds' check
# lines must agree. REPS, SORT_N, BIG_N override the sizes.
# SPDX-License-Identifier: Apache-2.0
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
reps="${REPS:-5}"
mode="${1:-cpu}"
tmp="$(mktemp -d)"
case "$mode" in
  cpu)
    build="${2:-$root/build}"
    sort_n="${SORT_N:-$((4 << 20))}"
    big_n="${BIG_N:-$((16 << 20))}"
    "$build/bin/hetgpu-cc" -O3 "$here/libraries.cu" -o "$tmp/hetgpu"
    g++ -O3 -std=c++17 -fopenmp -x c++ \
      -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP "$here/libraries.cu" \
      -o "$tmp/base"
    HETGPU_DEVICE=cpu "$tmp/hetgpu" "$reps" "$sort_n" "$big_n" > "$tmp/a"
    "$tmp/base" "$reps" "$sort_n" "$big_n" > "$tmp/b"
    base_name="Thrust OpenMP backend ($(nproc) threads)" ;;
  gpu)
    sort_n="${SORT_N:-$((16 << 20))}"
    big_n="${BIG_N:-$((64 << 20))}"
    HETGPU_DEVICE=nvidia "$2" "$reps" "$sort_n" "$big_n" > "$tmp/a"
    "$3" "$reps" "$sort_n" "$big_n" > "$tmp/b"
    base_name="nvcc" ;;
  *) echo "usage: $0 cpu [BUILD] | gpu HETGPU_BINARY NVCC_BINARY" >&2; exit 2 ;;
esac
if ! diff <(grep '^check' "$tmp/a") <(grep '^check' "$tmp/b") > "$tmp/d"; then
  echo "results differ:"; cat "$tmp/d"; exit 1
fi
echo "baseline: $base_name; sizes: sort $sort_n keys, reduce/scan $big_n ints; min of $reps"
python3 - "$tmp/a" "$tmp/b" <<'PY'
import math, sys
def read(p):
    return {l.split()[0]: float(l.split()[2]) for l in open(p) if " ms " in l}
a, b = read(sys.argv[1]), read(sys.argv[2])
logs = []
print(f"{'operation':12} {'hetGPU ms':>10} {'base ms':>10} {'ratio':>7}")
for k in a:
    r = a[k] / b[k] if b[k] > 0 else float("inf")
    logs.append(math.log(r))
    print(f"{k:12} {a[k]:10.3f} {b[k]:10.3f} {r:7.3f}")
print(f"geomean ratio {math.exp(sum(logs) / len(logs)):.3f}")
PY
