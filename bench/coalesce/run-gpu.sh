#!/bin/sh
# bench/coalesce/run-gpu.sh - bench/coalesce on an NVIDIA GPU (the `device`
# tool's H200) against nvcc: the same coalesce.cu built by nvcc (eager
# launches and CUDA graph replay of the CUDA runtime) and by hetGPU (eager,
# eager coalesced, graph replayed through the stream, graph as the driver's
# graph, coalesced graph). Prints both tables and, per K and streams, the
# ratios against nvcc; then runs the graph programs of test/Runtime on the
# GPU, with driver graphs and with HETGPU_DRIVER_GRAPHS=0, each compared
# with the CPU device's output (staged by --carry). Everything on stdout.
# Each run is bounded by a timeout; the whole takes well under 2 minutes.
# SPDX-License-Identifier: Apache-2.0
#
#   run-gpu.sh --carry BUILD_DIR DIR    stage the hetGPU-built benchmark,
#                                       libhetgpu-rt, the translator, the
#                                       math library and libLLVM (xz: Python
#                                       unpacks it) into DIR (LLVM machine,
#                                       ~45 MB, 2 minutes)
#   run-gpu.sh --device DIR [groups [streams]]
#                                       unpack DIR's libraries, build the
#                                       nvcc version, run both (GPU machine;
#                                       defaults 500 groups, 8 streams)
# The `device` tool, in two steps (build/ is git-ignored, so it travels
# when named in carry):
#   here:  sh bench/coalesce/run-gpu.sh --carry build build/coalcarry
#   run:   sh bench/coalesce/run-gpu.sh --device build/coalcarry | tee $OUT/coal.txt
#          (carry ["build/coalcarry"])
# Ratios printed: het graph / nvcc graph (the issue's goal: at most 1.1),
# het eager / het coal and het eager / het ecoal (goal: at least 5 for a
# coalesced form), nvcc eager / het coal, het qgraph / het graph (what the
# driver's graph saves over replay through the stream).
HERE=$(cd "$(dirname "$0")" && pwd)
case "$1" in
--carry)
  B=$2 D=$3
  rm -rf "$D" && mkdir -p "$D/bin" "$D/lib" "$D/libx" || exit 1
  "$B/bin/hetgpu-cc" -O2 "$HERE/coalesce.cu" -o "$D/bin/coalesce-hetgpu" &&
    cp "$B"/lib/libhetgpu-rt.so "$B"/lib/libhetgpu-translate.so "$D/lib/" &&
    cp "$B"/lib/hetgpu-math-nvptx64-*.bc "$D/lib/" &&
    xz -T2 -9 -c /usr/lib/x86_64-linux-gnu/libLLVM.so.22.1 > "$D/lib/libLLVM.so.22.1.xz" || exit 1
  for l in libz3.so.4 libedit.so.2 libbsd.so.0 libmd.so.0 libffi.so.8 libxxhash.so.0; do
    [ -f "/lib/x86_64-linux-gnu/$l" ] && xz -9 -c "/lib/x86_64-linux-gnu/$l" > "$D/libx/$l.xz"
  done
  # The graph programs and their output on the CPU device (the reference).
  mkdir -p "$D/graphs"
  for t in graph-explicit-nodes graph-capture-fork-join graph-stream-order \
    graph-update-clone graph-coalesce graph-coalesce-refused \
    graph-coalesce-blocks graph-capture-errors graph-driver-nvidia-fake; do
    "$B/bin/hetgpu-cc" "$HERE/../../test/Runtime/$t.cu" -o "$D/graphs/$t" &&
      HETGPU_DEVICE=cpu "$D/graphs/$t" "$D/graphs/x.dot" > "$D/graphs/$t.ref" ||
      echo "warning: $t not staged"
  done
  rm -f "$D/graphs/x.dot"
  du -sh "$D"
  exit 0 ;;
--device) D=$2 G=${3:-500} S=${4:-8} ;;
*) echo "usage: $0 --carry BUILD_DIR DIR | --device DIR [groups [streams]]"; exit 2 ;;
esac
T=$(mktemp -d) H=$T/hg
mkdir -p "$H/lib" "$H/libx"
unz() { python3 -c 'import lzma,sys; open(sys.argv[2],"wb").write(lzma.open(sys.argv[1]).read())' "$1" "$2"; }
unz "$D/lib/libLLVM.so.22.1.xz" "$H/lib/libLLVM.so.22.1"
for f in "$D"/libx/*.xz; do
  l=$(basename "$f" .xz)
  ldconfig -p | grep -q "$l " || unz "$f" "$H/libx/$l"
done
cp "$D"/lib/*.so "$D"/lib/*.bc "$H/lib/"
export LD_LIBRARY_PATH=$H/lib:$H/libx HETGPU_TRANSLATOR=$H/lib/libhetgpu-translate.so \
  HETGPU_CACHE_DIR=$T/cache HETGPU_DEVICE=nvidia
TO=""
command -v timeout > /dev/null && TO="timeout ${COAL_TIMEOUT:-100}"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"
echo "== nvcc: $($NVCC --version 2>&1 | tail -1)"
# Both builds run at once (the nvcc compile takes tens of seconds).
$TO "$NVCC" -O3 -arch=sm_90 -o "$T/coalesce-nvcc" "$HERE/coalesce.cu" > "$T/nvcc-build.txt" 2>&1 &
NVPID=$!
echo "== hetGPU ($G groups, $S streams)"
$TO "$D/bin/coalesce-hetgpu" "$G" "$S" > "$T/het.txt" 2>&1
echo "exit $?"
grep -v '^ROW' "$T/het.txt"
# The graph programs: PASS when the output equals the CPU device's; the
# log's count of driver graphs built and of graphs replayed through the
# stream (with the reasons).
echo "== graph programs on the GPU"
for mode in driver stream; do
  for ref in "$D"/graphs/*.ref; do
    p=${ref%.ref} n=$(basename "${ref%.ref}")
    if [ $mode = stream ]; then export HETGPU_DRIVER_GRAPHS=0; else unset HETGPU_DRIVER_GRAPHS; fi
    HETGPU_LOG=info $TO "$p" "$T/x.dot" > "$T/$n.out" 2> "$T/$n.err"
    rc=$?
    if [ $rc = 0 ] && cmp -s "$ref" "$T/$n.out"; then r=PASS; else r="FAIL (exit $rc)"; fi
    echo "$r $n ($mode): $(grep -c 'a driver graph' "$T/$n.err") driver graphs," \
      "$(grep -c 'replayed through' "$T/$n.err") replayed"
    [ "$r" = PASS ] || { diff "$ref" "$T/$n.out" | head -6; grep -v 'info: \(translated\|loaded\|nvidia: \)' "$T/$n.err" | tail -6; }
    [ $mode = stream ] || grep 'replayed through' "$T/$n.err" | sort | uniq -c | head -3
  done
done
unset HETGPU_DRIVER_GRAPHS
wait $NVPID
nvrc=$?
if [ $nvrc != 0 ] || [ ! -x "$T/coalesce-nvcc" ]; then
  echo "== nvcc build failed ($nvrc):"; tail -5 "$T/nvcc-build.txt"; exit 1
fi
echo "== nvcc ($G groups, $S streams)"
$TO "$T/coalesce-nvcc" "$G" "$S" nvcc > "$T/nvcc.txt" 2>&1
echo "exit $?"
grep -v '^ROW' "$T/nvcc.txt"
echo "== per group (us) and ratios"
awk '
  FNR == 1 { f++ }
  $1 == "ROW" && f == 1 { k = $2 " " $3; ne[k] = $4; ng[k] = $7 }
  $1 == "ROW" && f == 2 {
    k = $2 " " $3; order[++n] = k
    he[k] = $4; hec[k] = $5; hq[k] = $6; hg[k] = $7; hc[k] = $8
  }
  function r(a, b) { return b > 0 ? a / b : 0 }
  END {
    printf "%4s %7s %8s %8s %8s %8s %8s %8s %8s %10s %10s %10s %10s %10s\n",
      "K", "streams", "nv-eager", "nv-graph", "eager", "ecoal", "qgraph", "graph",
      "coal", "graph/nvg", "eager/coal", "eager/ecoal", "nve/coal", "qgraph/graph"
    for (i = 1; i <= n; i++) {
      k = order[i]; split(k, kn, " ")
      printf "%4d %7d %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %10.2f %10.2f %10.2f %10.2f %10.2f\n",
        kn[1], kn[2], ne[k], ng[k], he[k], hec[k], hq[k], hg[k], hc[k],
        r(hg[k], ng[k]), r(he[k], hc[k]), r(he[k], hec[k]), r(ne[k], hc[k]),
        r(hq[k], hg[k])
    }
  }' "$T/nvcc.txt" "$T/het.txt"
