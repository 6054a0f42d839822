// bench/multigpu/split.cu - one program over two GPUs and the CPU.
// SPDX-License-Identifier: Apache-2.0
//
// The work (an integer hash of every index, then a neighbour stencil) is
// split in three: GPU 0, GPU 1 and the CPU device each compute their slice
// on a stream of their own, in parallel. Then GPU 1, with peer access to
// GPU 0, runs a kernel that reads GPU 0's slice in place (no copy) and
// combines it with its own; cudaMemcpyPeer moves slices GPU 0 -> GPU 1 and
// GPU 1 -> GPU 0; everything is checked on the host against a host
// computation. Prints PASS/FAIL lines; exit status 1 on a failure.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <hetgpu/hetgpu.h>
#include <vector>

#include "check.h"

__host__ __device__ unsigned hashOf(unsigned i) {
  unsigned h = i * 2654435761u;
  for (int r = 0; r < 16; ++r)
    h = (h ^ (h >> 13)) * 0x5bd1e995u + r;
  return h;
}

__global__ void work(unsigned *out, unsigned begin, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = hashOf(begin + i);
}

// Reads `peer` (memory of another GPU, peer access) and `own` in place.
__global__ void combine(unsigned *dst, const unsigned *peer,
                        const unsigned *own, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] = peer[i] ^ (own[i] >> 3) ^ peer[(i + 1) % n];
}

int main() {
  int count = 0;
  CK(cudaGetDeviceCount(&count));
  int gpu[2] = {-1, -1}, cpu = -1, ng = 0;
  for (int d = 0; d < count; ++d) {
    const char *b = "?";
    hetgpuGetDeviceInfo(d, &b, nullptr, nullptr);
    if (!strcmp(b, "nvidia") && ng < 2)
      gpu[ng++] = d;
    else if (!strcmp(b, "cpu") && cpu < 0)
      cpu = d;
  }
  printf("devices %d: gpu %d, gpu %d, cpu %d\n", count, gpu[0], gpu[1], cpu);
  if (ng < 2 || cpu < 0) {
    printf("FAIL split: needs two NVIDIA GPUs and the CPU device\n");
    return 1;
  }
  const unsigned N = 3u << 20, Part = N / 3;
  int dev[3] = {gpu[0], gpu[1], cpu};
  unsigned *buf[3];
  cudaStream_t st[3];
  cudaEvent_t done[3];
  for (int k = 0; k < 3; ++k) {
    CK(cudaSetDevice(dev[k]));
    CK(cudaMalloc(&buf[k], Part * sizeof(unsigned)));
    CK(cudaStreamCreate(&st[k]));
    CK(cudaEventCreate(&done[k]));
  }
  // Three slices at once, each on its device's stream.
  for (int k = 0; k < 3; ++k) {
    CK(cudaSetDevice(dev[k]));
    work<<<(Part + 255) / 256, 256, 0, st[k]>>>(buf[k], k * Part, Part);
    CK(cudaGetLastError());
    CK(cudaEventRecord(done[k], st[k]));
  }
  for (int k = 0; k < 3; ++k)
    CK(cudaEventSynchronize(done[k]));
  std::vector<unsigned> ref(N), got(N);
  for (unsigned i = 0; i < N; ++i)
    ref[i] = hashOf(i);
  for (int k = 0; k < 3; ++k) {
    CK(cudaSetDevice(dev[k]));
    CK(cudaMemcpy(got.data() + k * Part, buf[k], Part * sizeof(unsigned),
                  cudaMemcpyDeviceToHost));
  }
  int fails = 0;
  bool ok = !memcmp(got.data(), ref.data(), 3ull * Part * sizeof(unsigned));
  printf("%s split: slices on gpu %d, gpu %d and cpu %d agree with the host\n",
         ok ? "PASS" : "FAIL", gpu[0], gpu[1], cpu);
  fails += !ok;

  // Peer access: a kernel on GPU 1 reads GPU 0's slice in place.
  int can = 0;
  CK(cudaDeviceCanAccessPeer(&can, gpu[1], gpu[0]));
  printf("can access peer gpu %d -> gpu %d: %d\n", gpu[1], gpu[0], can);
  unsigned *mix;
  CK(cudaSetDevice(gpu[1]));
  CK(cudaMalloc(&mix, Part * sizeof(unsigned)));
  if (can) {
    CK(cudaDeviceEnablePeerAccess(gpu[0], 0));
    combine<<<(Part + 255) / 256, 256>>>(mix, buf[0], buf[1], Part);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<unsigned> m(Part);
    CK(cudaMemcpy(m.data(), mix, Part * sizeof(unsigned),
                  cudaMemcpyDeviceToHost));
    bool good = true;
    for (unsigned i = 0; i < Part && good; ++i)
      good = m[i] == (ref[i] ^ (ref[Part + i] >> 3) ^ ref[(i + 1) % Part]);
    printf("%s peer kernel: gpu %d read gpu %d's memory in place\n",
           good ? "PASS" : "FAIL", gpu[1], gpu[0]);
    fails += !good;
  } else {
    printf("FAIL peer kernel: no peer access between the GPUs\n");
    ++fails;
  }

  // cudaMemcpyPeer both ways: GPU 0's slice onto GPU 1, GPU 1's onto GPU 0.
  unsigned *on1, *on0;
  CK(cudaSetDevice(gpu[1]));
  CK(cudaMalloc(&on1, Part * sizeof(unsigned)));
  CK(cudaSetDevice(gpu[0]));
  CK(cudaMalloc(&on0, Part * sizeof(unsigned)));
  CK(cudaMemcpyPeer(on1, gpu[1], buf[0], gpu[0], Part * sizeof(unsigned)));
  CK(cudaMemcpyPeerAsync(on0, gpu[0], buf[1], gpu[1], Part * sizeof(unsigned),
                         st[0]));
  CK(cudaStreamSynchronize(st[0]));
  std::vector<unsigned> a(Part), b(Part);
  CK(cudaSetDevice(gpu[1]));
  CK(cudaMemcpy(a.data(), on1, Part * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CK(cudaSetDevice(gpu[0]));
  CK(cudaMemcpy(b.data(), on0, Part * sizeof(unsigned), cudaMemcpyDeviceToHost));
  ok = !memcmp(a.data(), ref.data(), Part * sizeof(unsigned)) &&
       !memcmp(b.data(), ref.data() + Part, Part * sizeof(unsigned));
  printf("%s memcpy peer: gpu %d -> gpu %d and gpu %d -> gpu %d\n",
         ok ? "PASS" : "FAIL", gpu[0], gpu[1], gpu[1], gpu[0]);
  fails += !ok;
  // cudaMemcpy with pointers of two devices (unified addressing): GPU -> CPU
  // device and CPU device -> GPU.
  CK(cudaMemcpy(on0, buf[2], Part * sizeof(unsigned), cudaMemcpyDefault));
  CK(cudaMemcpy(b.data(), on0, Part * sizeof(unsigned), cudaMemcpyDeviceToHost));
  ok = !memcmp(b.data(), ref.data() + 2 * Part, Part * sizeof(unsigned));
  printf("%s memcpy default: cpu %d -> gpu %d\n", ok ? "PASS" : "FAIL", cpu,
         gpu[0]);
  fails += !ok;
  CK(cudaSetDevice(gpu[1]));
  if (can)
    CK(cudaDeviceDisablePeerAccess(gpu[0]));
  printf("%s\n", fails ? "FAILED" : "ALL PASS");
  return fails ? 1 : 0;
}
