#!/usr/bin/env bash
# utils/run-library-examples.sh - build the Thrust and CUB examples that Debian
# ships (libthrust-dev, libcub-dev) with hetgpu-cc, run them on a hetGPU
# device and check them:
#   * a Thrust example passes when its output equals that of the same source
#     built with g++ for Thrust's host backend (THRUST_DEVICE_SYSTEM_CPP);
#   * a CUB example passes when it exits 0 and prints no FAIL (its own
#     self-checks; test/Libraries/Inputs/cub-examples/test/test_util.h).
# Prints one line per example and ends with "N passed, N failed".
#
#   utils/run-library-examples.sh [-d DEVICE] [-b BUILD] [-o WORKDIR] [NAME...]
#
# NAME: an example's file name without .cu (e.g. sort, example_device_scan);
# none: all of them. DEVICE: a HETGPU_DEVICE value (default cpu).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${HETGPU_BUILD_DIR:-$root/build}"
device=cpu
work=""
while getopts "d:b:o:" o; do
  case $o in
    d) device=$OPTARG ;;
    b) build=$OPTARG ;;
    o) work=$OPTARG ;;
    *) echo "usage: $0 [-d DEVICE] [-b BUILD] [-o WORKDIR] [NAME...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ -n "$work" ] || work="$(mktemp -d)"
mkdir -p "$work"
cc="$build/bin/hetgpu-cc"
thrust_ex=/usr/share/doc/libthrust-dev/examples
cub_ex=/usr/share/doc/libcub-dev/examples
cub_util="$root/test/Libraries/Inputs/cub-examples/examples/device"
timeout_s="${HETGPU_EXAMPLE_TIMEOUT:-300}"
# Examples whose output holds timings: only their exit status is compared.
timed="sorting_aos_vs_soa"

all=()
for f in "$thrust_ex"/*.cu "$cub_ex"/block/*.cu "$cub_ex"/device/*.cu; do
  [ -f "$f" ] && all+=("$f")
done
sel=()
if [ $# -eq 0 ]; then
  sel=("${all[@]}")
else
  for n in "$@"; do
    found=""
    for f in "${all[@]}"; do
      [ "$(basename "$f" .cu)" = "$n" ] && found="$f"
    done
    [ -n "$found" ] || { echo "no example named $n" >&2; exit 2; }
    sel+=("$found")
  done
fi

pass=0
fail=0
result() { # name, ok(0/1), why
  if [ "$2" = 0 ]; then pass=$((pass + 1)); echo "PASS $1"
  else fail=$((fail + 1)); echo "FAIL $1: $3"; fi
}
for f in "${sel[@]}"; do
  n="$(basename "$f" .cu)"
  exe="$work/$n"
  case "$f" in
    "$cub_ex"/*) inc=(-I "$cub_util") ;;
    *) inc=(-I "$thrust_ex/include") ;;
  esac
  if ! "$cc" -O2 "${inc[@]}" "$f" -o "$exe" > "$work/$n.build" 2>&1; then
    result "$n" 1 "hetgpu-cc: $(grep -m1 -E 'error' "$work/$n.build")"
    continue
  fi
  HETGPU_DEVICE="$device" timeout "$timeout_s" "$exe" > "$work/$n.out" 2> "$work/$n.err"
  rc=$?
  if [ $rc -ne 0 ]; then
    result "$n" 1 "exit status $rc: $(tail -1 "$work/$n.err")"
    continue
  fi
  case "$f" in
    "$cub_ex"/*)
      if grep -q "FAIL" "$work/$n.out"; then
        result "$n" 1 "$(grep -m1 FAIL "$work/$n.out")"
      else
        result "$n" 0
      fi ;;
    *)
      if ! g++ -O1 -std=c++17 -x c++ -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CPP \
          "${inc[@]}" "$f" -o "$exe.ref" > "$work/$n.refbuild" 2>&1; then
        # The host backend cannot build it (CUDA-only code): exit status only.
        result "$n" 0
        continue
      fi
      timeout "$timeout_s" "$exe.ref" > "$work/$n.ref" 2>/dev/null
      if [[ " $timed " == *" $n "* ]] || cmp -s "$work/$n.out" "$work/$n.ref"; then
        result "$n" 0
      else
        result "$n" 1 "output differs from the host backend's ($work/$n.out vs $work/$n.ref)"
      fi ;;
  esac
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
