#!/usr/bin/env bash
# bench/linking/run.sh - cost of separate compilation with contracts.
# SPDX-License-Identifier: Apache-2.0
#
# Builds the same sources (a producer/consumer pipeline over shared memory
# in three device components: kernel.cu, stage.cu, reduce.cu, plus main.cu)
# twice with hetgpu-cc: as one translation unit (whole.cu, the baseline) and
# as separately compiled -dc objects joined by the contract-checked device
# link. Both run RUNS times, interleaved (paired); each run prints its
# fastest kernel time over REPS launches; the script takes the minimum over
# the runs per build and prints the ratio linked / whole-TU.
# Usage: run.sh cpu|gpu
#   cpu: HETGPU_DEVICE=cpu with HETGPU_CPU_THREADS=1 (unless set), 64 blocks
#        x 32 tiles of 1024 floats, REPS 10, RUNS 9
#   gpu: HETGPU_DEVICE=nvidia (the H200), 8192 blocks x 16 tiles, REPS 50,
#        RUNS 9
# Also printed: the median over the runs of the paired ratio (run r linked /
# run r whole-TU), less sensitive to a slow phase of the machine.
# Env: HETGPU_BUILD_DIR (default <repo>/build), BENCH_OUT (default
#      /tmp/hetgpu-bench-linking), RUNS, REPS, BLOCKS, TILES override;
#      BENCH_PREBUILT=1 runs the programs already in BENCH_OUT.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${HETGPU_BUILD_DIR:-$root/build}
out=${BENCH_OUT:-/tmp/hetgpu-bench-linking}
mode=${1:-cpu}
case "$mode" in
cpu) device=cpu blocks=64 tiles=32 reps=10
  # One worker: less exposed to the other load of a shared machine.
  export HETGPU_CPU_THREADS=${HETGPU_CPU_THREADS:-1} ;;
gpu) device=nvidia blocks=8192 tiles=16 reps=50 ;;
*) echo "usage: $0 cpu|gpu" >&2; exit 2 ;;
esac
blocks=${BLOCKS:-$blocks}
tiles=${TILES:-$tiles}
reps=${REPS:-$reps}
runs=${RUNS:-9}
cc="$build/bin/hetgpu-cc"
mkdir -p "$out"
rm -rf "$out/cache-whole" "$out/cache-linked" "$out"/*.txt

# BENCH_PREBUILT=1: $out/whole and $out/linked were built on another
# machine (the GPU machine has no compiler).
if [ -z "${BENCH_PREBUILT:-}" ]; then
  "$cc" -O2 "$here/whole.cu" -o "$out/whole"
  for c in kernel stage reduce main; do
    "$cc" -O2 -dc "$here/$c.cu" -o "$out/$c.o"
  done
  "$cc" -O2 "$out/kernel.o" "$out/stage.o" "$out/reduce.o" "$out/main.o" \
    -o "$out/linked"
fi

for r in $(seq 1 "$runs"); do
  for v in whole linked; do
    HETGPU_DEVICE=$device HETGPU_CACHE_DIR="$out/cache-$v" \
      "$out/$v" "$blocks" "$tiles" "$reps" >"$out/$v-$r.txt"
    echo "run $r $v: $(cat "$out/$v-$r.txt")"
  done
done
min_of() { cat "$out/$1"-*.txt | awk '{print $3}' | sort -g | head -1; }
whole=$(min_of whole)
linked=$(min_of linked)
paired=$(for r in $(seq 1 "$runs"); do
  paste "$out/whole-$r.txt" "$out/linked-$r.txt" | awk '{print $7 / $3}'
done | sort -g | awk '{v[NR] = $1} END {
  print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
awk -v w="$whole" -v l="$linked" -v d="$device" -v n="$runs" -v p="$paired" 'BEGIN {
  printf "device %s, min of %d runs: whole-TU %.4f ms, linked %.4f ms, ratio linked/whole %.4f (median paired ratio %.4f)\n",
         d, n, w, l, l / w, p }'
