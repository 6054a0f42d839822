#!/usr/bin/env bash
# utils/build.sh - configure and build hetGPU into build/ (or $HETGPU_BUILD_DIR).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${HETGPU_BUILD_DIR:-$root/build}"
jobs="${HETGPU_JOBS:-$(nproc)}"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
ninja -C "$build" -j "$jobs"
