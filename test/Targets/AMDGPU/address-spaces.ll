; Address spaces: allocas move to the private address space 5 (users see a
; flat pointer), generic globals move to constant (4) or global (1) memory,
; LDS variables lose their initialiser (LDS cannot be initialised), and a
; shared pointer kept in memory stays 8 bytes wide (its zero-extended LDS
; offset), so hetIR's memory layouts do not change with AMDGPU's 32-bit LDS
; pointers. Device variables get protected visibility (not preemptible in
; the code object, still found by hipModuleGetGlobal).
; RUN: hetgpu-opt -passes='hetgpu-lower-amdgpu<gfx942>' -S %s | FileCheck %s
; RUN: hetgpu-translate --target=amdgpu --arch=gfx942 %s -o %t.hsaco
; RUN: llvm-readobj --notes %t.hsaco | FileCheck --check-prefix=NOTES %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK: target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32
; CHECK: target triple = "amdgcn-amd-amdhsa"
; CHECK-DAG: @sh = internal addrspace(3) global [64 x i32] poison, align 4
; CHECK-DAG: @str = private unnamed_addr addrspace(4) constant [4 x i8] c"abc\00", align 1
; CHECK-DAG: @counter = protected addrspace(1) global i32 0, align 4
; CHECK-DAG: @dev = protected addrspace(1) global i32 7, align 4
; CHECK-DAG: @cst = protected addrspace(4) constant i32 3, align 4
@sh = internal addrspace(3) global [64 x i32] zeroinitializer, align 4
@str = private unnamed_addr constant [4 x i8] c"abc\00", align 1
@counter = global i32 0, align 4
@dev = addrspace(1) global i32 7, align 4
@cst = addrspace(4) constant i32 3, align 4

; CHECK-LABEL: define protected amdgpu_kernel void @k(
; CHECK: %a = alloca [4 x i32], align 4, addrspace(5)
; CHECK-NEXT: %a.flat = addrspacecast ptr addrspace(5) %a to ptr
; CHECK: %pp = alloca ptr addrspace(3), align 8, addrspace(5)
; CHECK: [[OFF:%.*]] = ptrtoint ptr addrspace(3) %g to i32
; CHECK: [[WIDE:%.*]] = zext i32 [[OFF]] to i64
; CHECK: store volatile i64 [[WIDE]], ptr %pp.flat, align 8
; CHECK: [[LD:%.*]] = load volatile i64, ptr %pp.flat, align 8
; CHECK: [[NARROW:%.*]] = trunc i64 [[LD]] to i32
; CHECK: %g2 = inttoptr i32 [[NARROW]] to ptr addrspace(3)
; CHECK: store volatile ptr addrspacecast (ptr addrspace(4) @str to ptr), ptr %a.flat
; CHECK: atomicrmw add ptr addrspacecast (ptr addrspace(1) @counter to ptr), i32 1 syncscope("agent")
; NOTES: .private_segment_fixed_size: {{[1-9]}}
define void @k(ptr %p, i32 %i) #0 {
  %a = alloca [4 x i32], align 4
  %pp = alloca ptr addrspace(3), align 8
  %t = call i32 @__hetgpu_tid_x()
  %g = getelementptr [64 x i32], ptr addrspace(3) @sh, i32 0, i32 %t
  store volatile ptr addrspace(3) %g, ptr %pp, align 8
  %g2 = load volatile ptr addrspace(3), ptr %pp, align 8
  store volatile i32 %t, ptr addrspace(3) %g2
  store volatile ptr @str, ptr %a
  %e = getelementptr [4 x i32], ptr %a, i32 0, i32 %i
  store volatile i32 %t, ptr %e
  %v = load volatile i32, ptr %e
  %x = atomicrmw add ptr @counter, i32 1 monotonic
  store i32 %v, ptr %p
  ret void
}

declare i32 @__hetgpu_tid_x()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
