#!/bin/sh
# bench/coalesce/run.sh - eager launches vs CUDA graph replay vs coalesced
# graph replay of K tiny kernels from 1, N and K streams, and eager launches
# with HETGPU_COALESCE_EAGER=1 (column ecoal), and graph replay through the
# stream instead of a device graph (column qgraph; the same as graph except
# on NVIDIA) (issue 23, parts 3 and 4; the nvcc baseline on a GPU:
# run-gpu.sh). Prints microseconds per group and ratios.
# `run.sh opencl` runs it on PoCL.
# SPDX-License-Identifier: Apache-2.0
#
#   run.sh [device [groups [streams]]]   (defaults cpu, 200, 8)
# Env: HETGPU_BUILD_DIR (default build), BENCH_OUT (default /tmp/hetgpu-bench-coalesce).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${HETGPU_BUILD_DIR:-$root/build}
out=${BENCH_OUT:-/tmp/hetgpu-bench-coalesce}
mkdir -p "$out"
"$build/bin/hetgpu-cc" -O2 "$here/coalesce.cu" -o "$out/coalesce"
HETGPU_DEVICE=${1:-cpu} "$out/coalesce" "${2:-200}" "${3:-8}"
