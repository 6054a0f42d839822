// Checkpoints whose checksum is valid but whose fields lie are refused
// before anything is written back: a dynamic shared size of 2^64-1, a
// block of 2048 threads and an empty grid by the parser
// (hetgpuCheckpointValidate); a pointer argument 16 GiB past its
// allocation, arguments shorter than the kernel's parameters and a
// dynamic shared size past the device's limit by the restore.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=on CKPT=%t.ck "TAMPER=%python %S/Inputs/checkpoint-variants.py %t.ck %t.v _Z4fillPii" %t | FileCheck %s
// CHECK: dynshared: checkpoint refused: dynamic shared size 18446744073709551615 exceeds 1073741824 bytes
// CHECK: block: checkpoint refused: block x = 2048 is outside [1, 1024]
// CHECK: grid: checkpoint refused: grid x = 0 is outside [1, 2147483647]
// CHECK: wildptr: valid; restore: checkpoint refused: pointer argument 0 (0x{{[0-9a-f]+}}) points into no allocation (kernel _Z4fillPii)
// CHECK: argsize: valid; restore: checkpoint refused: its arguments take 12 bytes, the kernel's parameters 36 (kernel _Z4fillPii)
// CHECK: devshared: valid; restore: checkpoint refused: dynamic shared size 536870912 exceeds the device's {{[0-9]+}} bytes (kernel _Z4fillPii)
// CHECK: data intact 1
#include <cstdio>
#include <cstdlib>
#include <hetgpu/hetgpu.h>
#include <string>

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }

int main() {
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  fill<<<1, 64>>>(d, 5);
  cudaDeviceSynchronize();
  std::string Ck = getenv("CKPT");
  if (hetgpuCheckpoint(nullptr, Ck.c_str()) != 0 || system(getenv("TAMPER")))
    return 1;
  for (const char *V :
       {"dynshared", "block", "grid", "wildptr", "argsize", "devshared"}) {
    std::string Path = Ck.substr(0, Ck.size() - 3) + ".v." + V;
    const char *Why = "";
    if (hetgpuCheckpointValidate(Path.c_str(), &Why) != 0) {
      printf("%s: %s\n", V, Why);
      continue;
    }
    int RC = hetgpuRestore(Path.c_str(), nullptr);
    printf("%s: valid; restore: %s\n", V,
           RC ? hetgpuMigrationLastError() : "accepted");
  }
  int H[64];
  cudaMemcpy(H, d, sizeof(H), cudaMemcpyDeviceToHost);
  bool OK = true;
  for (int X : H)
    OK = OK && X == 5;
  printf("data intact %d\n", OK);
  return 0;
}
