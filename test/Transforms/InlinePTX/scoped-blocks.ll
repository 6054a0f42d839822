; Multi-instruction strings, nested { } scopes with local registers
; (shadowing), register ranges (r<2>), tied operands ("0" and +r),
; guarded pure instructions (selects), comments, mov pack/unpack.
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-verify -disable-output %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-lower-inline-ptx -S %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define i32 @nested(i32 %a)
; CHECK-NEXT: [[T1:%.*]] = add i32 %a, 1
; CHECK-NEXT: [[T2:%.*]] = mul i32 %a, 3
; CHECK-NEXT: [[T3:%.*]] = add i32 [[T2]], 0
; CHECK-NEXT: [[T4:%.*]] = add i32 [[T3]], [[T1]]
; CHECK-NEXT: ret i32 [[T4]]
; CHECK-NEXT: }
define i32 @nested(i32 %a) {
  %r = call i32 asm "{\0A\09.reg .u32 t;\0A\09add.u32 t, $1, 1; // one\0A\09{ .reg .u32 t; mul.lo.u32 t, $1, 3; add.u32 $0, t, 0; }\0A\09add.u32 $0, $0, t;\0A\09}", "=r,r"(i32 %a)
  ret i32 %r
}

; CHECK-LABEL: define i32 @tied(i32 %x, i32 %y)
; CHECK-NEXT: [[T1:%.*]] = add i32 %x, %y
; CHECK-NEXT: ret i32 [[T1]]
; CHECK-NEXT: }
define i32 @tied(i32 %x, i32 %y) {
  %r = call i32 asm "add.u32 $0, $0, $1;", "=r,r,0"(i32 %y, i32 %x)
  ret i32 %r
}

; CHECK-LABEL: define i32 @ranges_guard(i32 %a, i32 %b)
; CHECK-NEXT: [[T1:%.*]] = icmp ugt i32 %a, %b
; CHECK-NEXT: [[T2:%.*]] = select i1 [[T1]], i32 %b, i32 %a
; CHECK-NEXT: [[T3:%.*]] = xor i1 [[T1]], true
; CHECK-NEXT: [[T4:%.*]] = add i32 [[T2]], 100
; CHECK-NEXT: [[T5:%.*]] = select i1 [[T3]], i32 [[T4]], i32 [[T2]]
; CHECK-NEXT: ret i32 [[T5]]
; CHECK-NEXT: }
define i32 @ranges_guard(i32 %a, i32 %b) {
  %r = call i32 asm "{ .reg .u32 r<2>; .reg .pred p; mov.u32 r0, $1; mov.u32 r1, $2; setp.gt.u32 p, r0, r1; @p mov.u32 r0, r1; @!p add.u32 r0, r0, 100; mov.u32 $0, r0; }", "=r,r,r"(i32 %a, i32 %b)
  ret i32 %r
}

; CHECK-LABEL: define i64 @pack_unpack(i64 %x)
; CHECK-NEXT: [[T1:%.*]] = trunc i64 %x to i32
; CHECK-NEXT: [[T2:%.*]] = lshr i64 %x, 32
; CHECK-NEXT: [[T3:%.*]] = trunc i64 [[T2]] to i32
; CHECK-NEXT: [[T4:%.*]] = zext i32 [[T3]] to i64
; CHECK-NEXT: [[T5:%.*]] = zext i32 [[T1]] to i64
; CHECK-NEXT: [[T6:%.*]] = shl i64 [[T5]], 32
; CHECK-NEXT: [[T7:%.*]] = or i64 [[T4]], [[T6]]
; CHECK-NEXT: ret i64 [[T7]]
; CHECK-NEXT: }
define i64 @pack_unpack(i64 %x) {
  %r = call i64 asm "{ .reg .u32 lo, hi; mov.b64 {lo, hi}, $1; mov.b64 $0, {hi, lo}; }", "=l,l"(i64 %x)
  ret i64 %r
}

; CHECK-LABEL: define double @shfl_double(double %d)
; CHECK-NEXT: [[T1:%.*]] = bitcast double %d to i64
; CHECK-NEXT: [[T2:%.*]] = trunc i64 [[T1]] to i32
; CHECK-NEXT: [[T3:%.*]] = lshr i64 [[T1]], 32
; CHECK-NEXT: [[T4:%.*]] = trunc i64 [[T3]] to i32
; CHECK-NEXT: [[T5:%.*]] = call i32 @__hetgpu_shfl_down_i32(i32 -1, i32 [[T2]], i32 1, i32 32)
; CHECK-NEXT: [[T6:%.*]] = call i32 @__hetgpu_shfl_down_i32(i32 -1, i32 [[T4]], i32 1, i32 32)
; CHECK-NEXT: [[T7:%.*]] = zext i32 [[T5]] to i64
; CHECK-NEXT: [[T8:%.*]] = zext i32 [[T6]] to i64
; CHECK-NEXT: [[T9:%.*]] = shl i64 [[T8]], 32
; CHECK-NEXT: [[T10:%.*]] = or i64 [[T7]], [[T9]]
; CHECK-NEXT: [[T11:%.*]] = bitcast i64 [[T10]] to double
; CHECK-NEXT: ret double [[T11]]
; CHECK-NEXT: }
define double @shfl_double(double %d) {
  %r = call double asm sideeffect "{ .reg .u32 lo; .reg .u32 hi; mov.b64 {lo, hi}, $1; shfl.sync.down.b32 lo, lo, 1, 0x1f, 0xffffffff; shfl.sync.down.b32 hi, hi, 1, 0x1f, 0xffffffff; mov.b64 $0, {lo, hi}; }", "=d,d"(double %d)
  ret double %r
}

; Negative twin: no asm, nothing changes.
; CHECK-LABEL: define i32 @no_asm(i32 %x)
; CHECK-NEXT: %r = add i32 %x, 1
; CHECK-NEXT: ret i32 %r
; CHECK-NEXT: }
define i32 @no_asm(i32 %x) {
  %r = add i32 %x, 1
  ret i32 %r
}

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{}
!0 = !{i32 1, i32 0}
