#!/usr/bin/env bash
# bench/libraries/run-gpu.sh DIR - on the GPU machine, from the repository
# root, with DIR staged by stage-gpu.sh and libhetgpu-rt on the library path:
# the library tests, Debian's examples on HETGPU_DEVICE=nvidia, then the
# benchmark against nvcc (run.sh gpu).
# SPDX-License-Identifier: Apache-2.0
set -u
dir="$1"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
for t in "$dir"/tests/*; do
  if HETGPU_DEVICE=nvidia "$t" > /tmp/libtest.out 2>&1 && grep -q "ALL PASS" /tmp/libtest.out; then
    echo "PASS $(basename "$t")"
  else
    echo "FAIL $(basename "$t"): $(tail -3 /tmp/libtest.out | tr '\n' ' ')"
  fi
done
bash "$root/utils/run-library-examples.sh" -r -d nvidia -o "$dir/examples"
if [ -x "$dir/bin/libbench-nvcc" ]; then
  bash "$here/run.sh" gpu "$dir/bin/libbench-hetgpu" "$dir/bin/libbench-nvcc" \
    "$dir/bin/libbench-nvcc-samelib"
fi
