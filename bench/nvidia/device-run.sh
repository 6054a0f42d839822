#!/bin/bash
# bench/nvidia/device-run.sh - run on the GPU machine from the repository
# root, with .carry/ staged by prepare-carry.sh. Writes logs to $OUT (or
# ./device-out). Steps: unpack libLLVM (and any library the image lacks),
# hetgpu-info, the end-to-end suite on HETGPU_DEVICE=nvidia
# (utils/run-e2e-suite.py --prebuilt), live migration on the GPU, then the benchmark (hetGPU with a cold
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
# The end-to-end suite (test/Runtime, Execution, Headers, Corpus,
# Targets/Host programs), built on the LLVM machine, checked with FileCheck.
FILECHECK="$C/bin/FileCheck" python3 utils/run-e2e-suite.py --device nvidia \
  --out "$C/e2e" --prebuilt 2>&1 | tee "$O/e2e.txt"
# Live migration on the GPU: suspended at random safe points and resumed,
# output equal to the unmigrated run (bench/migration/run-gpu.sh).
if grep -q -- "--prebuilt" bench/migration/run-gpu.sh; then
  sh bench/migration/run-gpu.sh --prebuilt "$C/bin" 2>&1 | tee "$O/migration.txt"
else
  {
    "$C/bin/migrate" > /tmp/hg/mig-ref
    for s in 1 2 3 4 5; do
      HETGPU_MIGRATE=random:seed=$s:verbose "$C/bin/migrate" > /tmp/hg/mig-$s 2> /tmp/hg/mig-$s.err
      if cmp -s /tmp/hg/mig-ref /tmp/hg/mig-$s && grep -q hetgpu-migrate: /tmp/hg/mig-$s.err; then
        echo "PASS nvidia->nvidia seed=$s ($(grep -c hetgpu-migrate: /tmp/hg/mig-$s.err) suspensions)"
      else
        echo "FAIL nvidia->nvidia seed=$s: $(tail -2 /tmp/hg/mig-$s.err | tr '\n' ' ')"
      fi
    done
    "$C/bin/mig-overhead" > /tmp/hg/ov-plain
    HETGPU_MIGRATE=on "$C/bin/mig-overhead" > /tmp/hg/ov-instr
    "$C/bin/mig-overhead" > /tmp/hg/ov-plain2
    HETGPU_MIGRATE=on "$C/bin/mig-overhead" > /tmp/hg/ov-instr2
    grep -H KERNEL /tmp/hg/ov-*
  } 2>&1 | tee "$O/migration.txt"
fi
# Optional: programs by others staged into .carry/corpus by the lead's own
# script (never committed: docs/Compatibility.md).
if [ -f "$C/corpus/run.py" ]; then
  python3 "$C/corpus/run.py" run "$C/corpus" 2>&1 | tee "$O/corpus.txt"
fi

# Thrust/CUB: the library tests and examples on the GPU, then the library
# benchmark against nvcc.
if [ -d "$C/libraries" ]; then
  HETGPU_CACHE_DIR=/tmp/hg/cache-lib bash bench/libraries/run-gpu.sh \
    "$C/libraries" 2>&1 | tee "$O/libraries.txt"
fi

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
