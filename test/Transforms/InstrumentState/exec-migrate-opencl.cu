// Instrumented kernels run on OpenCL (PoCL): safe points inside a loop nest
// and in a two-barrier loop with dynamic shared memory are suspended at
// random safe points and resumed on the same device; the results equal an
// unmigrated run on the CPU device. (PoCL forms work-item loops between
// barriers and rejects irreducible control flow: the resume path enters
// loops through their headers.)
// REQUIRES: pocl, llvm-spirv, built-target-spirv, built-target-host
// RUN: hetgpu-cc %S/Inputs/resume-loops.cu -o %t
// RUN: env HETGPU_DEVICE=cpu %t > %t.ref
// RUN: env HETGPU_DEVICE=opencl %t | diff %t.ref -
// RUN: env HETGPU_DEVICE=opencl HETGPU_MIGRATE=on %t | diff %t.ref -
// RUN: for s in 2 3 4; do \
// RUN:   env HETGPU_DEVICE=opencl HETGPU_MIGRATE=random:seed=$s:verbose %t > %t.out.$s 2> %t.err.$s || exit 1; \
// RUN:   diff %t.ref %t.out.$s || exit 1; \
// RUN: done
// RUN: cat %t.err.2 %t.err.3 %t.err.4 | FileCheck %s
// CHECK-DAG: hetgpu-migrate: _Z4nestPKjPjii suspended
// CHECK-DAG: hetgpu-migrate: _Z7stencilPji suspended
