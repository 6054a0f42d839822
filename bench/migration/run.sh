#!/bin/sh
# bench/migration/run.sh - live-migration numbers.
# SPDX-License-Identifier: Apache-2.0
#
#   run.sh [BUILD_DIR]              downtime, then the instrumentation overhead
#                                   on cpu, opencl (PoCL installed) and nvidia
#                                   (a GPU visible); MIG_DEVICES="cpu opencl"
#                                   picks the devices
#   run.sh --apicost PROGRAM DEV..  only the API-call table, with a prebuilt
#                                   bench/migration/apicost.cu
#   run.sh --overhead PROGRAM DEV.. only the overhead table, with a prebuilt
#                                   bench/migration/overhead.cu (the GPU
#                                   machine: run-gpu.sh --prebuilt calls it)
#
#  1. downtime (checkpoint + transfer + restore) against bytes moved, next to
#     the measured device->host copy bandwidth;
#  2. steady-state cost of instrumentation: overhead.cu run with
#     HETGPU_MIGRATE=on (instrumented, never triggered) and without, in
#     alternation (MIG_ROUNDS rounds, default 3), best time per kernel over
#     the rounds, ratio per kernel and geomean, per device. Problem size:
#     MIG_SCALE (default 1 on cpu/opencl/tt-sim, 32 on nvidia).
#     MIG_MIGRATE replaces `on` (e.g. `on:sync`: every launch watched, armed
#     but never yielding: the block-entry decision runs in every block).
#  3. cost of API calls in a migratable process (apicost.cu: a loop of
#     cudaMalloc + launch + cudaFree, MIG_API_ITERS iterations (default
#     2000) of MIG_API_WORDS ints (default 1M = 4 MiB, and 1024)), with and
#     without HETGPU_MIGRATE=on, best of MIG_ROUNDS, per device;
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)

# overhead PROGRAM DEVICE: the overhead table of one device.
overhead() {
  prog=$1 dev=$2
  scale=${MIG_SCALE:-1}
  [ "$dev" = nvidia ] && scale=${MIG_SCALE:-32}
  to=""
  command -v timeout > /dev/null && to="timeout ${MIG_TIMEOUT:-600}"
  rm -f "$T"/ov.*
  r=1
  while [ "$r" -le "${MIG_ROUNDS:-3}" ]; do
    HETGPU_DEVICE=$dev $to "$prog" "$scale" > "$T/ov.plain.$r" 2> "$T/ov.err" ||
      echo "KERNEL run-plain 0 FAIL" >> "$T/ov.plain.$r"
    HETGPU_DEVICE=$dev HETGPU_MIGRATE=${MIG_MIGRATE:-on} $to "$prog" "$scale" > "$T/ov.instr.$r" 2>> "$T/ov.err" ||
      echo "KERNEL run-instrumented 0 FAIL" >> "$T/ov.instr.$r"
    r=$((r + 1))
  done
  echo "== instrumentation overhead ($dev, HETGPU_MIGRATE=${MIG_MIGRATE:-on}, scale $scale, best of ${MIG_ROUNDS:-3} alternating rounds x 5-200 launches) =="
  awk -v dev="$dev" '
    $1 == "KERNEL" {
      plain = FILENAME ~ /ov\.plain\./
      if ($4 != "ok") { bad = bad " " $2 (plain ? "(plain)" : "(instrumented)"); next }
      if (plain) { if (!($2 in p) || $3 < p[$2]) p[$2] = $3; if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } }
      else if (!($2 in i) || $3 < i[$2]) i[$2] = $3
    }
    END {
      printf "%-12s %12s %12s %8s\n", "kernel", "plain ms", "instr ms", "ratio"
      m = 0; s = 0
      for (j = 1; j <= n; j++) {
        k = order[j]
        if (!(k in i) || p[k] <= 0) continue
        r = i[k] / p[k]; m++; s += log(r)
        printf "%-12s %12.4f %12.4f %8.3f\n", k, p[k], i[k], r
      }
      if (m) printf "OVERHEAD %s geomean instrumented/plain %.3f over %d kernels, results %s\n", dev, exp(s / m), m, bad == "" ? "ok" : "FAIL:" bad
      else print "OVERHEAD " dev " no result" bad
    }' "$T"/ov.plain.* "$T"/ov.instr.*
}

# apicost PROGRAM DEVICE: the API-call table of one device.
apicost() {
  prog=$1 dev=$2
  echo "== API calls in a migratable process ($dev, ${MIG_API_ITERS:-2000} x cudaMalloc + launch + cudaFree) =="
  for words in ${MIG_API_WORDS:-1048576 1024}; do
    for mode in plain on; do
      best=""
      r=1
      while [ "$r" -le "${MIG_ROUNDS:-3}" ]; do
        if [ $mode = on ]; then
          out=$(HETGPU_DEVICE=$dev HETGPU_MIGRATE=on "$prog" "${MIG_API_ITERS:-2000}" "$words") || out="APICOST 0 0 FAIL"
        else
          out=$(HETGPU_DEVICE=$dev "$prog" "${MIG_API_ITERS:-2000}" "$words") || out="APICOST 0 0 FAIL"
        fi
        set -- $out
        [ "$4" = ok ] || { best=FAIL; break; }
        if [ -z "$best" ] || awk -v a="$2" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$2; fi
        r=$((r + 1))
      done
      eval "t_$mode=\$best"
    done
    awk -v dev="$dev" -v w="$words" -v p="$t_plain" -v i="$t_on" 'BEGIN {
      if (p == "FAIL" || i == "FAIL" || p <= 0) { print "APICOST " dev " words=" w " FAIL"; exit }
      printf "APICOST %s words=%d plain %.1f ms migratable %.1f ms ratio %.3f\n", dev, w, p, i, i / p }'
  done
}

if [ "$1" = "--apicost" ]; then
  prog=$2
  shift 2
  for dev in "$@"; do apicost "$prog" "$dev"; done
  rm -rf "$T"
  exit 0
fi

if [ "$1" = "--overhead" ]; then
  prog=$2
  shift 2
  for dev in "$@"; do overhead "$prog" "$dev"; done
  rm -rf "$T"
  exit 0
fi

B=${1:-build-mig}
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
"$B/bin/hetgpu-cc" -O3 "$HERE/overhead.cu" -o "$T/overhead"
devs=${MIG_DEVICES:-cpu}
if [ -z "${MIG_DEVICES:-}" ]; then
  [ -f /etc/OpenCL/vendors/pocl.icd ] && devs="$devs opencl"
  command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1 && devs="$devs nvidia"
fi
for dev in $devs; do overhead "$T/overhead" "$dev"; done
"$B/bin/hetgpu-cc" -O3 "$HERE/apicost.cu" -o "$T/apicost"
for dev in $devs; do apicost "$T/apicost" "$dev"; done
rm -rf "$T"
