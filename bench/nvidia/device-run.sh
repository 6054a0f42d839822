#!/bin/bash
# bench/nvidia/device-run.sh - run on the GPU machine from the repository
# root, with .carry/ staged by prepare-carry.sh. Writes logs to $OUT (or
# ./device-out). Steps: unpack libLLVM (and any library the image lacks),
# hetgpu-info, the execution tests on HETGPU_DEVICE=nvidia, the runtime's
# end-to-end programs on nvidia, then the benchmark (hetGPU with a cold
# and a warm JIT cache, nvcc twice, interleaved) and compare.py.
# SPDX-License-Identifier: Apache-2.0
set -u
ROOT=$(pwd)
C=$ROOT/.carry
O=${OUT:-$ROOT/device-out}
mkdir -p "$O" /tmp/hg/lib /tmp/hg/libx
unpack() { python3 -c 'import gzip,sys; open(sys.argv[2],"wb").write(gzip.open(sys.argv[1]).read())' "$1" "$2"; }
unpack "$C/lib/libLLVM.so.22.1.gz" /tmp/hg/lib/libLLVM.so.22.1
for f in "$C"/libx/*.gz; do
  l=$(basename "$f" .gz)
  ldconfig -p | grep -q "$l " || { unpack "$f" "/tmp/hg/libx/$l"; echo "carried $l"; }
done
cp "$C"/lib/*.so "$C"/lib/*.bc /tmp/hg/lib/ 2>/dev/null
export LD_LIBRARY_PATH=/tmp/hg/lib:/tmp/hg/libx
export HETGPU_TRANSLATOR=/tmp/hg/lib/libhetgpu-translate.so
ldd /tmp/hg/lib/libLLVM.so.22.1 | grep "not found"
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv | tee "$O/gpu.txt"
"$C/bin/hetgpu-info" 2>&1 | tee "$O/info.txt"

export HETGPU_DEVICE=nvidia HETGPU_TEST_GPUS=nvidia
export HETGPU_CACHE_DIR=/tmp/hg/cache-tests
python3 test/Execution/run-prebuilt.py "$C/bin/exec" test/Execution/*.cu 2>&1 | tee "$O/exec.txt"
# The runtime's end-to-end programs (their RUN lines pick the CPU device;
# here they run on the GPU and must still print PASS / exit 0).
for b in "$C"/bin/runtime/*; do
  n=$(basename "$b")
  timeout 30 "$b" > "/tmp/hg/rt-$n.out" 2>&1
  rc=$?
  if [ $rc -eq 0 ]; then echo "PASS runtime/$n"; else echo "FAIL runtime/$n rc=$rc: $(tail -3 /tmp/hg/rt-$n.out | tr '\n' ' ')"; fi
done 2>&1 | tee "$O/runtime.txt"

cd /tmp/hg
rm -rf cache-bench
export HETGPU_CACHE_DIR=/tmp/hg/cache-bench
HETGPU_LOG=info "$C/bin/bench-hetgpu" > h1.txt 2> h1.err
"$C/bin/bench-nvcc" > n1.txt 2>&1
"$C/bin/bench-hetgpu" > h2.txt 2>&1
if [ -n "${FULL:-}" ]; then
  "$C/bin/bench-nvcc" > n2.txt 2>&1
  "$C/bin/bench-hetgpu" > h3.txt 2>&1
fi
cp h1.txt h1.err h2.txt h3.txt n1.txt n2.txt "$O/" 2>/dev/null
python3 "$ROOT/bench/nvidia/compare.py" --nvcc n*.txt --hetgpu h?.txt 2>&1 | tee "$O/compare.txt"
grep -h "nvidia:\|translat" h1.err | head -20 | tee "$O/jit.txt"
tar czf "$O/ptx-cache.tgz" cache-bench cache-tests 2>/dev/null
ls -la "$O"
