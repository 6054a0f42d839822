#!/bin/sh
# bench/migration/run.sh BUILD_DIR - live-migration numbers on the CPU device.
# SPDX-License-Identifier: Apache-2.0
#  1. downtime (checkpoint + transfer + restore) against bytes moved, next to
#     the measured device->host copy bandwidth;
#  2. steady-state cost of instrumentation: overhead.cu run with
#     HETGPU_MIGRATE=on (instrumented, never triggered) against no
#     migration, ratio per kernel and geomean.
set -e
B=${1:-build-mig}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
"$B/bin/hetgpu-cc" "$HERE/downtime.cu" -o "$T/downtime"
echo "== downtime (CPU -> CPU, checkpoint through a file) =="
for mb in 1 16 64; do
  HETGPU_DEVICE=cpu HETGPU_MIGRATE=random:seed=1:file=$T/ckpt:verbose \
    "$T/downtime" $mb > "$T/out" 2> "$T/err" || true
  copy=$(grep COPY "$T/out")
  grep 'hetgpu-migrate' "$T/err" | head -1 | sed -e "s/^/alloc ${mb}MB: /"
  echo "   $copy"
done
echo "== instrumentation overhead (CPU device) =="
"$B/bin/hetgpu-cc" "$HERE/overhead.cu" -o "$T/bench"
HETGPU_DEVICE=cpu "$T/bench" > "$T/plain"
HETGPU_DEVICE=cpu HETGPU_MIGRATE=on "$T/bench" > "$T/instr"
grep -h RESULT "$T/plain" "$T/instr" 2>/dev/null || true
awk '$1 == "KERNEL" { if (FILENAME ~ /plain$/) p[$2] = $3; else { i[$2] = $3; ok = ok && $4 == "ok" } }
     BEGIN { ok = 1 }
     END { printf "%-16s %12s %12s %8s\n", "kernel", "plain ms", "instr ms", "ratio";
           n = 0; s = 0;
           for (k in p) if (k in i && p[k] > 0) {
             r = i[k] / p[k]; n++; s += log(r);
             printf "%-16s %12.4f %12.4f %8.3f\n", k, p[k], i[k], r }
           if (n) printf "geomean instrumented/plain %.3f over %d kernels, results %s\n", exp(s / n), n, ok ? "ok" : "FAIL" }' "$T/plain" "$T/instr"
rm -rf "$T"
