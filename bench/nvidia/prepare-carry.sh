#!/bin/bash
# bench/nvidia/prepare-carry.sh BUILD_DIR - stage everything the GPU machine
# (no LLVM, no clang) needs into .carry/ (git-ignored): the test and
# benchmark programs built by hetgpu-cc, nvcc's build of the benchmark,
# libhetgpu-rt, the translator library, the device math bitcode, and
# libLLVM (gzip: Python unpacks it anywhere) with the libraries it needs that Ubuntu 24.04
# may lack. device-run.sh unpacks and runs it there.
# SPDX-License-Identifier: Apache-2.0
set -euo pipefail
B=${1:-build-nvptx}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
C=$ROOT/.carry
rm -rf "$C" && mkdir -p "$C/bin" "$C/lib" "$C/libx"
CC="$ROOT/$B/bin/hetgpu-cc"
# The end-to-end programs of test/ (run there by utils/run-e2e-suite.py
# --prebuilt with the FileCheck carried below).
HETGPU_CC="$CC" python3 "$ROOT/utils/run-e2e-suite.py" --device nvidia \
  --out "$C/e2e" --build-only "$ROOT"/test/Runtime "$ROOT"/test/Execution \
  "$ROOT"/test/Headers "$ROOT"/test/Corpus "$ROOT"/test/Targets/Host
cp /usr/lib/llvm-22/bin/FileCheck "$C/bin/"
# Live migration on the GPU (bench/migration/run-gpu.sh --prebuilt): the
# checks' programs, the downtime and overhead benchmarks, ld.lld and the
# host math library for the CPU device.
sh "$ROOT/bench/migration/run-gpu.sh" --stage "$ROOT/$B" "$C/bin"
"$CC" -O3 "$ROOT/bench/nvidia/bench.cu" -o "$C/bin/bench-hetgpu"
if [ -x /usr/local/cuda/bin/nvcc ]; then
  /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 "$ROOT/bench/nvidia/bench.cu" -o "$C/bin/bench-nvcc"
fi
# Thrust/CUB (docs/Libraries.md): benchmark, tests, examples.
bash "$ROOT/bench/libraries/stage-gpu.sh" "$ROOT/$B" "$C/libraries"
# Separate compilation's cost (bench/linking/run.sh gpu with BENCH_PREBUILT=1).
mkdir -p "$C/linking"
"$CC" -O2 "$ROOT/bench/linking/whole.cu" -o "$C/linking/whole"
for c in kernel stage reduce main; do
  "$CC" -O2 -dc "$ROOT/bench/linking/$c.cu" -o "$C/linking/$c.o"
done
"$CC" -O2 "$C"/linking/{kernel,stage,reduce,main}.o -o "$C/linking/linked"
rm -f "$C"/linking/*.o
cp "$ROOT/$B/bin/hetgpu-info" "$C/bin/"
cp "$ROOT/$B/lib/libhetgpu-rt.so" "$ROOT/$B/lib/libhetgpu-translate.so" "$C/lib/"
cp "$ROOT/$B/lib/"hetgpu-math-nvptx64-nvidia-cuda.bc "$C/lib/" 2>/dev/null || true
gzip -9 -c /usr/lib/x86_64-linux-gnu/libLLVM.so.22.1 > "$C/lib/libLLVM.so.22.1.gz"
for l in libz3.so.4 libedit.so.2 libbsd.so.0 libmd.so.0 libffi.so.8 libxxhash.so.0; do
  gzip -9 -c "/lib/x86_64-linux-gnu/$l" > "$C/libx/$l.gz"
done
du -sh "$C"
