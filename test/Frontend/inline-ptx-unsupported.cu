// hetgpu-cc reports an inline PTX instruction outside the supported subset
// once, as an error at the asm statement (clang maps the asm line through
// `!srcloc`), naming the function and the instruction; the supported asm of
// the same file raises no error.
// RUN: not hetgpu-cc -c %s -o %t.o 2>&1 | FileCheck %s

__device__ unsigned lane() {
  unsigned r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}

__global__ void k(unsigned *out, unsigned long long tex) {
  unsigned v;
  // CHECK: inline-ptx-unsupported.cu:[[@LINE+1]]:{{[0-9]+}}: error: in function 'k(unsigned int*, unsigned long long)': unsupported PTX instruction 'istypep.texref'
  asm volatile("istypep.texref %0, %1;" : "=r"(v) : "l"(tex));
  unsigned w;
  // The second line of a multi-line string is located after its "\n".
  // CHECK: inline-ptx-unsupported.cu:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}unsupported PTX instruction 'cp.async.ca.shared.global'
  asm volatile("mov.u32 %0, 0;\n\t"
               "cp.async.ca.shared.global [%1], [%1], 4;"
               : "=r"(w) : "l"(out));
  out[threadIdx.x] = v + w + lane();
}
// CHECK-NOT: error: hetIR verification failed
// CHECK: 2 errors generated
