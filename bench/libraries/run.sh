#!/usr/bin/env bash
# bench/libraries/run.sh - Thrust/CUB speed against a baseline measured in
# the same run, from the same source (libraries.cu):
#   run.sh cpu [BUILD]          hetgpu-cc's build on the CPU device against
#                               g++'s build for Thrust's OpenMP backend
#   run.sh gpu HETGPU NVCC [NVCC_SAMELIB]
#                               prebuilt binaries on the NVIDIA GPU:
#                               hetgpu-cc's, nvcc's with the toolkit's
#                               Thrust/CUB (the baseline), and nvcc's with
#                               Debian's Thrust/CUB 1.17.2, the version
#                               hetgpu-cc compiles (a second ratio column:
#                               the compilers on one library version);
#                               bench/libraries/stage-gpu.sh builds them
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
    # Interleaved, each twice: the GPU's clocks drift between runs.
    for round in 1 2; do
      HETGPU_DEVICE=nvidia "$2" "$reps" "$sort_n" "$big_n" >> "$tmp/a"
      "$3" "$reps" "$sort_n" "$big_n" >> "$tmp/b"
      if [ -n "${4:-}" ]; then "$4" "$reps" "$sort_n" "$big_n" >> "$tmp/c"; fi
    done
    base_name="nvcc with the toolkit's Thrust/CUB"
    reps="$reps in each of 2 interleaved runs"
    [ -n "${4:-}" ] && base_name="$base_name; same-lib: nvcc with Debian's Thrust/CUB 1.17.2" ;;
  *) echo "usage: $0 cpu [BUILD] | gpu HETGPU_BINARY NVCC_BINARY" >&2; exit 2 ;;
esac
for other in "$tmp/b" "$tmp/c"; do
  [ -f "$other" ] || continue
  if ! diff <(grep '^check' "$tmp/a") <(grep '^check' "$other") > "$tmp/d"; then
    echo "results differ:"; cat "$tmp/d"; exit 1
  fi
done
echo "baseline: $base_name; sizes: sort $sort_n keys, reduce/scan $big_n ints; min of $reps"
python3 - "$tmp/a" "$tmp/b" "$tmp/c" <<'PY'
import math, os, sys
def read(p):
    best = {}
    if not os.path.exists(p):
        return best
    for l in open(p):
        if " ms " in l:
            k, v = l.split()[0], float(l.split()[2])
            best[k] = min(v, best.get(k, v))
    return best
a, b, c = (read(p) for p in sys.argv[1:4])
cols = [("base", b)] + ([("same-lib", c)] if c else [])
logs = {n: [] for n, _ in cols}
head = f"{'operation':12} {'hetGPU ms':>10}" + "".join(
    f" {n + ' ms':>12} {'ratio':>7}" for n, _ in cols)
print(head)
for k in a:
    line = f"{k:12} {a[k]:10.3f}"
    for n, d in cols:
        r = a[k] / d[k] if d.get(k, 0) > 0 else float("inf")
        logs[n].append(math.log(r))
        line += f" {d[k]:12.3f} {r:7.3f}"
    print(line)
print("geomean ratio " + ", ".join(
    f"{n} {math.exp(sum(v) / len(v)):.3f}" for n, v in logs.items()))
PY
