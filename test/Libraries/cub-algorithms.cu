// CUB (Debian's libcub-dev, unmodified) on hetGPU: device-wide radix sort,
// reduce, scan and select across many blocks, and the block- and warp-level
// collectives inside a user kernel, each checked against the host.
// REQUIRES: thrust, built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// CHECK: DeviceRadixSort::SortPairs: ok
// CHECK: DeviceReduce::Sum: ok
// CHECK: DeviceReduce::Max: ok
// CHECK: DeviceScan::ExclusiveSum: ok
// CHECK: DeviceScan::InclusiveSum: ok
// CHECK: DeviceSelect::If: ok
// CHECK: BlockLoad/BlockReduce/BlockScan: ok
// CHECK: WarpReduce/WarpScan: ok
// CHECK: ALL PASS

#include <cub/cub.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

static int Failures = 0;
static void report(const char *What, bool Ok) {
  std::printf("%s: %s\n", What, Ok ? "ok" : "FAILED");
  Failures += !Ok;
}
#define CHECK_CUDA(X)                                                          \
  do {                                                                         \
    cudaError_t E = (X);                                                       \
    if (E != cudaSuccess) {                                                    \
      std::printf("%s: %s\n", #X, cudaGetErrorString(E));                      \
      return 1;                                                                \
    }                                                                          \
  } while (0)

template <typename T> struct DevBuf {
  T *P = nullptr;
  explicit DevBuf(size_t N) { cudaMalloc(&P, N * sizeof(T)); }
  ~DevBuf() { cudaFree(P); }
};

struct LessThan {
  int Bound;
  __host__ __device__ bool operator()(int V) const { return V < Bound; }
};

constexpr int Threads = 128, PerThread = 4, Tile = Threads * PerThread;

// Each block loads a tile (striped -> blocked), reduces it and scans it;
// lane sums are reduced and scanned again per warp.
__global__ void blockCollectives(const int *In, int *BlockSums, int *Scanned,
                                 int *WarpSums, int *WarpScans) {
  using Load = cub::BlockLoad<int, Threads, PerThread, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Reduce = cub::BlockReduce<int, Threads>;
  using Scan = cub::BlockScan<int, Threads>;
  using WReduce = cub::WarpReduce<int>;
  using WScan = cub::WarpScan<int>;
  __shared__ union {
    typename Load::TempStorage L;
    typename Reduce::TempStorage R;
    typename Scan::TempStorage S;
  } Tmp;
  __shared__ typename WReduce::TempStorage WR[Threads / 32];
  __shared__ typename WScan::TempStorage WS[Threads / 32];
  int Items[PerThread];
  Load(Tmp.L).Load(In + blockIdx.x * Tile, Items);
  __syncthreads();
  int Total = Reduce(Tmp.R).Sum(Items);
  if (threadIdx.x == 0)
    BlockSums[blockIdx.x] = Total;
  __syncthreads();
  Scan(Tmp.S).ExclusiveSum(Items, Items);
  for (int I = 0; I < PerThread; ++I)
    Scanned[blockIdx.x * Tile + threadIdx.x * PerThread + I] = Items[I];
  int Lane = threadIdx.x % 32, Warp = threadIdx.x / 32;
  int V = In[blockIdx.x * Tile + threadIdx.x];
  int WS_ = WReduce(WR[Warp]).Sum(V);
  if (Lane == 0)
    WarpSums[blockIdx.x * (Threads / 32) + Warp] = WS_;
  int Pre;
  WScan(WS[Warp]).InclusiveSum(V, Pre);
  WarpScans[blockIdx.x * Threads + threadIdx.x] = Pre;
}

int main() {
  const int N = 200011;
  std::vector<int> H(N);
  uint32_t X = 11;
  for (int &E : H) {
    X = X * 1103515245u + 12345u;
    E = int((X >> 8) % 2001) - 1000;
  }
  DevBuf<int> In(N), Out(N), Vals(N), ValsOut(N), Num(1);
  CHECK_CUDA(cudaMemcpy(In.P, H.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  void *Temp = nullptr;
  size_t TempBytes = 0;
  auto Scratch = [&](size_t Need) {
    if (Need > TempBytes) {
      cudaFree(Temp);
      cudaMalloc(&Temp, Need);
      TempBytes = Need;
    }
  };

  { // radix sort of pairs
    std::vector<int> Idx(N);
    std::iota(Idx.begin(), Idx.end(), 0);
    CHECK_CUDA(cudaMemcpy(Vals.P, Idx.data(), N * sizeof(int), cudaMemcpyHostToDevice));
    size_t Need = 0;
    CHECK_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, Need, In.P, Out.P, Vals.P, ValsOut.P, N));
    Scratch(Need);
    CHECK_CUDA(cub::DeviceRadixSort::SortPairs(Temp, Need, In.P, Out.P, Vals.P, ValsOut.P, N));
    std::vector<int> K(N), V(N);
    CHECK_CUDA(cudaMemcpy(K.data(), Out.P, N * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(V.data(), ValsOut.P, N * sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> E = H;
    std::stable_sort(E.begin(), E.end());
    bool Ok = K == E;
    for (int I = 0; Ok && I < N; ++I)
      Ok = H[V[I]] == K[I] && (I == 0 || K[I - 1] != K[I] || V[I - 1] < V[I]);
    report("DeviceRadixSort::SortPairs", Ok);
  }
  { // reductions
    size_t Need = 0;
    CHECK_CUDA(cub::DeviceReduce::Sum(nullptr, Need, In.P, Num.P, N));
    Scratch(Need);
    CHECK_CUDA(cub::DeviceReduce::Sum(Temp, Need, In.P, Num.P, N));
    int S = 0;
    CHECK_CUDA(cudaMemcpy(&S, Num.P, sizeof(int), cudaMemcpyDeviceToHost));
    report("DeviceReduce::Sum", S == std::accumulate(H.begin(), H.end(), 0));
    CHECK_CUDA(cub::DeviceReduce::Max(nullptr, Need, In.P, Num.P, N));
    Scratch(Need);
    CHECK_CUDA(cub::DeviceReduce::Max(Temp, Need, In.P, Num.P, N));
    CHECK_CUDA(cudaMemcpy(&S, Num.P, sizeof(int), cudaMemcpyDeviceToHost));
    report("DeviceReduce::Max", S == *std::max_element(H.begin(), H.end()));
  }
  { // scans
    size_t Need = 0;
    CHECK_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, Need, In.P, Out.P, N));
    Scratch(Need);
    CHECK_CUDA(cub::DeviceScan::ExclusiveSum(Temp, Need, In.P, Out.P, N));
    std::vector<int> R(N), E(N);
    CHECK_CUDA(cudaMemcpy(R.data(), Out.P, N * sizeof(int), cudaMemcpyDeviceToHost));
    std::exclusive_scan(H.begin(), H.end(), E.begin(), 0);
    report("DeviceScan::ExclusiveSum", R == E);
    CHECK_CUDA(cub::DeviceScan::InclusiveSum(nullptr, Need, In.P, Out.P, N));
    Scratch(Need);
    CHECK_CUDA(cub::DeviceScan::InclusiveSum(Temp, Need, In.P, Out.P, N));
    CHECK_CUDA(cudaMemcpy(R.data(), Out.P, N * sizeof(int), cudaMemcpyDeviceToHost));
    std::inclusive_scan(H.begin(), H.end(), E.begin());
    report("DeviceScan::InclusiveSum", R == E);
  }
  { // select
    size_t Need = 0;
    LessThan Pred{-250};
    CHECK_CUDA(cub::DeviceSelect::If(nullptr, Need, In.P, Out.P, Num.P, N, Pred));
    Scratch(Need);
    CHECK_CUDA(cub::DeviceSelect::If(Temp, Need, In.P, Out.P, Num.P, N, Pred));
    int Count = 0;
    CHECK_CUDA(cudaMemcpy(&Count, Num.P, sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> E;
    std::copy_if(H.begin(), H.end(), std::back_inserter(E), Pred);
    std::vector<int> R(Count > 0 ? Count : 0);
    CHECK_CUDA(cudaMemcpy(R.data(), Out.P, R.size() * sizeof(int), cudaMemcpyDeviceToHost));
    report("DeviceSelect::If", R == E);
  }
  { // block and warp collectives in a user kernel
    const int Blocks = N / Tile;
    DevBuf<int> BS(Blocks), Sc(Blocks * Tile), WSum(Blocks * Threads / 32),
        WScan(Blocks * Threads);
    blockCollectives<<<Blocks, Threads>>>(In.P, BS.P, Sc.P, WSum.P, WScan.P);
    CHECK_CUDA(cudaGetLastError());
    std::vector<int> RB(Blocks), RS(Blocks * Tile), RW(Blocks * Threads / 32),
        RWS(Blocks * Threads);
    CHECK_CUDA(cudaMemcpy(RB.data(), BS.P, RB.size() * 4, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(RS.data(), Sc.P, RS.size() * 4, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(RW.data(), WSum.P, RW.size() * 4, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(RWS.data(), WScan.P, RWS.size() * 4, cudaMemcpyDeviceToHost));
    bool BlockOk = true, WarpOk = true;
    for (int B = 0; B < Blocks; ++B) {
      const int *T = H.data() + B * Tile;
      // BLOCK_LOAD_WARP_TRANSPOSE gives thread t items t*4 .. t*4+3.
      BlockOk &= RB[B] == std::accumulate(T, T + Tile, 0);
      int Acc = 0;
      for (int I = 0; I < Tile; ++I) {
        BlockOk &= RS[B * Tile + I] == Acc;
        Acc += T[I];
      }
      for (int W = 0; W < Threads / 32; ++W) {
        int WAcc = 0;
        for (int L = 0; L < 32; ++L) {
          WAcc += T[W * 32 + L];
          WarpOk &= RWS[B * Threads + W * 32 + L] == WAcc;
        }
        WarpOk &= RW[B * (Threads / 32) + W] == WAcc;
      }
    }
    report("BlockLoad/BlockReduce/BlockScan", BlockOk);
    report("WarpReduce/WarpScan", WarpOk);
  }
  cudaFree(Temp);
  std::printf(Failures ? "FAILURES: %d\n" : "ALL PASS\n", Failures);
  return Failures != 0;
}
