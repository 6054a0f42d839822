; printf, assert, __trap and malloc. printf appends a self-contained record
; to the hidden buffer __hetgpu_amdgpu_printf (format text, CUDA's vprintf
; argument buffer, a copy of each %s string; layout in ABI/AMDGPUDevice.h)
; at an offset reserved with an agent-scope atomic add; a record that does
; not fit is dropped and printf returns -1. Which arguments are strings is
; read from the constant format at compile time. assert writes a record
; with CUDA's message, sets flag 1, and ends the wavefront (s_endpgm);
; __trap sets flag 2. malloc is a bump allocator over __hetgpu_amdgpu_heap.
; Dynamic shared memory is a zero-sized external LDS variable.
; RUN: hetgpu-opt -passes='hetgpu-lower-amdgpu<gfx942>' -S %s | FileCheck %s
; RUN: hetgpu-translate --target=amdgpu --arch=gfx942 %s -o %t.hsaco
; RUN: llvm-readelf --dyn-syms %t.hsaco | FileCheck --check-prefix=SYMS %s
; RUN: llvm-objdump -d --mcpu=gfx942 %t.hsaco | FileCheck --check-prefix=ISA %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@fmt = private unnamed_addr constant [15 x i8] c"%d %s %5.2f %p\00", align 1
@name = private unnamed_addr constant [4 x i8] c"abc\00", align 1

; CHECK-DAG: @__hetgpu_amdgpu_printf = protected addrspace(1) global { i64, i32, i32, [1048576 x i8] } zeroinitializer, align 16
; CHECK-DAG: @__hetgpu_amdgpu_heap = protected addrspace(1) global { i64, i64, [8388608 x i8] } zeroinitializer, align 16
; CHECK-DAG: @__hetgpu_amdgpu_assert_fmt = private unnamed_addr addrspace(4) constant [{{[0-9]+}} x i8] c"%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\0A\00"
; CHECK-DAG: @__hetgpu_amdgpu_dynamic_shared = external addrspace(3) global [0 x i8], align 16

; Layout of "%d %s %5.2f %p": int at 0, string at 8, double at 16,
; pointer at 24: 32 bytes; header 32 + format 15 -> arguments at 48, the
; string table at 80, the string data at 88.
; CHECK-LABEL: define protected amdgpu_kernel void @print(
; CHECK: store ptr %out, ptr %a3
; CHECK-NEXT: [[SLOT:%.*]] = getelementptr inbounds i8, ptr %args.flat, i64 8
; CHECK: %printf.str = load ptr, ptr [[SLOT]], align 8
; CHECK: [[LEN:%.*]] = call i32 @__hetgpu_amdgpu_strlen(ptr %printf.str)
; CHECK: [[TOTAL:%.*]] = add i32 88,
; CHECK: %record.size = and i32 {{%.*}}, -8
; CHECK: [[HEAD:%.*]] = atomicrmw add ptr addrspace(1) @__hetgpu_amdgpu_printf, i64 {{%.*}} syncscope("agent") monotonic, align 8
; CHECK: %record.fits = icmp ule i64 {{%.*}}, 1048576
; CHECK: br i1 %record.fits,
; CHECK: %record = getelementptr inbounds i8, ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @__hetgpu_amdgpu_printf, i64 16), i64 [[HEAD]]
; CHECK: store i32 %record.size, ptr addrspace(1) {{%.*}}, align 4
; CHECK-NEXT: getelementptr inbounds i8, ptr addrspace(1) %record, i64 4
; CHECK-NEXT: store i32 1, ptr addrspace(1) {{%.*}}, align 4
; CHECK-NEXT: getelementptr inbounds i8, ptr addrspace(1) %record, i64 8
; CHECK-NEXT: store i32 32, ptr addrspace(1) {{%.*}}, align 4
; CHECK-NEXT: getelementptr inbounds i8, ptr addrspace(1) %record, i64 12
; CHECK-NEXT: store i32 15, ptr addrspace(1) {{%.*}}, align 4
; CHECK-NEXT: getelementptr inbounds i8, ptr addrspace(1) %record, i64 16
; CHECK-NEXT: store i32 48, ptr addrspace(1) {{%.*}}, align 4
; CHECK-NEXT: getelementptr inbounds i8, ptr addrspace(1) %record, i64 20
; CHECK-NEXT: store i32 32, ptr addrspace(1) {{%.*}}, align 4
; CHECK-NEXT: getelementptr inbounds i8, ptr addrspace(1) %record, i64 24
; CHECK-NEXT: store i32 1, ptr addrspace(1) {{%.*}}, align 4
; CHECK-NEXT: getelementptr inbounds i8, ptr addrspace(1) %record, i64 28
; CHECK-NEXT: store i32 80, ptr addrspace(1) {{%.*}}, align 4
; CHECK: call void @llvm.memcpy.p1.p0.i64(ptr addrspace(1) align 8 {{%.*}}, ptr align 1 addrspacecast (ptr addrspace(4) @fmt to ptr), i64 15, i1 false)
; CHECK: call void @llvm.memcpy.p1.p0.i64(ptr addrspace(1) align 8 {{%.*}}, ptr align 8 %args.flat, i64 32, i1 false)
; CHECK: store i32 8, ptr addrspace(1) {{%.*}}, align 4
; CHECK: call void @llvm.memcpy.p1.p0.i64(ptr addrspace(1) align 1 {{%.*}}, ptr align 1 %printf.str, i64
; CHECK: %r = select i1 %record.fits, i32 4, i32 -1
define void @print(ptr %out, i32 %x) #0 {
  %args = alloca { i32, ptr, double, ptr }, align 8
  store i32 %x, ptr %args
  %a1 = getelementptr inbounds i8, ptr %args, i64 8
  store ptr @name, ptr %a1
  %a2 = getelementptr inbounds i8, ptr %args, i64 16
  store double 2.5, ptr %a2
  %a3 = getelementptr inbounds i8, ptr %args, i64 24
  store ptr %out, ptr %a3
  %r = call i32 @__hetgpu_printf(ptr @fmt, ptr %args)
  store i32 %r, ptr %out
  ret void
}

; CHECK-LABEL: define protected amdgpu_kernel void @check(
; CHECK: %assert.args = alloca [56 x i8], align 8, addrspace(5)
; CHECK: call i32 @llvm.amdgcn.workgroup.id.x()
; CHECK: call i32 @llvm.amdgcn.workitem.id.z()
; CHECK: store i32 2, ptr addrspace(1) {{%.*}}, align 4
; CHECK: atomicrmw or ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @__hetgpu_amdgpu_printf, i64 8), i32 1 syncscope("agent") release
; CHECK-NEXT: call void @llvm.amdgcn.endpgm()
; CHECK-NEXT: unreachable
define void @check(ptr %p, i32 %v) #0 {
  %c = icmp eq i32 %v, 0
  br i1 %c, label %fail, label %ok
fail:
  call void @__hetgpu_assert_fail(ptr @name, ptr @name, i32 12, ptr @name)
  unreachable
ok:
  store i32 %v, ptr %p
  ret void
}

; CHECK-LABEL: define protected amdgpu_kernel void @trap(
; CHECK: atomicrmw or ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @__hetgpu_amdgpu_printf, i64 8), i32 2 syncscope("agent") release
; CHECK-NEXT: call void @llvm.amdgcn.endpgm()
; ISA-LABEL: <trap>:
; ISA: global_atomic_or
; ISA: s_endpgm
define void @trap() #0 {
  call void @__hetgpu_trap()
  unreachable
}

; CHECK-LABEL: define protected amdgpu_kernel void @heap(
; CHECK: [[SMALL:%.*]] = icmp ule i64 %n, 8388608
; CHECK: [[OFF:%.*]] = atomicrmw add ptr addrspace(1) @__hetgpu_amdgpu_heap, i64 {{%.*}} syncscope("agent") monotonic, align 8
; CHECK: [[P:%.*]] = getelementptr inbounds i8, ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @__hetgpu_amdgpu_heap, i64 16), i64 [[OFF]]
; CHECK: [[F:%.*]] = addrspacecast ptr addrspace(1) [[P]] to ptr
; CHECK: %m = select i1 {{%.*}}, ptr [[F]], ptr null
; CHECK-NOT: __hetgpu_free
; CHECK: ret void
define void @heap(ptr %out, i64 %n) #0 {
  %m = call ptr @__hetgpu_malloc(i64 %n)
  store ptr %m, ptr %out
  call void @__hetgpu_free(ptr %m)
  ret void
}

; CHECK-LABEL: define protected amdgpu_kernel void @dyn(
; CHECK: store volatile i32 %t, ptr addrspace(3) @__hetgpu_amdgpu_dynamic_shared
define void @dyn() #0 {
  %d = call ptr addrspace(3) @__hetgpu_dynamic_shared()
  %t = call i32 @__hetgpu_tid_x()
  store volatile i32 %t, ptr addrspace(3) %d
  ret void
}

; SYMS-DAG: OBJECT GLOBAL PROTECTED {{.*}} __hetgpu_amdgpu_printf
; SYMS-DAG: OBJECT GLOBAL PROTECTED {{.*}} __hetgpu_amdgpu_heap

declare i32 @__hetgpu_printf(ptr, ptr)
declare void @__hetgpu_assert_fail(ptr, ptr, i32, ptr)
declare void @__hetgpu_trap()
declare ptr @__hetgpu_malloc(i64)
declare void @__hetgpu_free(ptr)
declare ptr addrspace(3) @__hetgpu_dynamic_shared()
declare i32 @__hetgpu_tid_x()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
