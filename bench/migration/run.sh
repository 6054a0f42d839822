#!/bin/sh
# bench/migration/run.sh BUILD_DIR - live-migration numbers on the CPU device.
# SPDX-License-Identifier: Apache-2.0
#  1. downtime (checkpoint + transfer + restore) against bytes moved, next to
#     the measured device->host copy bandwidth;
#  2. steady-state cost of instrumentation: bench/nvidia/bench.cu run with
#     HETGPU_MIGRATE=on (instrumented, never triggered) against no
#     migration, ratio per kernel and geomean (bench/nvidia/compare.py).
set -e
B=${1:-build-mig}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
"$B/bin/hetgpu-cc" -O3 "$HERE/downtime.cu" -o "$T/downtime"
echo "== downtime (CPU -> CPU, checkpoint through a file) =="
for mb in 1 16 64 256; do
  HETGPU_DEVICE=cpu HETGPU_MIGRATE=random:seed=1:file=$T/ckpt:verbose \
    "$T/downtime" $mb > "$T/out" 2> "$T/err" || true
  copy=$(grep COPY "$T/out")
  grep 'hetgpu-migrate' "$T/err" | head -1 | sed -e "s/^/alloc ${mb}MB: /"
  echo "   $copy"
done
echo "== instrumentation overhead (CPU device) =="
"$B/bin/hetgpu-cc" -O3 "$HERE/../nvidia/bench.cu" -o "$T/bench"
HETGPU_DEVICE=cpu "$T/bench" > "$T/plain"
HETGPU_DEVICE=cpu HETGPU_MIGRATE=on "$T/bench" > "$T/instr"
python3 "$HERE/../nvidia/compare.py" "$T/plain" "$T/instr"
rm -rf "$T"
