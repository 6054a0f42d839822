#!/bin/sh
# bench/migration/run-gpu.sh - live migration checks and downtime on an
# NVIDIA GPU (the `device` tool's H200). Prints PASS/FAIL per check and
# DOWNTIME lines; exit status 1 if any check failed.
# SPDX-License-Identifier: Apache-2.0
#
#   run-gpu.sh BUILD_DIR          build the programs with BUILD_DIR's
#                                 hetgpu-cc, then run (LLVM and GPU machine)
#   run-gpu.sh --stage BUILD_DIR DIR   only build them into DIR (LLVM machine)
#   run-gpu.sh --prebuilt DIR     run with the programs in DIR (GPU machine;
#                                 bench/nvidia/device-run.sh passes .carry/bin)
#   run-gpu.sh --carry BUILD_DIR DIR   stage programs, libhetgpu-rt, the
#                                 translator, math libraries and libLLVM
#                                 (xz) into DIR (LLVM machine, ~40 MB)
#   run-gpu.sh --device DIR       unpack DIR's libraries and run with its
#                                 programs (GPU machine, DIR carried there)
#   run-gpu.sh --device-soak DIR  unpack, then utils/run-migration-soak.py on
#                                 the e2e programs --carry built into
#                                 DIR/soak: starting on the CPU device with
#                                 to=nvidia,cpu and on the GPU with
#                                 to=cpu,nvidia (issue 22's proof by hand);
#                                 SOAK_SEEDS=N, SOAK_ONLY=KEY,... (programs),
#                                 SOAK_LOGS=DIR (mismatching runs' output)
#
# The `device` tool, in two steps (build-x is git-ignored, so it travels
# when named in carry):
#   here:  sh bench/migration/run-gpu.sh --carry build-x build-x/migcarry
#   run:   sh bench/migration/run-gpu.sh --device build-x/migcarry | tee $OUT/mig.txt
#          (carry ["build-x/migcarry"])
#
# Programs: mig-longrun (longrun.cu), mig-xdev (test/Migration/Inputs/xdev.cu: barriers, shared memory,
# warp shuffles, atomics, device pointers stored in device memory; integer
# output, identical on every device), mig-downtime (downtime.cu), and
# `migrate` (test/Migration/migrate-cpu.cu, staged by prepare-carry.sh).
# Checks, each at several random safe points (HETGPU_MIGRATE=random:seed=S):
#  * nvidia -> nvidia (suspend and resume on the GPU);
#  * cpu -> nvidia, nvidia -> cpu and cpu -> nvidia -> cpu -> ...: output
#    equal to the unmigrated run, and the run really resumed on the other
#    device (the runtime's verbose "resumed on device 0: ... (nvidia|cpu)");
#    device memory keeps its addresses (the NVIDIA backend maps GPU memory
#    into the process-wide arena with the driver's VMM API);
#  * a kernel running on the GPU (longrun.cu) suspended by after_ms, the
#    host raising the flag in device memory while it runs; resumed on the
#    GPU and on the CPU;
#  * downtime: one suspension of downtime.cu moved cpu -> nvidia and
#    nvidia -> cpu for 16/64/256 MB of allocations, next to the measured
#    copy bandwidth.
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$HERE/../..
stage() { # BUILD_DIR DIR
  CC="$1/bin/hetgpu-cc"
  mkdir -p "$2"
  "$CC" -O2 "$ROOT/test/Migration/Inputs/xdev.cu" -o "$2/mig-xdev" &&
    "$CC" -O2 "$HERE/downtime.cu" -o "$2/mig-downtime" &&
    "$CC" -O2 "$HERE/longrun.cu" -o "$2/mig-longrun" &&
    { [ -x "$2/mig-overhead" ] || "$CC" -O3 "$HERE/overhead.cu" -o "$2/mig-overhead"; } &&
    { [ -x "$2/migrate" ] || "$CC" -O2 "$ROOT/test/Migration/migrate-cpu.cu" -o "$2/migrate"; } &&
    # (The CPU device links with the lld inside the translator: no ld.lld
    # is carried; test/Runtime/no-llvm-tools.test.)
    # ... and the host math library next to the carried translator
    # (prepare-carry.sh stages .carry/lib with the nvptx one only).
    { [ ! -d "$2/../lib" ] || cp "$1"/lib/hetgpu-math-x86_64-*.bc "$2/../lib/"; }
}
case "$1" in
--stage) stage "$2" "$3"; exit $? ;;
--carry)
  rm -rf "$3" && mkdir -p "$3/bin" "$3/lib" "$3/libx" &&
    stage "$2" "$3/bin" &&
    cp "$2"/bin/hetgpu-info "$2"/lib/hetgpu-math-nvptx64-*.bc \
      "$2"/lib/hetgpu-math-x86_64-*.bc "$3/lib/" &&
    # xz: the carry (with the working tree) must stay under 64 MiB.
    for l in "$2"/lib/libhetgpu-rt.so "$2"/lib/libhetgpu-translate.so \
        /usr/lib/x86_64-linux-gnu/libLLVM.so.22.1; do
      xz -6 -T2 -c "$l" > "$3/lib/$(basename "$l").xz" || exit 1
    done || exit 1
  # The e2e programs for --device-soak, and FileCheck for their checks.
  HETGPU_CC="$2/bin/hetgpu-cc" python3 "$ROOT/utils/run-migration-soak.py" \
    --build-only --out "$3/soak" "$ROOT/test/Execution" "$ROOT/test/Runtime" &&
    cp /usr/lib/llvm-22/bin/FileCheck "$3/bin/" || exit 1
  # Libraries libLLVM needs that the GPU machine's image may lack.
  for l in libz3.so.4 libedit.so.2 libbsd.so.0 libmd.so.0 libffi.so.8; do
    xz -6 -c "/lib/x86_64-linux-gnu/$l" > "$3/libx/$l.xz"
  done
  du -sh "$3"
  exit 0 ;;
--device|--device-soak)
  D=$2 H=/tmp/hg-mig
  mkdir -p "$H/lib" "$H/libx"
  unz() { python3 -c 'import gzip,lzma,sys; f=sys.argv[1]; open(sys.argv[2],"wb").write((lzma.open if f.endswith(".xz") else gzip.open)(f).read())' "$1" "$2"; }
  for f in "$D"/lib/*.xz; do
    unz "$f" "$H/lib/$(basename "$f" .xz)"
  done
  for f in "$D"/libx/*.xz; do
    l=$(basename "$f" .xz)
    ldconfig -p | grep -q "$l " || unz "$f" "$H/libx/$l"
  done
  cp "$D"/lib/*.bc "$H/lib/"
  export LD_LIBRARY_PATH=$H/lib:$H/libx HETGPU_TRANSLATOR=$H/lib/libhetgpu-translate.so
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
  [ "$1" = --device ] && exec sh "$0" --prebuilt "$D/bin"
  # The soak writes beside its programs: a copy outside the carry.
  S=$(mktemp -d) && cp -r "$D/soak/." "$S/" || exit 1
  export FILECHECK="$D/bin/FileCheck"
  src=0
  for start in "cpu nvidia,cpu" "nvidia cpu,nvidia"; do
    set -- $start
    echo "== soak: start on $1, to=$2"
    python3 "$ROOT/utils/run-migration-soak.py" --prebuilt --out "$S" \
      --seeds "${SOAK_SEEDS:-1}" --device "$1" --to "$2" \
      ${SOAK_ONLY:+--only "$SOAK_ONLY"} ${SOAK_LOGS:+--logs "$SOAK_LOGS/$1"} \
      --require-suspended || src=1
  done
  exit $src ;;
--prebuilt) P=$2 ;;
*)
  P=$(mktemp -d)
  stage "${1:-build-migrt}" "$P" || { echo "FAIL build"; exit 1; }
  ;;
esac
T=$(mktemp -d)
if [ -z "${HETGPU_LLD:-}" ] && ! command -v ld.lld > /dev/null; then
  if [ -f "$P/ld.lld.gz" ]; then
    gzip -dc "$P/ld.lld.gz" > "$T/ld.lld" && chmod +x "$T/ld.lld"
  fi
  for l in "$T/ld.lld" /usr/lib/llvm-*/bin/ld.lld; do
    [ -x "$l" ] && { export HETGPU_LLD=$l; break; }
  done
  echo "ld.lld for the CPU device: ${HETGPU_LLD:-none}"
fi
# Every run is bounded (a hang is a failure, not a stuck machine).
TO=""
command -v timeout > /dev/null && TO="timeout ${MIG_TIMEOUT:-120}"
export HETGPU_CACHE_DIR=${HETGPU_CACHE_DIR:-$T/cache}
rc=0

# check NAME PROGRAM REF START TO SEED: migrate at random safe points from
# device START to the to= list TO; PASS when the output equals REF and a
# suspension resumed on the last device named in TO.
check() {
  name=$1 prog=$2 ref=$3 start=$4 to=$5 seed=$6
  want=${7:-${to##*,}}
  out=$T/$name.$seed
  ok=0
  HETGPU_DEVICE=$start HETGPU_MIGRATE=random:seed=$seed:to=$to:verbose \
    $TO "$prog" > "$out" 2> "$out.err" &&
    cmp -s "$ref" "$out" &&
    grep -Eq "resumed on device 0: .*\(($want)\)\$" "$out.err" && ok=1
  # Every cross-device check really ran on the GPU at some point.
  [ "$start" = nvidia ] || grep -q "resumed on device 0: .*(nvidia)\$" "$out.err" || ok=0
  if [ $ok = 1 ]; then
    echo "PASS $name seed=$seed ($(grep -c 'resumed on' "$out.err") suspensions," \
         "$(grep -c 'moved from' "$out.err") device moves)"
  else
    echo "FAIL $name seed=$seed: $(diff "$ref" "$out" | head -4 | tr '\n' ' ')" \
         "$(grep -v '^hetgpu-migrate' "$out.err" | tail -3 | tr '\n' ' ')"
    rc=1
  fi
}

X=$P/mig-xdev
HETGPU_DEVICE=cpu "$X" > "$T/ref.cpu" 2> "$T/ref.cpu.err" || echo "FAIL xdev on cpu: $(tail -2 "$T/ref.cpu.err")"
HETGPU_DEVICE=nvidia "$X" > "$T/ref.nv" 2> "$T/ref.nv.err" || echo "FAIL xdev on nvidia: $(tail -2 "$T/ref.nv.err")"
if cmp -s "$T/ref.cpu" "$T/ref.nv"; then
  echo "PASS xdev unmigrated: cpu and nvidia agree"
else
  echo "FAIL xdev unmigrated: cpu and nvidia differ"; rc=1
  diff "$T/ref.cpu" "$T/ref.nv"
fi
for s in 1 2 3 4; do
  check nvidia-to-nvidia "$X" "$T/ref.nv" nvidia nvidia "$s"
done
for s in 1 2 3 4 5; do
  check cpu-to-nvidia "$X" "$T/ref.cpu" cpu nvidia "$s"
done
for s in 1 2 3 4 5; do
  check nvidia-to-cpu "$X" "$T/ref.cpu" nvidia cpu "$s"
done
for s in 2 4 6; do
  # (a seed may suspend only once: then it moved to the GPU and finished
  # there; the way back is checked by nvidia-to-cpu above)
  check cpu-nvidia-cpu "$X" "$T/ref.cpu" cpu nvidia,cpu "$s" "nvidia|cpu"
done
# The time trigger. CPU -> GPU: the host writes the CPU device's flag
# while the kernel runs.
if HETGPU_DEVICE=cpu HETGPU_MIGRATE=after_ms=1:to=nvidia:verbose $TO "$X" > "$T/t" 2> "$T/t.err" &&
   cmp -s "$T/ref.cpu" "$T/t" && grep -q 'resumed on device 0: .*(nvidia)$' "$T/t.err"; then
  echo "PASS cpu-to-nvidia after_ms=1"
else
  echo "FAIL cpu-to-nvidia after_ms=1: $(tail -2 "$T/t.err" | tr '\n' ' ')"; rc=1
fi
# A kernel running on the GPU (longrun.cu, about 10 ms) suspended by the
# time trigger: the host raises the flag in device memory through a second
# stream while the kernel runs; resumed on the GPU and on the CPU.
if [ -x "$P/mig-longrun" ]; then
  HETGPU_DEVICE=nvidia "$P/mig-longrun" > "$T/lref" 2>/dev/null
  for to in nvidia cpu; do
    if HETGPU_DEVICE=nvidia HETGPU_MIGRATE=after_ms=3:to=$to:verbose $TO "$P/mig-longrun" > "$T/l" 2> "$T/l.err" &&
       grep -q '^longrun ok' "$T/l" && cmp -s "$T/lref" "$T/l" &&
       grep -q 'yield flag raised while a launch runs' "$T/l.err" &&
       grep -q "resumed on device 0: .*($to)\$" "$T/l.err"; then
      echo "PASS nvidia-running-to-$to after_ms=3 ($(grep -o 'suspended ([0-9]* of [0-9]* blocks' "$T/l.err" | head -1)))"
    else
      echo "FAIL nvidia-running-to-$to after_ms=3: $(tail -3 "$T/l.err" | tr '\n' ' ')"; rc=1
    fi
  done
fi
# test/Migration/migrate-cpu.cu (floats in its stencil: compared on the
# GPU only).
if [ -x "$P/migrate" ]; then
  HETGPU_DEVICE=nvidia "$P/migrate" > "$T/mref" 2>/dev/null
  for s in 1 2 3; do
    check migrate-cpu.cu-nvidia "$P/migrate" "$T/mref" nvidia nvidia "$s"
  done
fi

# Downtime: bytes moved, checkpoint and restore (with the move) against the
# copy bandwidth of the link.
D=$P/mig-downtime
for mb in 16 64 256; do
  HETGPU_DEVICE=nvidia "$D" $mb > "$T/dn" 2>&1
  for dir in cpu:nvidia nvidia:cpu; do
    start=${dir%%:*} to=${dir##*:}
    HETGPU_DEVICE=$start HETGPU_MIGRATE=random:seed=1:to=$to:verbose $TO "$D" $mb > "$T/d" 2> "$T/d.err"
    line=$(grep 'suspended' "$T/d.err" | head -1 |
      sed -e 's/.*), \([0-9]*\) bytes, checkpoint \([0-9.]*\) ms.*restore \([0-9.]*\) ms (move \([0-9.]*\)).*/bytes=\1 checkpoint_ms=\2 restore_ms=\3 move_ms=\4/')
    echo "DOWNTIME ${start}->${to} alloc=${mb}MB $line $(grep RESULT "$T/d")" \
         "| nvidia $(grep '^COPY ' "$T/dn" | sed 's/.* \([0-9.]*\) MB\/s/D2H \1 MB\/s/')" \
         "$(grep '^COPYH2D' "$T/dn" | sed 's/.* \([0-9.]*\) MB\/s/H2D \1 MB\/s/')"
  done
done
# Steady-state cost of instrumentation (run.sh's table, when it offers
# --overhead: the compile-side work owns it).
if [ -x "$P/mig-overhead" ] && grep -q -- "--overhead" "$HERE/run.sh"; then
  sh "$HERE/run.sh" --overhead "$P/mig-overhead" nvidia cpu || rc=1
fi
# Steady-state cost of the instrumentation on the GPU (run.sh --overhead:
# plain vs HETGPU_MIGRATE=on in alternation; prepare-carry.sh builds it).
if [ -x "$P/mig-overhead" ]; then
  sh "$HERE/run.sh" --overhead "$P/mig-overhead" nvidia
fi
rm -rf "$T"
exit $rc
