#!/usr/bin/env bash
# utils/run-fuzzers.sh SECONDS [TARGET...] - build the libFuzzer targets of
# fuzz/ with clang-22 into $HETGPU_FUZZ_BUILD_DIR (default build-fuzz/) and
# run each for SECONDS on a copy of its seed corpus (fuzz/corpus/<target>).
# A crash, leak, hang (> 10 s on one input) or failed check stops with the
# input saved as build-fuzz/crash-*: fix it and add the input as a
# regression test under test/.../Inputs.
#
# The seeds were made from the test inputs: container and module-tables =
# the .hetgpu files of hetgpu-cc -keep of test/Container/Inputs/kernels.cu
# and byval-launch.cu (container also: kernels.cu with --offload-arch=sm_90,
# and that with its image's bytes damaged by
# test/Container/Inputs/tamper-image.py); checkpoint = two small version-4 images (memory
# only; a suspended launch) laid out as Migration/CheckpointImage.cpp
# writes them; inline-ptx = the asm strings of test/Transforms/InlinePTX/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
secs="${1:-10}"
shift || true
build="${HETGPU_FUZZ_BUILD_DIR:-$root/build-fuzz}"
jobs="${HETGPU_JOBS:-$(nproc)}"
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(fuzz-container fuzz-checkpoint fuzz-module-tables fuzz-inline-ptx)
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root/fuzz" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_DIR="$(llvm-config-22 --cmakedir)" \
    $(command -v ccache >/dev/null && echo -DCMAKE_CXX_COMPILER_LAUNCHER=ccache) >/dev/null
fi
ninja -C "$build" -j "$jobs" "${targets[@]}" >/dev/null
status=0
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t"
  mkdir -p "$corpus"
  cp -n "$root/fuzz/corpus/$t"/* "$corpus"/ 2>/dev/null || true
  # Leaks: LLVM's reader keeps some state for the process (not a bug of
  # the input), so only the container and checkpoint targets check them.
  leaks=1
  [ "$t" = fuzz-module-tables ] || [ "$t" = fuzz-inline-ptx ] && leaks=0
  if (cd "$build" && ASAN_OPTIONS=detect_leaks=$leaks \
        "./$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=0 "$corpus" >"$t.log" 2>&1); then
    echo "$t: ok, no crash in ${secs}s ($(ls "$corpus" | wc -l) inputs in its corpus)"
  else
    echo "$t: FAILED (log: $build/$t.log)"
    tail -30 "$build/$t.log"
    status=1
  fi
done
exit $status
