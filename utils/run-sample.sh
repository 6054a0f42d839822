#!/usr/bin/env bash
# utils/run-sample.sh [file.cu] [args...] - the main job: set up, build, compile a
# CUDA program with hetgpu-cc and run it on the best available device (the
# host CPU when there is no GPU; HETGPU_DEVICE=cpu|nvidia|opencl|tt-sim|<n>
# chooses). Default program: utils/samples/saxpy_reduce.cu.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/utils/setup.sh"
"$root/utils/build.sh" >/dev/null
build="${HETGPU_BUILD_DIR:-$root/build}"
src="${1:-$root/utils/samples/saxpy_reduce.cu}"
[ $# -gt 0 ] && shift
out="$build/samples/$(basename "${src%.cu}")"
mkdir -p "$build/samples"
"$build/bin/hetgpu-cc" -O2 "$src" -o "$out"
"$build/bin/hetgpu-info" --brief 2>/dev/null || true
exec "$out" "$@"
