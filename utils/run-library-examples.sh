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
#   utils/run-library-examples.sh [-d DEVICE] [-b BUILD] [-o WORKDIR] [-n|-r] [NAME...]
#
# NAME: an example's file name without .cu (e.g. sort, example_device_scan);
# none: all of them. DEVICE: a HETGPU_DEVICE value (default cpu). -n: only
# build (the hetgpu-cc binaries and the host backend's reference outputs, in
# WORKDIR); -r: only run what an earlier -n left in WORKDIR (a machine
# without compilers, bench/nvidia/device-run.sh).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${HETGPU_BUILD_DIR:-$root/build}"
device=cpu
work=""
phase=all
while getopts "d:b:o:nr" o; do
  case $o in
    n) phase=build ;;
    r) phase=run ;;
    d) device=$OPTARG ;;
    b) build=$OPTARG ;;
    o) work=$OPTARG ;;
    *) echo "usage: $0 [-d DEVICE] [-b BUILD] [-o WORKDIR] [-n|-r] [NAME...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ -n "$work" ] || work="$(mktemp -d)"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
cc="$build/bin/hetgpu-cc"
thrust_ex=/usr/share/doc/libthrust-dev/examples
cub_ex=/usr/share/doc/libcub-dev/examples
cub_util="$root/test/Libraries/Inputs/cub-examples/examples/device"
timeout_s="${HETGPU_EXAMPLE_TIMEOUT:-300}"
# Examples whose output is not the host backend's by design: only their exit
# status is compared. Two print timings; minimal_custom_backend's custom
# for_each is reached from thrust::transform only where the backend builds
# transform on for_each (the host backends do, the CUDA backend does not).
timed="sorting_aos_vs_soa discrete_voronoi minimal_custom_backend"

all=()
for f in "$thrust_ex"/*.cu "$cub_ex"/block/*.cu "$cub_ex"/device/*.cu; do
  [ -f "$f" ] && all+=("$f")
done
if [ "$phase" = run ] && [ $# -eq 0 ]; then
  # What the build phase left: thrust/NAME or cub/NAME executables.
  all=()
  for e in "$work"/thrust/* "$work"/cub/*; do
    case "$(basename "$e")" in *.*) continue ;; esac
    [ -x "$e" ] && all+=("$e")
  done
fi
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
# build NAME SOURCE KIND: the hetgpu-cc binary and, for Thrust, the host
# backend's output (WORKDIR/KIND/NAME, NAME.ref; no .ref: the host backend
# cannot build it, so only the exit status counts).
build_one() {
  local n=$1 f=$2 kind=$3 exe="$work/$3/$1"
  local inc=(-I "$thrust_ex/include")
  [ "$kind" = cub ] && inc=(-I "$cub_util")
  mkdir -p "$work/$kind"
  if ! "$cc" -O2 "${inc[@]}" "$f" -o "$exe" > "$exe.build" 2>&1; then
    echo "hetgpu-cc: $(grep -m1 -E 'error' "$exe.build")"
    return 1
  fi
  if [ "$kind" = thrust ] && g++ -O1 -std=c++17 -x c++ \
      -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CPP "${inc[@]}" "$f" \
      -o "$exe.host" > "$exe.hostbuild" 2>&1; then
    (cd "$work/$kind" && timeout "$timeout_s" "$exe.host" > "$exe.ref" 2>/dev/null)
  fi
  return 0
}
# same_within_rounding A B: the two outputs have the same words, numbers
# equal to 1e-4 relative. Parallel floating-point reductions (the CUDA
# backend's trees against the host backend's loop) round differently.
same_within_rounding() {
  python3 - "$1" "$2" <<'PY'
import re, sys
num = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
a, b = (open(p).read().split() for p in sys.argv[1:3])
if len(a) != len(b):
    sys.exit(1)
for x, y in zip(a, b):
    if x == y:
        continue
    if not (num.match(x) and num.match(y)):
        sys.exit(1)
    fx, fy = float(x), float(y)
    if abs(fx - fy) > 1e-4 * max(abs(fx), abs(fy)):
        sys.exit(1)
PY
}
# run NAME KIND: runs the binary on DEVICE and checks it.
run_one() {
  local n=$1 kind=$2 exe="$work/$2/$1"
  # In its own folder: some examples write files (discrete_voronoi.pgm).
  (cd "$work/$kind" && HETGPU_DEVICE="$device" timeout "$timeout_s" "$exe" > "$exe.out" 2> "$exe.err")
  local rc=$?
  if [ $rc -ne 0 ]; then
    echo "exit status $rc: $(tail -1 "$exe.err")"
    return 1
  fi
  if [ "$kind" = cub ]; then
    if grep -q "FAIL" "$exe.out"; then grep -m1 FAIL "$exe.out"; return 1; fi
    return 0
  fi
  if [ -f "$exe.ref" ] && [[ " $timed " != *" $n "* ]] && ! cmp -s "$exe.out" "$exe.ref" &&
     ! same_within_rounding "$exe.out" "$exe.ref"; then
    echo "output differs from the host backend's ($exe.out vs $exe.ref)"
    return 1
  fi
  return 0
}
for f in "${sel[@]}"; do
  n="$(basename "$f" .cu)"
  case "$f" in
    "$cub_ex"/*|"$work"/cub/*) kind=cub ;;
    *) kind=thrust ;;
  esac
  if [ "$phase" != run ]; then
    if ! why=$(build_one "$n" "$f" "$kind"); then result "$n" 1 "$why"; continue; fi
  fi
  if [ "$phase" = build ]; then
    echo "BUILT $n"
    continue
  fi
  if why=$(run_one "$n" "$kind"); then result "$n" 0; else result "$n" 1 "$why"; fi
done
[ "$phase" = build ] && exit 0
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
