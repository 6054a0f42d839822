; Constructs the NVPTX back end handles only with enough PTX ISA or by
; expansion: a variable-sized alloca raises the default ISA to 7.3 (and with
; an explicitly older ISA is a clear error, not a crash); i128 division,
; half/bfloat arithmetic and i8/i16/half/fmax/fmin atomics are expanded.
; RUN: hetgpu-translate --target=nvptx --arch=sm_75 %s -o %t75.ptx
; RUN: FileCheck %s < %t75.ptx
; RUN: not hetgpu-translate --target=nvptx --arch=sm_75 --features=+ptx70 %s -o /dev/null 2>&1 | FileCheck --check-prefix=ERR %s
; RUN: hetgpu-translate --target=nvptx --arch=sm_90 %s -o %t90.ptx
; RUN: FileCheck --check-prefix=V90 %s < %t90.ptx
; RUN: %if ptxas %{ %ptxas -arch=sm_75 %t75.ptx -o /dev/null %}
; RUN: %if ptxas %{ %ptxas -arch=sm_90 %t90.ptx -o /dev/null %}
; CHECK: .version 7.3
; CHECK: .target sm_75
; CHECK: alloca
; V90: .version 7.8
; ERR: Support for dynamic alloca introduced in PTX ISA version 7.3
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"
@sh = internal addrspace(3) global double 0.0
define void @k(ptr %p, i32 %n, i128 %a, i128 %b, half %h, bfloat %bf) #0 {
  %s = call ptr @llvm.stacksave.p0()
  %al = alloca i8, i32 %n
  store volatile i8 1, ptr %al
  call void @llvm.stackrestore.p0(ptr %s)
  %d = sdiv i128 %a, %b
  store volatile i128 %d, ptr %p
  %hh = fmul half %h, %h
  store volatile half %hh, ptr %p
  %bb = fadd bfloat %bf, %bf
  store volatile bfloat %bb, ptr %p
  %x1 = atomicrmw add ptr %p, i16 1 monotonic
  %x2 = atomicrmw fmax ptr %p, float 1.0 monotonic
  %x3 = atomicrmw fadd ptr addrspace(3) @sh, double 1.0 monotonic
  %x4 = atomicrmw fadd ptr %p, half 1.0 monotonic
  %x5 = cmpxchg ptr %p, i64 1, i64 2 monotonic monotonic
  %x6 = atomicrmw xchg ptr %p, i8 3 monotonic
  %x7 = atomicrmw fmin ptr %p, double 1.0 monotonic
  ret void
}
declare ptr @llvm.stacksave.p0()
declare void @llvm.stackrestore.p0(ptr)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
