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
echo "== downtime (one suspension of downtime.cu) =="
# CPU -> CPU through a checkpoint file; CPU -> OpenCL (PoCL) and CPU ->
# tt-sim in memory: those devices share the arena's host memory, so only
# the state buffer moves; CPU -> CPU through a file with to=opencl shows
# the cost of a full checkpoint on the same move.
for mb in 1 16 64; do
  for run in "cpu::file=$T/ckpt" "opencl:to=opencl:" "tt-sim:to=tt-sim:" "opencl-file:to=opencl:file=$T/ckpt"; do
    name=${run%%:*} rest=${run#*:}
    to=${rest%%:*} file=${rest#*:}
    spec="random:seed=1${to:+:$to}${file:+:$file}:verbose"
    HETGPU_DEVICE=cpu HETGPU_MIGRATE=$spec "$T/downtime" $mb > "$T/out" 2> "$T/err" || true
    grep 'suspended' "$T/err" | head -1 |
      sed -e 's/.*), \([0-9]*\) bytes, checkpoint \([0-9.]*\) ms.*restore \([0-9.]*\) ms (move \([0-9.]*\)).*/bytes=\1 checkpoint_ms=\2 restore_ms=\3 move_ms=\4/' \
        -e "s/^/DOWNTIME cpu->${name} alloc=${mb}MB /"
  done
  grep COPY "$T/out" | sed -e "s/^/   cpu /"
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
