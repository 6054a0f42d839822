// CUDA graphs on NVIDIA become the driver's own graphs (API/DriverGraph.h),
// shown on the stand-in driver (memory is host memory, kernels do not run;
// its cuGraph* runs copies, fills and host nodes in dependency order and
// logs every node): an explicit graph of every node kind (memcpy both ways,
// a 4-byte 2D memset, kernels, a child graph, an empty node, a host node,
// event record and wait) is one cuGraphLaunch per cudaGraphLaunch, and its
// copies read and write the host buffers at each run. A kernel parameter
// update goes through cuGraphExecKernelNodeSetParams; a memcpy update and a
// disabled node build the driver graph again; two small independent kernels
// become one fused kernel node. A memcpy of managed memory,
// HETGPU_DRIVER_GRAPHS=0, live migration, memcheck, a driver whose
// cuGraphCreate fails and one without the cuGraph* entry points replay
// through the stream, logged with the reason, with the same results.
// RUN: hetgpu-cc %s -o %t
// RUN: rm -rf %t.log %t.off.log %t.cache
// RUN: env HETGPU_DEVICE=nvidia HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so FAKE_CUDA_LOG=%t.log HETGPU_CACHE_DIR=%t.cache HETGPU_LOG=info %t > %t.out 2> %t.info
// RUN: FileCheck %s < %t.out
// RUN: FileCheck --check-prefix=LOG %s < %t.log
// RUN: FileCheck --check-prefix=INFO %s < %t.info
// RUN: env HETGPU_DEVICE=nvidia HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so FAKE_CUDA_LOG=%t.off.log HETGPU_CACHE_DIR=%t.cache HETGPU_LOG=info HETGPU_DRIVER_GRAPHS=0 %t 2> %t.off.info | FileCheck %s
// RUN: FileCheck --check-prefix=OFF %s < %t.off.info
// RUN: not grep graph- %t.off.log
// RUN: env HETGPU_DEVICE=nvidia HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so HETGPU_CACHE_DIR=%t.cache HETGPU_LOG=info FAKE_CUDA_NO_GRAPHS=1 %t 2> %t.old.info | FileCheck %s
// RUN: FileCheck --check-prefix=OLD %s < %t.old.info
// RUN: env HETGPU_DEVICE=nvidia HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda-nographs.so HETGPU_CACHE_DIR=%t.cache HETGPU_LOG=info %t 2> %t.none.info | FileCheck %s
// RUN: FileCheck --check-prefix=NONE %s < %t.none.info
// RUN: env HETGPU_DEVICE=nvidia HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so HETGPU_CACHE_DIR=%t.cache HETGPU_LOG=info HETGPU_MIGRATE=on %t 2> %t.mig.info | FileCheck %s
// RUN: FileCheck --check-prefix=MIG %s < %t.mig.info
// RUN: env HETGPU_DEVICE=nvidia HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so HETGPU_CACHE_DIR=%t.cache HETGPU_LOG=info HETGPU_MEMCHECK=1 %t 2> %t.mc.info | FileCheck %s
// RUN: FileCheck --check-prefix=MEMCHECK %s < %t.mc.info
// CHECK: replays 5 ok, host node saw 5 good runs
// CHECK-NEXT: event recorded by the graph: cudaSuccess
// CHECK-NEXT: kernel update: cudaSuccess
// CHECK-NEXT: memcpy update: ok
// CHECK-NEXT: disabled node: ok
// CHECK-NEXT: fused graph: ok
// CHECK-NEXT: managed memcpy graph: ok
// CHECK-NEXT: PASS
//
// The explicit graph: 9 nodes (the empty one left out) and the child
// graph's entry, in dependency order at each launch.
// LOG: graph-add-kernel _Z4fillPiii grid 1 1 1 block 64 1 1 shared 0
// LOG: graph-add-kernel _Z5twicePii grid 1 1 1 block 64 1 1 shared 0
// LOG: graph-instantiate 10 nodes
// LOG: graph-launch 10 nodes
// LOG-NEXT: graph-memcpy host -> device 256 x 1 bytes
// LOG-NEXT: graph-memset 16 x 4 elements of 4 bytes
// LOG-NEXT: graph-kernel _Z4fillPiii grid 1 1 1 block 64 1 1 shared 0
// LOG-NEXT: graph-kernel _Z5twicePii grid 1 1 1 block 64 1 1 shared 0
// LOG-NEXT: graph-memcpy device -> host 256 x 1 bytes
// LOG-NEXT: graph-memcpy device -> host 256 x 1 bytes
// LOG-NEXT: graph-host
// LOG-NEXT: graph-event-record
// LOG-NEXT: graph-event-wait
// LOG: graph-launch 10 nodes
// LOG: graph-launch 10 nodes
// LOG: graph-launch 10 nodes
// LOG: graph-launch 10 nodes
// LOG-NOT: graph-launch
// LOG: graph-exec-set-kernel _Z4fillPiii grid 2 1 1 block 32 1 1 shared 0
// LOG-NEXT: graph-launch 10 nodes
// LOG: graph-kernel _Z4fillPiii grid 2 1 1 block 32 1 1 shared 0
// After the memcpy update: built again.
// LOG: graph-instantiate 10 nodes
// LOG-NEXT: graph-launch 10 nodes
// After the kernel node was disabled: built again, without it.
// LOG: graph-instantiate 10 nodes
// LOG-NEXT: graph-launch 10 nodes
// LOG-NOT: graph-kernel _Z4fill
// LOG: graph-kernel _Z5twicePii
// The two small kernels of the second graph: one fused kernel node.
// LOG: graph-add-kernel hetgpu_fused_kernel grid 2 1 1 block 32 1 1 shared 0
// LOG-NEXT: graph-instantiate 1 nodes
// LOG-NEXT: graph-launch 1 nodes
// LOG-NEXT: graph-kernel hetgpu_fused_kernel grid 2 1 1 block 32 1 1 shared 0
// The managed-memory graph replays through the stream.
// LOG-NOT: graph-
//
// INFO: graph: a driver graph of 10 nodes (2 kernel nodes)
// INFO: graph: a driver graph of 1 nodes (1 kernel nodes)
// INFO: graph: replayed through the device queue: a memcpy node of memory other than host memory and the device's own
// OFF: graph: replayed through the device queue: HETGPU_DRIVER_GRAPHS=0
// OLD: graph: replayed through the device queue: cuGraphCreate: CUDA_ERROR_NOT_SUPPORTED
// NONE: graph: replayed through the device queue: the driver lacks cuGraphCreate, cuGraphDestroy, cuGraphAddKernelNode_v2,
// MEMCHECK: graph: replayed through the device queue: HETGPU_MEMCHECK is on
// MIG: graph: replayed through the device queue: live migration is on
#include "Inputs/check.h"
#include <cstring>

__global__ void fill(int *p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v;
}

__global__ void twice(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2;
}

constexpr int N = 64;
struct Seen {
  const int *In, *Out, *Pattern;
  int Good = 0, Runs = 0;
};

// The host node runs after both device -> host copies: it sees this run's
// input copied there and back, and the pattern of the memset.
static void hostStep(void *P) {
  Seen &S = *static_cast<Seen *>(P);
  ++S.Runs;
  bool Ok = std::memcmp(S.In, S.Out, N * sizeof(int)) == 0;
  for (int R = 0; R < 4; ++R)
    for (int I = 0; I < 16; ++I)
      Ok &= unsigned(S.Pattern[R * 16 + I]) == 0x01020304u;
  S.Good += Ok;
}

int main() {
  int *a, *b, *c;
  CHECK(cudaMalloc(&a, N * sizeof(int)));
  CHECK(cudaMalloc(&b, N * sizeof(int)));
  CHECK(cudaMalloc(&c, N * sizeof(int)));
  static int hin[N], hout[N], hout2[N], hb[N];
  Seen seen{hin, hout, hb};
  cudaEvent_t ev;
  CHECK(cudaEventCreate(&ev));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  cudaGraph_t g, child;
  CHECK(cudaGraphCreate(&g, 0));
  CHECK(cudaGraphCreate(&child, 0));
  int n = N;
  void *twiceArgs[] = {&c, &n};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)twice;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(64);
  kp.kernelParams = twiceArgs;
  cudaGraphNode_t childK, h2d, setB, fillC, childN, join, d2hA, d2hB, hostN,
      recordN, waitN;
  CHECK(cudaGraphAddKernelNode(&childK, child, nullptr, 0, &kp));
  CHECK(cudaGraphAddMemcpyNode1D(&h2d, g, nullptr, 0, a, hin, sizeof(hin),
                                 cudaMemcpyHostToDevice));
  cudaMemsetParams ms = {};
  ms.dst = b;
  ms.value = 0x01020304u;
  ms.elementSize = 4;
  ms.width = 16;
  ms.height = 4;
  ms.pitch = 16 * sizeof(int);
  CHECK(cudaGraphAddMemsetNode(&setB, g, nullptr, 0, &ms));
  int v = 7;
  void *fillArgs[] = {&c, &v, &n};
  kp.func = (void *)fill;
  kp.kernelParams = fillArgs;
  CHECK(cudaGraphAddKernelNode(&fillC, g, &h2d, 1, &kp));
  CHECK(cudaGraphAddChildGraphNode(&childN, g, &fillC, 1, child));
  cudaGraphNode_t both[] = {setB, childN};
  CHECK(cudaGraphAddEmptyNode(&join, g, both, 2));
  CHECK(cudaGraphAddMemcpyNode1D(&d2hA, g, &join, 1, hout, a, sizeof(hout),
                                 cudaMemcpyDeviceToHost));
  CHECK(cudaGraphAddMemcpyNode1D(&d2hB, g, &join, 1, hb, b, sizeof(hb),
                                 cudaMemcpyDeviceToHost));
  cudaHostNodeParams hp = {hostStep, &seen};
  cudaGraphNode_t copies[] = {d2hA, d2hB};
  CHECK(cudaGraphAddHostNode(&hostN, g, copies, 2, &hp));
  CHECK(cudaGraphAddEventRecordNode(&recordN, g, &hostN, 1, ev));
  CHECK(cudaGraphAddEventWaitNode(&waitN, g, &recordN, 1, ev));

  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  int ok = 0;
  for (int r = 0; r < 5; ++r) {
    for (int i = 0; i < N; ++i)
      hin[i] = i * 3 + r; // read by the graph's copy at each run
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    ok += std::memcmp(hin, hout, sizeof(hin)) == 0;
  }
  std::printf("replays %d ok, host node saw %d good runs\n", ok, seen.Good);
  std::printf("event recorded by the graph: %s\n",
              cudaGetErrorName(cudaEventQuery(ev)));

  // New geometry and value for the fill node: in place.
  v = 9;
  kp.gridDim = dim3(2);
  kp.blockDim = dim3(32);
  std::printf("kernel update: %s\n",
              cudaGetErrorName(cudaGraphExecKernelNodeSetParams(x, fillC, &kp)));
  CHECK(cudaGraphLaunch(x, s));
  CHECK(cudaStreamSynchronize(s));

  // The first copy back now writes hout2.
  cudaMemcpy3DParms cp = {};
  cp.srcPtr = make_cudaPitchedPtr(a, sizeof(hout), N, 1);
  cp.dstPtr = make_cudaPitchedPtr(hout2, sizeof(hout2), N, 1);
  cp.extent = make_cudaExtent(sizeof(hout2), 1, 1);
  cp.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaGraphExecMemcpyNodeSetParams(x, d2hA, &cp));
  for (int i = 0; i < N; ++i)
    hin[i] = 1000 + i;
  seen.Out = hout2;
  CHECK(cudaGraphLaunch(x, s));
  CHECK(cudaStreamSynchronize(s));
  bool upd = std::memcmp(hin, hout2, sizeof(hin)) == 0 && seen.Good == 7;
  std::printf("memcpy update: %s\n", upd ? "ok" : "FAIL");

  CHECK(cudaGraphNodeSetEnabled(x, fillC, 0));
  CHECK(cudaGraphLaunch(x, s));
  CHECK(cudaStreamSynchronize(s));
  std::printf("disabled node: %s\n", seen.Good == 8 ? "ok" : "FAIL");
  CHECK(cudaGraphExecDestroy(x));

  // Two independent small kernels of one block size: one fused node.
  cudaGraph_t g2;
  CHECK(cudaGraphCreate(&g2, 0));
  cudaGraphNode_t k1, k2;
  kp.func = (void *)fill;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(32);
  kp.kernelParams = fillArgs;
  CHECK(cudaGraphAddKernelNode(&k1, g2, nullptr, 0, &kp));
  kp.func = (void *)twice;
  kp.kernelParams = twiceArgs;
  CHECK(cudaGraphAddKernelNode(&k2, g2, nullptr, 0, &kp));
  cudaGraphExec_t x2;
  CHECK(cudaGraphInstantiate(&x2, g2, 0));
  CHECK(cudaGraphLaunch(x2, s));
  std::printf("fused graph: %s\n",
              cudaStreamSynchronize(s) == cudaSuccess ? "ok" : "FAIL");

  // Managed memory in a memcpy node: not mapped, replayed.
  int *m;
  CHECK(cudaMallocManaged(&m, sizeof(hout)));
  for (int i = 0; i < N; ++i)
    m[i] = 5 * i;
  cudaGraph_t g3;
  CHECK(cudaGraphCreate(&g3, 0));
  cudaGraphNode_t mc;
  CHECK(cudaGraphAddMemcpyNode1D(&mc, g3, nullptr, 0, hout, m, sizeof(hout),
                                 cudaMemcpyDefault));
  cudaGraphExec_t x3;
  CHECK(cudaGraphInstantiate(&x3, g3, 0));
  CHECK(cudaGraphLaunch(x3, s));
  CHECK(cudaStreamSynchronize(s));
  bool man = true;
  for (int i = 0; i < N; ++i)
    man &= hout[i] == 5 * i;
  std::printf("managed memcpy graph: %s\n", man ? "ok" : "FAIL");
  std::printf("PASS\n");
  return 0;
}
