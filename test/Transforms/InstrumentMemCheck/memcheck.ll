; hetgpu-instrument-memcheck: every access that is not provably private
; memory or a constant in-bounds offset of a variable is checked before it
; is made (global: against the runtime's table; shared: against the
; variable or the launch's dynamic shared size); a refused global access
; goes to the sink (loads to its half nothing writes), a refused memcpy
; gets length 0, a refused shared access is branched around; malloc/free keep the table's heap
; ranges; the site table names each checked access. The verifier runs
; after the pass.
; RUN: hetgpu-opt -passes=hetgpu-instrument-memcheck -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-instrument-memcheck,hetgpu-verify -disable-output %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@tile = internal addrspace(3) global [64 x i32] poison, align 4
@var = addrspace(1) global [4 x i32] zeroinitializer, align 4

declare ptr addrspace(3) @__hetgpu_dynamic_shared()
declare i32 @__hetgpu_tid_x()
declare ptr @__hetgpu_malloc(i64)
declare void @__hetgpu_free(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; CHECK: @__hetgpu_memcheck = addrspace(1) global i64 0, align 8
; CHECK: @hetgpu_memcheck_sink = internal addrspace(1) global [512 x i8] zeroinitializer, align 64
; CHECK: @__hetgpu_memcheck_sites = addrspace(1) global [{{[0-9]+}} x i8] c"f\090\09k\0A0\09read\094\090\09\0A1\09write\094\090\09\0A2\09atomic\094\090\09\0A3\09write\098\090\09\0A4\09read\098\090\09\0A5\09write\094\090\09\0A\00"

; CHECK-LABEL: define void @k(
; CHECK: %[[CX:[0-9]+]] = call i32 @__hetgpu_ctaid_x()
; CHECK: %memcheck.who0 = or i64
; CHECK: %memcheck.who2 = or i64
define void @k(ptr %p, i64 %i) #0 {
entry:
  %priv = alloca [4 x i32], align 4
; A load through a parameter: checked against the table, from the sink
; when refused.
; CHECK: %[[A:[0-9]+]] = ptrtoint ptr %g to i64
; CHECK-NEXT: %[[OK:[0-9]+]] = call i1 @hetgpu_memcheck_global(i64 %[[A]], i64 4, i64 4, i32 0, i64 %memcheck.who0, i64 %memcheck.who1, i64 %memcheck.who2)
; CHECK-NEXT: %memcheck.addr = select i1 %[[OK]], ptr %g, ptr addrspacecast (ptr addrspace(1) @hetgpu_memcheck_sink to ptr)
; CHECK-NEXT: %v = load i32, ptr %memcheck.addr, align 4
  %g = getelementptr inbounds i32, ptr %p, i64 %i
  %v = load i32, ptr %g, align 4
; Private memory: not checked.
; CHECK: store i32 %v, ptr %pp, align 4
  %pp = getelementptr inbounds [4 x i32], ptr %priv, i64 0, i64 %i
  store i32 %v, ptr %pp, align 4
; A constant in-bounds offset of a variable: not checked.
; CHECK: store i32 %v, ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @var, i64 8)
  store i32 %v, ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @var, i64 8), align 4
; A variable offset of a shared variable: checked against its 256 bytes.
; CHECK: %shared.off = sub i64
; CHECK-NEXT: %[[SOK:[0-9]+]] = call i1 @hetgpu_memcheck_shared(i64 %shared.off, i64 4, i64 256, i64 %{{[0-9]+}}, i32 1, i64 %memcheck.who0, i64 %memcheck.who1, i64 %memcheck.who2)
; CHECK-NEXT: br i1 %[[SOK]], label %[[SDO:.*]], label
; CHECK: [[SDO]]:
; CHECK-NEXT: store i32 %v, ptr addrspace(3) %s, align 4
  %s = getelementptr inbounds [64 x i32], ptr addrspace(3) @tile, i64 0, i64 %i
  store i32 %v, ptr addrspace(3) %s, align 4
; Dynamic shared memory: the limit comes from the table (~0).
; CHECK: call i1 @hetgpu_memcheck_shared(i64 %shared.off{{[0-9]*}}, i64 4, i64 -1, i64 %{{[0-9]+}}, i32 2, i64 %memcheck.who0, i64 %memcheck.who1, i64 %memcheck.who2)
; CHECK: atomicrmw add ptr addrspace(3) %d, i32 1 monotonic
  %dyn = call ptr addrspace(3) @__hetgpu_dynamic_shared()
  %d = getelementptr inbounds i32, ptr addrspace(3) %dyn, i64 %i
  %old = atomicrmw add ptr addrspace(3) %d, i32 1 monotonic
; memcpy: destination and source both checked, alignment 1.
; CHECK: call i1 @hetgpu_memcheck_global(i64 %{{[0-9]+}}, i64 8, i64 1, i32 3, i64 %memcheck.who0, i64 %memcheck.who1, i64 %memcheck.who2)
; CHECK: call i1 @hetgpu_memcheck_global(i64 %{{[0-9]+}}, i64 8, i64 1, i32 4, i64 %memcheck.who0, i64 %memcheck.who1, i64 %memcheck.who2)
; CHECK: %[[BOTH:[0-9]+]] = and i1
; CHECK-NEXT: %[[LEN:[0-9]+]] = select i1 %[[BOTH]], i64 8, i64 0
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %g, ptr %p, i64 %[[LEN]], i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %g, ptr %p, i64 8, i1 false)
; malloc records a live heap range when there is a table; free marks it.
; CHECK: %m = call ptr @__hetgpu_malloc(i64 16)
; CHECK: atomicrmw add ptr %{{.*}}, i32 1 monotonic
; CHECK: store i32 1, ptr
; A refused store goes to the sink's second half.
; CHECK: select i1 %{{[0-9]+}}, ptr %m, ptr addrspacecast (ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @hetgpu_memcheck_sink, i64 256) to ptr)
  %m = call ptr @__hetgpu_malloc(i64 16)
  store i32 %old, ptr %m, align 4
; CHECK: call void @__hetgpu_free(ptr %m)
; CHECK: free.loop:
; CHECK: select i1 %{{.*}}, i32 2, i32 %{{.*}}
  call void @__hetgpu_free(ptr %m)
  ret void
}

; The helpers read the table through @__hetgpu_memcheck; off when it is 0.
; The block and thread come packed from the caller, so the helpers use no
; thread-context builtin (the CPU device's SIMT->MIMD lowering would inline
; them at every access).
; CHECK-LABEL: define internal void @hetgpu_memcheck_report(
; CHECK-NOT: @__hetgpu_tid
; CHECK: lshr i64 %{{[0-9]+}}, 32
; CHECK-LABEL: define internal i1 @hetgpu_memcheck_global(
; CHECK: load i64, ptr addrspace(1) @__hetgpu_memcheck
; CHECK: icmp eq i64 %memcheck.table, 0
; CHECK-LABEL: define internal i1 @hetgpu_memcheck_shared(

attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 256, !"features", !3}
!2 = !{!{!"ptr", i32 8, i32 8}, !{!"value", i32 8, i32 8}}
!3 = !{!"malloc", !"atomic.shared", !"dynamic-shared"}
