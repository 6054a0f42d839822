#!/usr/bin/env bash
# bench/cpu/scaling.sh - CPU device thread scaling of bench.cu, PoCL alongside.
# SPDX-License-Identifier: Apache-2.0
#
# Runs bench/nvidia/bench.cu on hetGPU's CPU device with HETGPU_CPU_THREADS
# (CPUBackend.cpp: the number of threads of the device) set to each value of
# THREADS, and bench/cpu/ocl_bench.cpp on the first OpenCL platform (PoCL)
# with POCL_MAX_PTHREAD_COUNT / POCL_CPU_MAX_CU_NUM set to the same value when
# an OpenCL library is present. Prints one table: ms per kernel per thread
# count, the speedup over 1 thread, and hetGPU/PoCL at each count.
# Usage: scaling.sh [scale [reps]]   (defaults 0.015625 = 1/64 and 10)
# Env: HETGPU_BUILD_DIR (default <repo>/build), BENCH_OUT (default
#      /tmp/hetgpu-bench-scaling), THREADS (default "1 2 4 8 16"),
#      RUNS (default 3; minimum per kernel over the runs), BENCH_PREBUILT.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${HETGPU_BUILD_DIR:-$root/build}
out=${BENCH_OUT:-/tmp/hetgpu-bench-scaling}
scale=${1:-0.015625}
reps=${2:-10}
runs=${RUNS:-3}
threads=${THREADS:-1 2 4 8 16}
mkdir -p "$out"
rm -f "$out"/hetgpu-t*.txt "$out"/pocl-t*.txt
rm -rf "$out/cache"

# BENCH_PREBUILT=1: $out/bench-hetgpu was built elsewhere (a machine with no
# LLVM, such as the GPU machine; HETGPU_TRANSLATOR and LD_LIBRARY_PATH set).
if [ "${BENCH_PREBUILT:-0}" != 1 ]; then
  "$build/bin/hetgpu-cc" -O2 "$root/bench/nvidia/bench.cu" -o "$out/bench-hetgpu"
fi
pocl=0
if g++ -O2 -std=c++17 "$here/ocl_bench.cpp" -o "$out/ocl_bench" -lOpenCL \
    2>"$out/ocl-build.log"; then
  pocl=1
else
  echo "note: no OpenCL (see $out/ocl-build.log); hetGPU only" >&2
fi

for r in $(seq 1 "$runs"); do
  for t in $threads; do
    HETGPU_CACHE_DIR="$out/cache" HETGPU_DEVICE=cpu HETGPU_CPU_THREADS="$t" \
      "$out/bench-hetgpu" "$scale" "$reps" >"$out/hetgpu-t$t-$r.txt"
    if [ "$pocl" = 1 ]; then
      POCL_MAX_PTHREAD_COUNT="$t" POCL_CPU_MAX_CU_NUM="$t" \
        "$out/ocl_bench" "$here/kernels.cl" "$scale" "$reps" \
        >"$out/pocl-t$t-$r.txt" || true
    fi
  done
done

python3 - "$out" $threads <<'PY'
import glob, sys
out, counts = sys.argv[1], sys.argv[2:]

def parse(side, t):
    ks, launch, ok = {}, [], True
    for p in glob.glob("%s/%s-t%s-*.txt" % (out, side, t)):
        for line in open(p):
            f = line.split()
            if f and f[0] == "KERNEL":
                ks[f[1]] = min(ks.get(f[1], 1e30), float(f[2]))
                ok &= f[3] == "ok"
            elif f and f[0] == "LAUNCH":
                launch.append(float(f[1]))
    return ks, (min(launch) if launch else None), ok

hg = {t: parse("hetgpu", t) for t in counts}
pc = {t: parse("pocl", t) for t in counts}
names = list(hg[counts[0]][0])
print("hetGPU CPU device, ms per kernel (speedup over %s thread)" % counts[0])
print("%-16s" % "kernel" + "".join("%18s" % ("T=" + t) for t in counts))
for k in names:
    base = hg[counts[0]][0].get(k)
    row = "%-16s" % k
    for t in counts:
        v = hg[t][0].get(k)
        row += "%18s" % ("-" if v is None else
                         "%.3f (%.2fx)" % (v, base / v if base and v else 0))
    print(row)
row = "%-16s" % "launch+sync us"
for t in counts:
    v = hg[t][1]
    row += "%18s" % ("-" if v is None else "%.1f" % v)
print(row)
if any(pc[t][0] for t in counts):
    print()
    print("ratio hetGPU/PoCL at the same thread count (PoCL ms)")
    print("%-16s" % "kernel" + "".join("%18s" % ("T=" + t) for t in counts))
    for k in names:
        row = "%-16s" % k
        for t in counts:
            h, p = hg[t][0].get(k), pc[t][0].get(k)
            row += "%18s" % ("-" if not h or not p else
                             "%.2f (%.3f)" % (h / p, p))
        print(row)
    row = "%-16s" % "launch+sync us"
    for t in counts:
        v = pc[t][1]
        row += "%18s" % ("-" if v is None else "%.1f" % v)
    print(row)
bad = [t for t in counts if not hg[t][2]] + \
      ["pocl T=" + t for t in counts if pc[t][0] and not pc[t][2]]
print("results: %s" % ("ok" if not bad else "FAIL at " + ", ".join(bad)))
sys.exit(1 if bad else 0)
PY
