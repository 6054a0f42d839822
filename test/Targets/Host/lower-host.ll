; hetgpu-lower-host: SIMT->MIMD, math builtins from hetGPU's device math
; library (linked bitcode, not the C library), the block
; executor linked in (only when a kernel synchronises), the ABI version
; symbol, host triple, device variables writable (the runtime writes
; __constant__ memory), and everything but the block functions and device
; variables internal.
; RUN: hetgpu-opt -passes=hetgpu-lower-host -S %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK: target triple = "x86_64-unknown-linux-gnu"
; CHECK-DAG: @counter = addrspace(1) global i32 0
; CHECK-DAG: @table = addrspace(4) global [2 x float]
; CHECK-DAG: @__hetgpu_host_abi_version = constant i32 1
@counter = addrspace(1) global i32 0, align 4
@table = addrspace(4) constant [2 x float] [float 1.0, float 2.0], align 4

; CHECK-DAG: define internal void @m.hetgpu.thread(
; CHECK-DAG: define void @__hetgpu_block_m(
; CHECK-DAG: define void @__hetgpu_block_s(
; CHECK-DAG: define internal i32 @s.hetgpu.thread(
; CHECK-DAG: define internal void @__hetgpu_exec_block(
; CHECK-DAG: define internal {{.*}}float @__hetgpu_math_sinf(float
; CHECK-DAG: define internal {{.*}}double @__hetgpu_math_pow(double
; CHECK-NOT: declare {{.*}}@sinf
; CHECK-NOT: declare {{.*}}@pow
define void @m(ptr %out, float %x, double %y) #0 {
  %s = call float @__hetgpu_math_sinf(float %x)
  %p = call double @__hetgpu_math_pow(double %y, double 2.0)
  %pf = fptrunc double %p to float
  %r = fadd float %s, %pf
  %c = load float, ptr addrspace(4) @table
  %r2 = fadd float %r, %c
  store float %r2, ptr %out
  %old = atomicrmw add ptr addrspace(1) @counter, i32 1 monotonic
  ret void
}

define void @s(ptr %out) #0 {
  call void @__hetgpu_barrier()
  store i32 1, ptr %out
  ret void
}

declare float @__hetgpu_math_sinf(float)
declare double @__hetgpu_math_pow(double, double)
declare void @__hetgpu_barrier()

attributes #0 = { "hetgpu-kernel" }
