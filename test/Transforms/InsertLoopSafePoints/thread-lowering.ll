; Per-thread safe points are potential ones too: a translation that is not
; instrumented erases them (and their counter) before the target lowering,
; so the native code of the per-thread kernels of
; this file (a grid-stride loop and a Collatz while loop, the kernels of
; InstrumentState/thread-loops.ll)
; equals that of the kernels without hetgpu-insert-loop-safepoints. The
; instrumented translations succeed on every target (ptxas, spirv-val where
; installed).
; REQUIRES: target-nvptx, target-spirv, target-host, target-amdgpu, target-rvmanycore
;
; RUN: rm -rf %t && mkdir -p %t
; RUN: hetgpu-opt -passes=hetgpu-insert-loop-safepoints,hetgpu-state-layout %s -o %t/sp.bc
; RUN: hetgpu-opt -passes=hetgpu-state-layout %s -o %t/none.bc
; RUN: llvm-dis %t/sp.bc -o - | FileCheck --check-prefix=HAS %s
; HAS: call void @__hetgpu_safepoint() [ "hetgpu.live"({{.*}}) ], !hetgpu.thread.safepoint
;
; RUN: hetgpu-translate --target=nvptx %t/sp.bc -o %t/sp.ptx
; RUN: hetgpu-translate --target=nvptx %t/none.bc -o %t/none.ptx
; RUN: diff %t/sp.ptx %t/none.ptx
; RUN: FileCheck --check-prefix=PLAIN %s < %t/sp.ptx
; PLAIN: .entry gridstride(
; PLAIN-NOT: 1023
; PLAIN: ret;
; RUN: hetgpu-translate --target=nvptx --instrument %t/sp.bc -o %t/sp.i.ptx
; RUN: FileCheck --check-prefix=INSTR %s < %t/sp.i.ptx
; INSTR: .entry gridstride(
; INSTR-NOT: bar.red
; INSTR: ld.volatile.global.{{[ub]}}64
; INSTR: .entry collatz(
; RUN: %if ptxas %{ %ptxas -arch=sm_90 %t/sp.i.ptx -o %t/sp.i.cubin %}
;
; RUN: hetgpu-translate --target=spirv %t/sp.bc -o %t/sp.spv
; RUN: hetgpu-translate --target=spirv %t/none.bc -o %t/none.spv
; RUN: cmp %t/sp.spv %t/none.spv
; RUN: hetgpu-translate --target=spirv --instrument %t/sp.bc -o %t/sp.i.spv
; RUN: %if spirv-val %{ spirv-val %t/sp.i.spv %}
;
; RUN: hetgpu-translate --target=host %t/sp.bc -o %t/sp.so
; RUN: hetgpu-translate --target=host %t/none.bc -o %t/none.so
; RUN: llvm-objdump -d --no-show-raw-insn %t/sp.so | tail -n +3 > %t/sp.s
; RUN: llvm-objdump -d --no-show-raw-insn %t/none.so | tail -n +3 > %t/none.s
; RUN: diff %t/sp.s %t/none.s
; RUN: hetgpu-translate --target=host --instrument %t/sp.bc -o %t/sp.i.so
;
; RUN: hetgpu-translate --target=amdgpu %t/sp.bc -o %t/sp.hsaco
; RUN: hetgpu-translate --target=amdgpu %t/none.bc -o %t/none.hsaco
; RUN: cmp %t/sp.hsaco %t/none.hsaco
; RUN: hetgpu-translate --target=amdgpu --instrument %t/sp.bc -o %t/sp.i.hsaco
; RUN: hetgpu-translate --target=rvmc %t/sp.bc -o %t/sp.rvmc
; RUN: hetgpu-translate --target=rvmc %t/none.bc -o %t/none.rvmc
; RUN: cmp %t/sp.rvmc %t/none.rvmc
; RUN: hetgpu-translate --target=rvmc --instrument %t/sp.bc -o %t/sp.i.rvmc

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
;   out[i] = out[i] * 3 + 1;
define void @gridstride(ptr %out, i32 %n) #0 {
entry:
  %tid = call i32 @__hetgpu_tid_x()
  %ctaid = call i32 @__hetgpu_ctaid_x()
  %ntid = call i32 @__hetgpu_ntid_x()
  %nctaid = call i32 @__hetgpu_nctaid_x()
  %base = mul i32 %ctaid, %ntid
  %gid = add i32 %base, %tid
  %stride = mul i32 %ntid, %nctaid
  %any = icmp slt i32 %gid, %n
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i32 [ %gid, %entry ], [ %i.next, %loop ]
  %p = getelementptr i32, ptr %out, i32 %i
  %v = load i32, ptr %p
  %v3 = mul i32 %v, 3
  %v1 = add i32 %v3, 1
  store i32 %v1, ptr %p
  %i.next = add i32 %i, %stride
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; x = in[gid]; steps = 0; while (x > 1) { x = x & 1 ? 3x + 1 : x / 2; ++steps; }
; out[gid] = steps;
define void @collatz(ptr %out, ptr %in) #0 {
entry:
  %tid = call i32 @__hetgpu_tid_x()
  %ctaid = call i32 @__hetgpu_ctaid_x()
  %ntid = call i32 @__hetgpu_ntid_x()
  %base = mul i32 %ctaid, %ntid
  %gid = add i32 %base, %tid
  %pin = getelementptr i64, ptr %in, i32 %gid
  %x0 = load i64, ptr %pin
  %go = icmp ugt i64 %x0, 1
  br i1 %go, label %loop, label %exit

loop:
  %x = phi i64 [ %x0, %entry ], [ %x.next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  %odd = and i64 %x, 1
  %isodd = icmp ne i64 %odd, 0
  %x3 = mul i64 %x, 3
  %x31 = add i64 %x3, 1
  %xh = lshr i64 %x, 1
  %x.next = select i1 %isodd, i64 %x31, i64 %xh
  %s.next = add i32 %s, 1
  %more = icmp ugt i64 %x.next, 1
  br i1 %more, label %loop, label %exit

exit:
  %steps = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  %pout = getelementptr i32, ptr %out, i32 %gid
  store i32 %steps, ptr %pout
  ret void
}

declare i32 @__hetgpu_tid_x()
declare i32 @__hetgpu_ctaid_x()
declare i32 @__hetgpu_ntid_x()
declare i32 @__hetgpu_nctaid_x()

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1, !5}
!0 = !{i32 1, i32 0}
!1 = !{ptr @gridstride, !"name", !"gridstride", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !11}
!2 = !{!3, !12}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{}
!5 = !{ptr @collatz, !"name", !"collatz", !"params", !14, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !11}
!11 = !{i32 0, i32 0}
!12 = !{!"value", i32 4, i32 4}
!14 = !{!3, !3}
