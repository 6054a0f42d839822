#!/usr/bin/env bash
# bench/libraries/stage-gpu.sh BUILD DEST - stage the Thrust/CUB checks for
# the GPU machine (no compilers there) into DEST: the library benchmark built
# by hetgpu-cc and by nvcc (twice: the toolkit's own Thrust/CUB, and
# Debian's 1.17.2 that hetgpu-cc uses), the tests of
# test/Libraries and Debian's examples (LIBRARY_EXAMPLES: names, default a
# slice; "all": every one), built here with their host-backend references.
# bench/nvidia/prepare-carry.sh calls it; run-gpu.sh runs what it staged.
# SPDX-License-Identifier: Apache-2.0
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$1"
dest="$2"
cc="$build/bin/hetgpu-cc"
mkdir -p "$dest/bin" "$dest/tests"
"$cc" -O3 "$here/libraries.cu" -o "$dest/bin/libbench-hetgpu"
if [ -x /usr/local/cuda/bin/nvcc ]; then
  /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 --extended-lambda \
    "$here/libraries.cu" -o "$dest/bin/libbench-nvcc"
  # The same Thrust/CUB as hetgpu-cc's build (Debian's 1.17.2, ahead of the
  # toolkit's CCCL): the compilers compared on one library version.
  same="$(mktemp -d)"
  ln -s /usr/include/thrust "$same/thrust"
  ln -s /usr/include/cub "$same/cub"
  /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 --extended-lambda -I"$same" \
    "$here/libraries.cu" -o "$dest/bin/libbench-nvcc-samelib" 2> "$same/log" ||
    { cat "$same/log" >&2; exit 1; }
  rm -rf "$same"
fi
for t in "$root"/test/Libraries/*.cu; do
  "$cc" -O2 "$t" -o "$dest/tests/$(basename "$t" .cu)"
done
ex="${LIBRARY_EXAMPLES:-sort sum norm saxpy histogram example_device_radix_sort example_device_scan example_block_scan example_block_reduce}"
[ "$ex" = all ] && ex=""
# shellcheck disable=SC2086
HETGPU_BUILD_DIR="$build" bash "$root/utils/run-library-examples.sh" -n \
  -o "$dest/examples" $ex
