// A `__device__` variable lives in the module each device loads, at an
// address of that device's own: a program that took one with
// cudaGetSymbolAddress holds a pointer that would dangle after its context
// moved (before, test/Runtime/printf.cu printed an empty string after a
// move to OpenCL and faulted on tt-sim). Such a context is not moved: the
// refusal names the variable, the suspended launch resumes where it was
// and the output is the unmigrated one. A program that reaches the same
// variable only by name (cudaMemcpyFromSymbol) still moves.
// REQUIRES: built-target-host, built-target-spirv, pocl
// RUN: hetgpu-cc %s -o %t
// RUN: hetgpu-cc -DBY_NAME %s -o %t.name
// RUN: env HETGPU_DEVICE=cpu %t > %t.ref
// RUN: FileCheck --check-prefix=OUT %s < %t.ref
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=1:to=opencl:verbose %t > %t.out 2> %t.err
// RUN: diff %t.ref %t.out
// RUN: FileCheck --check-prefix=REFUSED %s < %t.err
// RUN: env HETGPU_DEVICE=cpu %t.name > %t.name.ref
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=1:to=opencl:verbose %t.name > %t.name.out 2> %t.name.err
// RUN: diff %t.name.ref %t.name.out
// RUN: FileCheck --check-prefix=MOVED %s < %t.name.err
// OUT: counter 64 label [device]
// REFUSED: cannot migrate device 0 from {{.*}}: the program holds the address of the __device__ variable {{.*}}kCounter{{.*}} (cudaGetSymbolAddress), which is not the same on the target
// REFUSED: suspended {{.*}} resumed on device 0: {{.*}}(cpu)
// MOVED: resumed on device 0: {{.*}}(opencl)
#include "../Runtime/Inputs/check.h"

__device__ unsigned kCounter;
__device__ char kLabel[] = "device";

__global__ void count(unsigned *c) { atomicAdd(c, 1u); }
__global__ void countByName() { atomicAdd(&kCounter, 1u); }

int main() {
  char label[8] = {};
  unsigned n = 0;
#ifdef BY_NAME
  countByName<<<2, 32>>>();
#else
  unsigned *c;
  CHECK(cudaGetSymbolAddress((void **)&c, kCounter));
  count<<<2, 32>>>(c);
#endif
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpyFromSymbol(&n, kCounter, sizeof(n)));
  CHECK(cudaMemcpyFromSymbol(label, kLabel, 7));
  std::printf("counter %u label [%s]\n", n, label);
  return 0;
}
