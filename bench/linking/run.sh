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
#   cpu: HETGPU_DEVICE=cpu, 16 blocks x 8 tiles, REPS 5, RUNS 5
#   gpu: HETGPU_DEVICE=nvidia (the H200), 4096 blocks x 16 tiles, REPS 50,
#        RUNS 5
# Env: HETGPU_BUILD_DIR (default <repo>/build), BENCH_OUT (default
#      /tmp/hetgpu-bench-linking), RUNS, REPS, BLOCKS, TILES override.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${HETGPU_BUILD_DIR:-$root/build}
out=${BENCH_OUT:-/tmp/hetgpu-bench-linking}
mode=${1:-cpu}
case "$mode" in
cpu) device=cpu blocks=16 tiles=8 reps=5 ;;
gpu) device=nvidia blocks=4096 tiles=16 reps=50 ;;
*) echo "usage: $0 cpu|gpu" >&2; exit 2 ;;
esac
blocks=${BLOCKS:-$blocks}
tiles=${TILES:-$tiles}
reps=${REPS:-$reps}
runs=${RUNS:-5}
cc="$build/bin/hetgpu-cc"
mkdir -p "$out"
rm -rf "$out/cache-whole" "$out/cache-linked" "$out"/*.txt

"$cc" -O2 "$here/whole.cu" -o "$out/whole"
for c in kernel stage reduce main; do
  "$cc" -O2 -dc "$here/$c.cu" -o "$out/$c.o"
done
"$cc" -O2 "$out/kernel.o" "$out/stage.o" "$out/reduce.o" "$out/main.o" \
  -o "$out/linked"

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
awk -v w="$whole" -v l="$linked" -v d="$device" -v n="$runs" 'BEGIN {
  printf "device %s, min of %d runs: whole-TU %.4f ms, linked %.4f ms, ratio linked/whole %.4f\n",
         d, n, w, l, l / w }'
