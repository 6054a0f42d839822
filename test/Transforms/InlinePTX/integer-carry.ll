; Integer arithmetic: mul.hi/.wide, mad, .sat, div by zero kept defined, and
; carry chains (add.cc/addc/sub.cc/subc/mad.cc/madc), also across two asm
; statements through the function's carry variable.
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-verify -disable-output %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-lower-inline-ptx -S %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define i64 @add128(i64 %alo, i64 %ahi, i64 %blo, i64 %bhi)
; CHECK-NEXT: [[T1:%.*]] = add i64 %alo, %blo
; CHECK-NEXT: [[T2:%.*]] = icmp ult i64 [[T1]], %alo
; CHECK-NEXT: [[T3:%.*]] = add i64 %ahi, %bhi
; CHECK-NEXT: [[T4:%.*]] = zext i1 [[T2]] to i64
; CHECK-NEXT: [[T5:%.*]] = add i64 [[T3]], [[T4]]
; CHECK-NEXT: [[T6:%.*]] = insertvalue { i64, i64 } poison, i64 [[T1]], 0
; CHECK-NEXT: [[T7:%.*]] = insertvalue { i64, i64 } [[T6]], i64 [[T5]], 1
; CHECK-NEXT: %h = extractvalue { i64, i64 } [[T7]], 1
; CHECK-NEXT: ret i64 %h
; CHECK-NEXT: }
define i64 @add128(i64 %alo, i64 %ahi, i64 %blo, i64 %bhi) {
  %r = call { i64, i64 } asm "add.cc.u64 $0, $2, $4;\0A\09addc.u64 $1, $3, $5;", "=l,=l,l,l,l,l"(i64 %alo, i64 %ahi, i64 %blo, i64 %bhi)
  %h = extractvalue { i64, i64 } %r, 1
  ret i64 %h
}

; CHECK-LABEL: define i32 @sub_chain(i32 %a, i32 %b)
; CHECK-NEXT: [[T1:%.*]] = sub i32 %a, %b
; CHECK-NEXT: [[T2:%.*]] = icmp ult i32 %a, %b
; CHECK-NEXT: [[T3:%.*]] = sub i32 %b, %a
; CHECK-NEXT: [[T4:%.*]] = zext i1 [[T2]] to i32
; CHECK-NEXT: [[T5:%.*]] = sub i32 [[T3]], [[T4]]
; CHECK-NEXT: [[T6:%.*]] = insertvalue { i32, i32 } poison, i32 [[T1]], 0
; CHECK-NEXT: [[T7:%.*]] = insertvalue { i32, i32 } [[T6]], i32 [[T5]], 1
; CHECK-NEXT: %h = extractvalue { i32, i32 } [[T7]], 1
; CHECK-NEXT: ret i32 %h
; CHECK-NEXT: }
define i32 @sub_chain(i32 %a, i32 %b) {
  %r = call { i32, i32 } asm "sub.cc.u32 $0, $2, $3;\0A\09subc.cc.u32 $1, $3, $2;", "=r,=r,r,r"(i32 %a, i32 %b)
  %h = extractvalue { i32, i32 } %r, 1
  ret i32 %h
}

; CHECK-LABEL: define i32 @split_chain(i32 %a, i32 %b)
; CHECK-NEXT: [[T1:%.*]] = add i32 %a, %b
; CHECK-NEXT: [[T2:%.*]] = icmp ult i32 [[T1]], %a
; CHECK-NEXT: [[T3:%.*]] = zext i1 [[T2]] to i32
; CHECK-NEXT: [[T4:%.*]] = add i32 0, [[T3]]
; CHECK-NEXT: %s = xor i32 [[T1]], [[T4]]
; CHECK-NEXT: ret i32 %s
; CHECK-NEXT: }
define i32 @split_chain(i32 %a, i32 %b) {
  %lo = call i32 asm sideeffect "add.cc.u32 $0, $1, $2;", "=r,r,r"(i32 %a, i32 %b)
  %hi = call i32 asm sideeffect "addc.u32 $0, 0, 0;", "=r"()
  %s = xor i32 %lo, %hi
  ret i32 %s
}

; CHECK-LABEL: define i32 @mad_chain(i32 %a, i32 %b, i32 %c)
; CHECK-NEXT: [[T1:%.*]] = mul i32 %a, %b
; CHECK-NEXT: [[T2:%.*]] = add i32 [[T1]], %c
; CHECK-NEXT: [[T3:%.*]] = icmp ult i32 [[T2]], [[T1]]
; CHECK-NEXT: [[T4:%.*]] = zext i32 %b to i64
; CHECK-NEXT: [[T5:%.*]] = zext i32 %a to i64
; CHECK-NEXT: [[T6:%.*]] = mul i64 [[T5]], [[T4]]
; CHECK-NEXT: [[T7:%.*]] = lshr i64 [[T6]], 32
; CHECK-NEXT: [[T8:%.*]] = trunc i64 [[T7]] to i32
; CHECK-NEXT: [[T9:%.*]] = add i32 [[T8]], 0
; CHECK-NEXT: [[T10:%.*]] = zext i1 [[T3]] to i32
; CHECK-NEXT: [[T11:%.*]] = add i32 [[T9]], [[T10]]
; CHECK-NEXT: [[T12:%.*]] = insertvalue { i32, i32 } poison, i32 [[T2]], 0
; CHECK-NEXT: [[T13:%.*]] = insertvalue { i32, i32 } [[T12]], i32 [[T11]], 1
; CHECK-NEXT: %h = extractvalue { i32, i32 } [[T13]], 1
; CHECK-NEXT: ret i32 %h
; CHECK-NEXT: }
define i32 @mad_chain(i32 %a, i32 %b, i32 %c) {
  %r = call { i32, i32 } asm "mad.lo.cc.u32 $0, $2, $3, $4;\0A\09madc.hi.u32 $1, $2, $3, 0;", "=r,=r,r,r,r"(i32 %a, i32 %b, i32 %c)
  %h = extractvalue { i32, i32 } %r, 1
  ret i32 %h
}

; CHECK-LABEL: define i64 @mul_forms(i32 %a, i32 %b)
; CHECK-NEXT: [[T1:%.*]] = sext i32 %b to i64
; CHECK-NEXT: [[T2:%.*]] = sext i32 %a to i64
; CHECK-NEXT: [[T3:%.*]] = mul i64 [[T2]], [[T1]]
; CHECK-NEXT: [[T4:%.*]] = lshr i64 [[T3]], 32
; CHECK-NEXT: [[T5:%.*]] = trunc i64 [[T4]] to i32
; CHECK-NEXT: [[T6:%.*]] = zext i32 %b to i64
; CHECK-NEXT: [[T7:%.*]] = zext i32 %a to i64
; CHECK-NEXT: [[T8:%.*]] = mul i64 [[T7]], [[T6]]
; CHECK-NEXT: [[T9:%.*]] = insertvalue { i32, i64 } poison, i32 [[T5]], 0
; CHECK-NEXT: [[T10:%.*]] = insertvalue { i32, i64 } [[T9]], i64 [[T8]], 1
; CHECK-NEXT: %w = extractvalue { i32, i64 } [[T10]], 1
; CHECK-NEXT: ret i64 %w
; CHECK-NEXT: }
define i64 @mul_forms(i32 %a, i32 %b) {
  %r = call { i32, i64 } asm "mul.hi.s32 $0, $2, $3;\0A\09mul.wide.u32 $1, $2, $3;", "=r,=l,r,r"(i32 %a, i32 %b)
  %w = extractvalue { i32, i64 } %r, 1
  ret i64 %w
}

; CHECK-LABEL: define i32 @sat_div(i32 %a, i32 %b)
; CHECK-NEXT: [[T1:%.*]] = call i32 @llvm.sadd.sat.i32(i32 %a, i32 %b)
; CHECK-NEXT: [[T2:%.*]] = icmp eq i32 %b, 0
; CHECK-NEXT: [[T3:%.*]] = icmp eq i32 %b, -1
; CHECK-NEXT: [[T4:%.*]] = icmp eq i32 %a, -2147483648
; CHECK-NEXT: [[T5:%.*]] = and i1 [[T4]], [[T3]]
; CHECK-NEXT: [[T6:%.*]] = or i1 [[T2]], [[T5]]
; CHECK-NEXT: [[T7:%.*]] = select i1 [[T6]], i32 1, i32 %b
; CHECK-NEXT: [[T8:%.*]] = sdiv i32 %a, [[T7]]
; CHECK-NEXT: [[T9:%.*]] = insertvalue { i32, i32 } poison, i32 [[T1]], 0
; CHECK-NEXT: [[T10:%.*]] = insertvalue { i32, i32 } [[T9]], i32 [[T8]], 1
; CHECK-NEXT: %d = extractvalue { i32, i32 } [[T10]], 1
; CHECK-NEXT: ret i32 %d
; CHECK-NEXT: }
define i32 @sat_div(i32 %a, i32 %b) {
  %r = call { i32, i32 } asm "add.sat.s32 $0, $2, $3;\0A\09div.s32 $1, $2, $3;", "=r,=r,r,r"(i32 %a, i32 %b)
  %d = extractvalue { i32, i32 } %r, 1
  ret i32 %d
}

; CHECK-LABEL: define i32 @dp4a(i32 %a, i32 %b, i32 %c)
; CHECK-NEXT: [[T1:%.*]] = lshr i32 %b, 0
; CHECK-NEXT: [[T2:%.*]] = trunc i32 [[T1]] to i8
; CHECK-NEXT: [[T3:%.*]] = sext i8 [[T2]] to i32
; CHECK-NEXT: [[T4:%.*]] = lshr i32 %a, 0
; CHECK-NEXT: [[T5:%.*]] = trunc i32 [[T4]] to i8
; CHECK-NEXT: [[T6:%.*]] = zext i8 [[T5]] to i32
; CHECK-NEXT: [[T7:%.*]] = mul i32 [[T6]], [[T3]]
; CHECK-NEXT: [[T8:%.*]] = add i32 %c, [[T7]]
; CHECK-NEXT: [[T9:%.*]] = lshr i32 %b, 8
; CHECK-NEXT: [[T10:%.*]] = trunc i32 [[T9]] to i8
; CHECK-NEXT: [[T11:%.*]] = sext i8 [[T10]] to i32
; CHECK-NEXT: [[T12:%.*]] = lshr i32 %a, 8
; CHECK-NEXT: [[T13:%.*]] = trunc i32 [[T12]] to i8
; CHECK-NEXT: [[T14:%.*]] = zext i8 [[T13]] to i32
; CHECK-NEXT: [[T15:%.*]] = mul i32 [[T14]], [[T11]]
; CHECK-NEXT: [[T16:%.*]] = add i32 [[T8]], [[T15]]
; CHECK-NEXT: [[T17:%.*]] = lshr i32 %b, 16
; CHECK-NEXT: [[T18:%.*]] = trunc i32 [[T17]] to i8
; CHECK-NEXT: [[T19:%.*]] = sext i8 [[T18]] to i32
; CHECK-NEXT: [[T20:%.*]] = lshr i32 %a, 16
; CHECK-NEXT: [[T21:%.*]] = trunc i32 [[T20]] to i8
; CHECK-NEXT: [[T22:%.*]] = zext i8 [[T21]] to i32
; CHECK-NEXT: [[T23:%.*]] = mul i32 [[T22]], [[T19]]
; CHECK-NEXT: [[T24:%.*]] = add i32 [[T16]], [[T23]]
; CHECK-NEXT: [[T25:%.*]] = lshr i32 %b, 24
; CHECK-NEXT: [[T26:%.*]] = trunc i32 [[T25]] to i8
; CHECK-NEXT: [[T27:%.*]] = sext i8 [[T26]] to i32
; CHECK-NEXT: [[T28:%.*]] = lshr i32 %a, 24
; CHECK-NEXT: [[T29:%.*]] = trunc i32 [[T28]] to i8
; CHECK-NEXT: [[T30:%.*]] = zext i8 [[T29]] to i32
; CHECK-NEXT: [[T31:%.*]] = mul i32 [[T30]], [[T27]]
; CHECK-NEXT: [[T32:%.*]] = add i32 [[T24]], [[T31]]
; CHECK-NEXT: ret i32 [[T32]]
; CHECK-NEXT: }
define i32 @dp4a(i32 %a, i32 %b, i32 %c) {
  %r = call i32 asm "dp4a.u32.s32 $0, $1, $2, $3;", "=r,r,r,r"(i32 %a, i32 %b, i32 %c)
  ret i32 %r
}

; CHECK-LABEL: define i32 @vshr_clamp_add(i32 %a, i32 %b, i32 %c)
; CHECK-NEXT: [[T1:%.*]] = zext i32 %a to i64
; CHECK-NEXT: [[T2:%.*]] = zext i32 %b to i64
; CHECK-NEXT: [[T3:%.*]] = icmp ult i64 [[T2]], 32
; CHECK-NEXT: [[T4:%.*]] = select i1 [[T3]], i64 [[T2]], i64 32
; CHECK-NEXT: [[T5:%.*]] = icmp uge i64 [[T4]], 64
; CHECK-NEXT: [[T6:%.*]] = and i64 [[T4]], 63
; CHECK-NEXT: [[T7:%.*]] = lshr i64 [[T1]], [[T6]]
; CHECK-NEXT: [[T8:%.*]] = select i1 [[T5]], i64 0, i64 [[T7]]
; CHECK-NEXT: [[T9:%.*]] = zext i32 %c to i64
; CHECK-NEXT: [[T10:%.*]] = add i64 [[T8]], [[T9]]
; CHECK-NEXT: [[T11:%.*]] = trunc i64 [[T10]] to i32
; CHECK-NEXT: ret i32 [[T11]]
; CHECK-NEXT: }
define i32 @vshr_clamp_add(i32 %a, i32 %b, i32 %c) {
  %r = call i32 asm "vshr.u32.u32.u32.clamp.add $0, $1, $2, $3;", "=r,r,r,r"(i32 %a, i32 %b, i32 %c)
  ret i32 %r
}

; CHECK-LABEL: define i32 @logic_shift(i32 %a, i32 %n)
; CHECK-NEXT: [[T1:%.*]] = icmp uge i32 %n, 32
; CHECK-NEXT: [[T2:%.*]] = and i32 %n, 31
; CHECK-NEXT: [[T3:%.*]] = shl i32 %a, [[T2]]
; CHECK-NEXT: [[T4:%.*]] = select i1 [[T1]], i32 0, i32 [[T3]]
; CHECK-NEXT: [[T5:%.*]] = ashr i32 [[T4]], 3
; CHECK-NEXT: [[T6:%.*]] = xor i32 [[T5]], -1
; CHECK-NEXT: [[T7:%.*]] = xor i32 [[T6]], %a
; CHECK-NEXT: ret i32 [[T7]]
; CHECK-NEXT: }
define i32 @logic_shift(i32 %a, i32 %n) {
  %r = call i32 asm "{ .reg .b32 t; shl.b32 t, $1, $2; shr.s32 t, t, 3; not.b32 t, t; xor.b32 $0, t, $1; }", "=r,r,r"(i32 %a, i32 %n)
  ret i32 %r
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
