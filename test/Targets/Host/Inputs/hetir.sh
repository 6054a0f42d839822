#!/bin/sh
# hetir.sh '<device compile>' INPUT.cu -o OUT.bc: CUDA -> hetIR bitcode
# (clang device compile at -O3, then what hetgpu-cc runs: hetgpu-raise,
# hetgpu-insert-loop-safepoints and hetgpu-state-layout).
set -e
dev="$1"; src="$2"; out="$4"
$dev -O3 -emit-llvm -c "$src" -o "$out.nvptx.bc"
hetgpu-opt -passes=hetgpu-raise,hetgpu-insert-loop-safepoints,hetgpu-state-layout "$out.nvptx.bc" -o "$out"
rm -f "$out.nvptx.bc"
