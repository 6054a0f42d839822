#!/bin/sh
# bench/multigpu/run-x2.sh - two NVIDIA GPUs and the CPU in one process (the
# `device` tool's nvidia-h200-x2 machine). Prints PASS/FAIL lines and numbers
# (BW, MOVE, DOWNTIME); exit status 1 if a check failed. Every step is
# bounded by `timeout` (X2_TIMEOUT seconds, default 60): a hang is a FAIL;
# once X2_BUDGET seconds (default 500) have passed, the remaining runs are
# reported SKIP, so the whole script ends within the device tool's 600 s.
# SPDX-License-Identifier: Apache-2.0
#
# Two steps, as bench/migration/run-gpu.sh (build-x is git-ignored, so it
# travels when named in carry; about 60 MB):
#   here:  sh bench/multigpu/run-x2.sh --carry build-x build-x/x2carry
#   there: sh bench/multigpu/run-x2.sh --device build-x/x2carry   (carry
#          ["build-x/x2carry"], kind nvidia-h200-x2, timeout_s 600)
#
# Steps on the machine:
#  a. hetgpu-info lists both GPUs; test/Runtime/multi-device.cu (its ALL
#     checks: every device, GPUs and CPU, HETGPU_DEVICE=all) and with
#     HETGPU_DEVICE=nvidia (the two GPUs); test/Runtime/peer-access.cu needs
#     tt-sim (qemu), which the machine lacks: reported SKIP if so;
#  b. split: work over GPU 0, GPU 1 and the CPU, a kernel on GPU 1 reading
#     GPU 0's memory (peer access), cudaMemcpyPeer both ways;
#  c. peerbw 256: cudaMemcpyPeer GPU <-> GPU (with and without peer access)
#     against pinned H2D/D2H;
#  d. hetgpu-nvidia-transfer 256: the backend's direct GPU -> GPU move of
#     VMM memory at unified addresses (what migration uses), 0 -> 1 -> 0;
#  e. live migration GPU 0 -> GPU 1 -> GPU 0 at random safe points
#     (HETGPU_MIGRATE=random:seed=S:to=1,0:verbose, HETGPU_DEVICE=nvidia:
#     devices 0 and 1 are the GPUs) of mig-xdev and migrate: output equal to
#     the unmigrated run, and the log shows the device moved (and how:
#     "N allocations moved device to device", or "N allocations copied"
#     through host buffers where the GPUs cannot reach each other; managed
#     memory stays in host memory);
#  f. downtime of mig-downtime MB moved GPU 0 -> GPU 1, next to the
#     measured peer bandwidth.
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$HERE/../..
case "$1" in
--carry)
  B=$2 D=$3
  sh "$ROOT/bench/migration/run-gpu.sh" --carry "$B" "$D" > /dev/null || exit 1
  rm -f "$D/bin/mig-overhead" # not used here; keeps the carry small
  CC="$B/bin/hetgpu-cc"
  "$CC" -O2 "$HERE/split.cu" -o "$D/bin/split" &&
    "$CC" -O2 "$HERE/peerbw.cu" -o "$D/bin/peerbw" &&
    "$CC" -O2 "$ROOT/test/Runtime/multi-device.cu" -o "$D/bin/multi-device" &&
    "$CC" -O2 "$ROOT/test/Runtime/peer-access.cu" -o "$D/bin/peer-access" &&
    cp "$B/bin/hetgpu-nvidia-transfer" /usr/lib/llvm-22/bin/FileCheck "$D/bin/" &&
    cp "$ROOT/test/Runtime/multi-device.cu" "$D/" || exit 1
  du -sh "$D"
  exit 0 ;;
--device) D=$2 ;;
*) echo "usage: run-x2.sh --carry BUILD_DIR DIR | --device DIR"; exit 2 ;;
esac

# Unpack the carried libraries (as run-gpu.sh --device does).
H=/tmp/hg-x2
mkdir -p "$H/lib" "$H/libx"
unz() { python3 -c 'import gzip,sys; open(sys.argv[2],"wb").write(gzip.open(sys.argv[1]).read())' "$1" "$2"; }
unz "$D/lib/libLLVM.so.22.1.gz" "$H/lib/libLLVM.so.22.1"
for f in "$D"/libx/*.gz; do
  l=$(basename "$f" .gz)
  ldconfig -p | grep -q "$l " || unz "$f" "$H/libx/$l"
done
cp "$D"/lib/*.so "$D"/lib/*.bc "$H/lib/"
export LD_LIBRARY_PATH=$H/lib:$H/libx HETGPU_TRANSLATOR=$H/lib/libhetgpu-translate.so
export HETGPU_CACHE_DIR=$H/cache
if [ -z "${HETGPU_LLD:-}" ] && ! command -v ld.lld > /dev/null && [ -f "$D/bin/ld.lld.gz" ]; then
  gzip -dc "$D/bin/ld.lld.gz" > "$H/ld.lld" && chmod +x "$H/ld.lld" && export HETGPU_LLD=$H/ld.lld
fi
P=$D/bin
T=$(mktemp -d)
TO="timeout ${X2_TIMEOUT:-60}"
START=$(date +%s)
# in_time WHAT: true while the budget lasts, else says SKIP.
in_time() {
  [ $(($(date +%s) - START)) -lt "${X2_BUDGET:-500}" ] && return 0
  echo "SKIP $* (out of time)"
  return 1
}
rc=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; rc=1; }

echo "== a. devices"
nvidia-smi --query-gpu=index,name,driver_version,pci.bus_id --format=csv,noheader 2>&1
$TO nvidia-smi topo -m 2>&1 | head -4
$TO "$D/lib/hetgpu-info" > "$T/info" 2>&1
grep "device [0-9]*.*:" "$T/info"
if grep -q "nvidia  *2 devices" "$T/info"; then pass "hetgpu-info: 2 NVIDIA GPUs"
else fail "hetgpu-info: $(grep nvidia "$T/info" | tail -1)"; fi
if HETGPU_DEVICE=all $TO "$P/multi-device" > "$T/md" 2>&1 &&
   "$P/FileCheck" --check-prefix=ALL "$D/multi-device.cu" < "$T/md" 2> "$T/md.fc"; then
  pass "multi-device.cu, all devices: $(grep -c 'slice' "$T/md") slices, $(head -1 "$T/md")"
else fail "multi-device.cu, all devices: $(tail -3 "$T/md" | tr '\n' ' ') $(head -3 "$T/md.fc" 2> /dev/null | tr '\n' ' ')"; fi
if HETGPU_DEVICE=nvidia $TO "$P/multi-device" > "$T/md2" 2>&1 &&
   "$P/FileCheck" --check-prefix=ALL "$D/multi-device.cu" < "$T/md2" 2> /dev/null; then
  pass "multi-device.cu, HETGPU_DEVICE=nvidia: $(head -1 "$T/md2")"
else fail "multi-device.cu, HETGPU_DEVICE=nvidia: $(tail -3 "$T/md2" | tr '\n' ' ')"; fi
HETGPU_DEVICE=cpu,tt-sim HETGPU_ARENA=1 $TO "$P/peer-access" > "$T/pa" 2>&1
if grep -q "need the cpu device first and a tt-sim device" "$T/pa"; then
  echo "SKIP peer-access.cu: needs tt-sim (qemu-riscv64) and the CPU as device 0"
else
  echo "INFO peer-access.cu: $(tr '\n' ' ' < "$T/pa" | head -c 400)"
fi

echo "== b. split over GPU 0, GPU 1 and the CPU ($(($(date +%s) - START)) s)"
HETGPU_DEVICE=all $TO "$P/split" > "$T/split" 2>&1 || rc=1
cat "$T/split"
grep -q "^ALL PASS" "$T/split" || echo "FAIL split (see above)"

echo "== c. peer bandwidth"
env -u HETGPU_DEVICE $TO "$P/peerbw" 256 > "$T/bw" 2>&1 || rc=1
cat "$T/bw"
PEERBW=$(grep "^BW peer-0to1 " "$T/bw" | awk '{print $3}')
[ -n "$PEERBW" ] || PEERBW=$(grep "^BW peer-0to1-noaccess" "$T/bw" | awk '{print $3}')

echo "== d. direct GPU -> GPU move of memory at unified addresses"
HETGPU_LOG=info $TO "$P/hetgpu-nvidia-transfer" 256 > "$T/tr" 2> "$T/tr.err"
grep -v "^allocate\|^fill" "$T/tr"
if grep -q "^ALL PASS" "$T/tr"; then pass "hetgpu-nvidia-transfer 256"
else fail "hetgpu-nvidia-transfer: $(tail -2 "$T/tr.err" | tr '\n' ' ')"; fi

echo "== e. live migration GPU 0 -> GPU 1 -> GPU 0 ($(($(date +%s) - START)) s)"
# mig NAME PROGRAM REF SEED
mig() {
  in_time "$1 seed=$4" || return 0
  out=$T/$1.$4
  if HETGPU_DEVICE=nvidia HETGPU_LOG=info HETGPU_MIGRATE=random:seed=$4:to=1,0:verbose \
       $TO "$2" > "$out" 2> "$out.err" &&
     cmp -s "$3" "$out" && grep -q "moved from .* to " "$out.err"; then
    # What moved: "N allocations moved device to device" or
    # "N allocations copied" (host buffers), managed allocations stay.
    how=$(grep -m1 "moved from" "$out.err" | sed -e 's/.*(nvidia), //' -e 's/ in [0-9.]* ms$//')
    pass "$1 seed=$4: output identical, $(grep -c 'resumed on' "$out.err") suspensions," \
      "$(grep -c 'moved from' "$out.err") moves between the GPUs; first: $how"
  else
    fail "$1 seed=$4: $(diff "$3" "$out" | head -4 | tr '\n' ' ')" \
      "$(grep -c 'moved from' "$out.err") moves; $(grep -v 'hetgpu: info' "$out.err" | tail -3 | tr '\n' ' ')"
  fi
}
HETGPU_DEVICE=nvidia $TO "$P/mig-xdev" > "$T/xref" 2> "$T/xref.err" || fail "mig-xdev unmigrated: $(tail -2 "$T/xref.err")"
for s in 1 2 3 4; do mig mig-xdev "$P/mig-xdev" "$T/xref" "$s"; done
if [ -x "$P/migrate" ]; then
  HETGPU_DEVICE=nvidia $TO "$P/migrate" > "$T/mref" 2> /dev/null || fail "migrate unmigrated"
  for s in 1 2 3; do mig migrate "$P/migrate" "$T/mref" "$s"; done
fi
grep -h "moved from\|peer-to-peer" "$T"/mig-xdev.1.err 2> /dev/null | head -4

echo "== f. downtime GPU 0 -> GPU 1 (peer bandwidth ${PEERBW:-?} GB/s)"
for mb in 64 256; do
  in_time "downtime ${mb}MB" || continue
  HETGPU_DEVICE=nvidia HETGPU_LOG=info HETGPU_MIGRATE=random:seed=1:to=1:verbose \
    $TO "$P/mig-downtime" $mb > "$T/d" 2> "$T/d.err"
  line=$(grep 'suspended' "$T/d.err" | head -1 |
    sed -e 's/.*), \([0-9]*\) bytes, checkpoint \([0-9.]*\) ms.*restore \([0-9.]*\) ms (move \([0-9.]*\)).*/bytes=\1 checkpoint_ms=\2 restore_ms=\3 move_ms=\4/')
  bytes=$(echo "$line" | sed -n 's/.*bytes=\([0-9]*\).*/\1/p')
  est=""
  [ -n "$bytes" ] && [ -n "$PEERBW" ] &&
    est=$(awk -v b="$bytes" -v bw="$PEERBW" 'BEGIN { printf "bytes/peer-BW %.3f ms", b / (bw * 1e6) }')
  how=$(grep -m1 "moved from" "$T/d.err" | sed -e 's/.*(nvidia), //' -e 's/ in [0-9.]* ms$//')
  echo "DOWNTIME gpu0->gpu1 alloc=${mb}MB ${line:-no suspension} | $est | $how | $(grep RESULT "$T/d")"
done
echo "== done in $(($(date +%s) - START)) s"
rm -rf "$T"
exit $rc
