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
rm -rf "$C" && mkdir -p "$C/bin/exec" "$C/bin/runtime" "$C/lib" "$C/libx"
CC="$ROOT/$B/bin/hetgpu-cc"
for t in "$ROOT"/test/Execution/*.cu; do
  "$CC" -O2 "$t" -o "$C/bin/exec/$(basename "$t" .cu)"
done
for t in "$ROOT"/test/Runtime/*.cu; do
  "$CC" -O2 -I "$ROOT/test/Runtime" "$t" -o "$C/bin/runtime/$(basename "$t" .cu)" || echo "skip $t"
done
"$CC" -O3 "$ROOT/bench/nvidia/bench.cu" -o "$C/bin/bench-hetgpu"
if [ -x /usr/local/cuda/bin/nvcc ]; then
  /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 "$ROOT/bench/nvidia/bench.cu" -o "$C/bin/bench-nvcc"
fi
cp "$ROOT/$B/bin/hetgpu-info" "$C/bin/"
cp "$ROOT/$B/lib/libhetgpu-rt.so" "$ROOT/$B/lib/libhetgpu-translate.so" "$C/lib/"
cp "$ROOT/$B/lib/"hetgpu-math-nvptx64-nvidia-cuda.bc "$C/lib/" 2>/dev/null || true
gzip -9 -c /usr/lib/x86_64-linux-gnu/libLLVM.so.22.1 > "$C/lib/libLLVM.so.22.1.gz"
for l in libz3.so.4 libedit.so.2 libbsd.so.0 libmd.so.0 libffi.so.8; do
  gzip -9 -c "/lib/x86_64-linux-gnu/$l" > "$C/libx/$l.gz"
done
du -sh "$C"
