; prmt (default and mode forms), bfe/bfi with PTX's out-of-range rules,
; lop3 from its truth table, shf, brev, popc, clz, bfind and fns.
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-verify -disable-output %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-lower-inline-ptx -S %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define i32 @prmt(i32 %a, i32 %b, i32 %c)
; CHECK-NEXT: [[T1:%.*]] = zext i32 %b to i64
; CHECK-NEXT: [[T2:%.*]] = shl i64 [[T1]], 32
; CHECK-NEXT: [[T3:%.*]] = zext i32 %a to i64
; CHECK-NEXT: [[T4:%.*]] = or i64 [[T3]], [[T2]]
; CHECK-NEXT: [[T5:%.*]] = lshr i32 %c, 0
; CHECK-NEXT: [[T6:%.*]] = and i32 [[T5]], 15
; CHECK-NEXT: [[T7:%.*]] = and i32 [[T6]], 7
; CHECK-NEXT: [[T8:%.*]] = and i32 [[T6]], 8
; CHECK-NEXT: [[T9:%.*]] = icmp ne i32 [[T8]], 0
; CHECK-NEXT: [[T10:%.*]] = shl i32 [[T7]], 3
; CHECK-NEXT: [[T11:%.*]] = zext i32 [[T10]] to i64
; CHECK-NEXT: [[T12:%.*]] = lshr i64 [[T4]], [[T11]]
; CHECK-NEXT: [[T13:%.*]] = trunc i64 [[T12]] to i8
; CHECK-NEXT: [[T14:%.*]] = ashr i8 [[T13]], 7
; CHECK-NEXT: [[T15:%.*]] = select i1 [[T9]], i8 [[T14]], i8 [[T13]]
; CHECK-NEXT: [[T16:%.*]] = zext i8 [[T15]] to i32
; CHECK-NEXT: [[T17:%.*]] = shl i32 [[T16]], 0
; CHECK-NEXT: [[T18:%.*]] = or i32 0, [[T17]]
; CHECK-NEXT: [[T19:%.*]] = lshr i32 %c, 4
; CHECK-NEXT: [[T20:%.*]] = and i32 [[T19]], 15
; CHECK-NEXT: [[T21:%.*]] = and i32 [[T20]], 7
; CHECK-NEXT: [[T22:%.*]] = and i32 [[T20]], 8
; CHECK-NEXT: [[T23:%.*]] = icmp ne i32 [[T22]], 0
; CHECK-NEXT: [[T24:%.*]] = shl i32 [[T21]], 3
; CHECK-NEXT: [[T25:%.*]] = zext i32 [[T24]] to i64
; CHECK-NEXT: [[T26:%.*]] = lshr i64 [[T4]], [[T25]]
; CHECK-NEXT: [[T27:%.*]] = trunc i64 [[T26]] to i8
; CHECK-NEXT: [[T28:%.*]] = ashr i8 [[T27]], 7
; CHECK-NEXT: [[T29:%.*]] = select i1 [[T23]], i8 [[T28]], i8 [[T27]]
; CHECK-NEXT: [[T30:%.*]] = zext i8 [[T29]] to i32
; CHECK-NEXT: [[T31:%.*]] = shl i32 [[T30]], 8
; CHECK-NEXT: [[T32:%.*]] = or i32 [[T18]], [[T31]]
; CHECK-NEXT: [[T33:%.*]] = lshr i32 %c, 8
; CHECK-NEXT: [[T34:%.*]] = and i32 [[T33]], 15
; CHECK-NEXT: [[T35:%.*]] = and i32 [[T34]], 7
; CHECK-NEXT: [[T36:%.*]] = and i32 [[T34]], 8
; CHECK-NEXT: [[T37:%.*]] = icmp ne i32 [[T36]], 0
; CHECK-NEXT: [[T38:%.*]] = shl i32 [[T35]], 3
; CHECK-NEXT: [[T39:%.*]] = zext i32 [[T38]] to i64
; CHECK-NEXT: [[T40:%.*]] = lshr i64 [[T4]], [[T39]]
; CHECK-NEXT: [[T41:%.*]] = trunc i64 [[T40]] to i8
; CHECK-NEXT: [[T42:%.*]] = ashr i8 [[T41]], 7
; CHECK-NEXT: [[T43:%.*]] = select i1 [[T37]], i8 [[T42]], i8 [[T41]]
; CHECK-NEXT: [[T44:%.*]] = zext i8 [[T43]] to i32
; CHECK-NEXT: [[T45:%.*]] = shl i32 [[T44]], 16
; CHECK-NEXT: [[T46:%.*]] = or i32 [[T32]], [[T45]]
; CHECK-NEXT: [[T47:%.*]] = lshr i32 %c, 12
; CHECK-NEXT: [[T48:%.*]] = and i32 [[T47]], 15
; CHECK-NEXT: [[T49:%.*]] = and i32 [[T48]], 7
; CHECK-NEXT: [[T50:%.*]] = and i32 [[T48]], 8
; CHECK-NEXT: [[T51:%.*]] = icmp ne i32 [[T50]], 0
; CHECK-NEXT: [[T52:%.*]] = shl i32 [[T49]], 3
; CHECK-NEXT: [[T53:%.*]] = zext i32 [[T52]] to i64
; CHECK-NEXT: [[T54:%.*]] = lshr i64 [[T4]], [[T53]]
; CHECK-NEXT: [[T55:%.*]] = trunc i64 [[T54]] to i8
; CHECK-NEXT: [[T56:%.*]] = ashr i8 [[T55]], 7
; CHECK-NEXT: [[T57:%.*]] = select i1 [[T51]], i8 [[T56]], i8 [[T55]]
; CHECK-NEXT: [[T58:%.*]] = zext i8 [[T57]] to i32
; CHECK-NEXT: [[T59:%.*]] = shl i32 [[T58]], 24
; CHECK-NEXT: [[T60:%.*]] = or i32 [[T46]], [[T59]]
; CHECK-NEXT: ret i32 [[T60]]
; CHECK-NEXT: }
define i32 @prmt(i32 %a, i32 %b, i32 %c) {
  %r = call i32 asm "prmt.b32 $0, $1, $2, $3;", "=r,r,r,r"(i32 %a, i32 %b, i32 %c)
  ret i32 %r
}

; CHECK-LABEL: define i32 @prmt_const_selector(i32 %a, i32 %b)
; CHECK-NEXT: [[T1:%.*]] = zext i32 %b to i64
; CHECK-NEXT: [[T2:%.*]] = shl i64 [[T1]], 32
; CHECK-NEXT: [[T3:%.*]] = zext i32 %a to i64
; CHECK-NEXT: [[T4:%.*]] = or i64 [[T3]], [[T2]]
; CHECK-NEXT: [[T5:%.*]] = lshr i64 [[T4]], 0
; CHECK-NEXT: [[T6:%.*]] = trunc i64 [[T5]] to i8
; CHECK-NEXT: [[T7:%.*]] = ashr i8 [[T6]], 7
; CHECK-NEXT: [[T8:%.*]] = select i1 false, i8 [[T7]], i8 [[T6]]
; CHECK-NEXT: [[T9:%.*]] = zext i8 [[T8]] to i32
; CHECK-NEXT: [[T10:%.*]] = shl i32 [[T9]], 0
; CHECK-NEXT: [[T11:%.*]] = or i32 0, [[T10]]
; CHECK-NEXT: [[T12:%.*]] = lshr i64 [[T4]], 32
; CHECK-NEXT: [[T13:%.*]] = trunc i64 [[T12]] to i8
; CHECK-NEXT: [[T14:%.*]] = ashr i8 [[T13]], 7
; CHECK-NEXT: [[T15:%.*]] = select i1 false, i8 [[T14]], i8 [[T13]]
; CHECK-NEXT: [[T16:%.*]] = zext i8 [[T15]] to i32
; CHECK-NEXT: [[T17:%.*]] = shl i32 [[T16]], 8
; CHECK-NEXT: [[T18:%.*]] = or i32 [[T11]], [[T17]]
; CHECK-NEXT: [[T19:%.*]] = lshr i64 [[T4]], 8
; CHECK-NEXT: [[T20:%.*]] = trunc i64 [[T19]] to i8
; CHECK-NEXT: [[T21:%.*]] = ashr i8 [[T20]], 7
; CHECK-NEXT: [[T22:%.*]] = select i1 false, i8 [[T21]], i8 [[T20]]
; CHECK-NEXT: [[T23:%.*]] = zext i8 [[T22]] to i32
; CHECK-NEXT: [[T24:%.*]] = shl i32 [[T23]], 16
; CHECK-NEXT: [[T25:%.*]] = or i32 [[T18]], [[T24]]
; CHECK-NEXT: [[T26:%.*]] = lshr i64 [[T4]], 40
; CHECK-NEXT: [[T27:%.*]] = trunc i64 [[T26]] to i8
; CHECK-NEXT: [[T28:%.*]] = ashr i8 [[T27]], 7
; CHECK-NEXT: [[T29:%.*]] = select i1 false, i8 [[T28]], i8 [[T27]]
; CHECK-NEXT: [[T30:%.*]] = zext i8 [[T29]] to i32
; CHECK-NEXT: [[T31:%.*]] = shl i32 [[T30]], 24
; CHECK-NEXT: [[T32:%.*]] = or i32 [[T25]], [[T31]]
; CHECK-NEXT: ret i32 [[T32]]
; CHECK-NEXT: }
define i32 @prmt_const_selector(i32 %a, i32 %b) {
  %r = call i32 asm "prmt.b32 $0, $1, $2, 0x5140;", "=r,r,r"(i32 %a, i32 %b)
  ret i32 %r
}

; CHECK-LABEL: define i32 @prmt_ecl(i32 %a, i32 %b, i32 %c)
; CHECK-NEXT: [[T1:%.*]] = zext i32 %b to i64
; CHECK-NEXT: [[T2:%.*]] = shl i64 [[T1]], 32
; CHECK-NEXT: [[T3:%.*]] = zext i32 %a to i64
; CHECK-NEXT: [[T4:%.*]] = or i64 [[T3]], [[T2]]
; CHECK-NEXT: [[T5:%.*]] = and i32 %c, 3
; CHECK-NEXT: [[T6:%.*]] = icmp ult i32 0, [[T5]]
; CHECK-NEXT: [[T7:%.*]] = select i1 [[T6]], i32 [[T5]], i32 0
; CHECK-NEXT: [[T8:%.*]] = shl i32 [[T7]], 3
; CHECK-NEXT: [[T9:%.*]] = zext i32 [[T8]] to i64
; CHECK-NEXT: [[T10:%.*]] = lshr i64 [[T4]], [[T9]]
; CHECK-NEXT: [[T11:%.*]] = trunc i64 [[T10]] to i8
; CHECK-NEXT: [[T12:%.*]] = zext i8 [[T11]] to i32
; CHECK-NEXT: [[T13:%.*]] = shl i32 [[T12]], 0
; CHECK-NEXT: [[T14:%.*]] = or i32 0, [[T13]]
; CHECK-NEXT: [[T15:%.*]] = icmp ult i32 1, [[T5]]
; CHECK-NEXT: [[T16:%.*]] = select i1 [[T15]], i32 [[T5]], i32 1
; CHECK-NEXT: [[T17:%.*]] = shl i32 [[T16]], 3
; CHECK-NEXT: [[T18:%.*]] = zext i32 [[T17]] to i64
; CHECK-NEXT: [[T19:%.*]] = lshr i64 [[T4]], [[T18]]
; CHECK-NEXT: [[T20:%.*]] = trunc i64 [[T19]] to i8
; CHECK-NEXT: [[T21:%.*]] = zext i8 [[T20]] to i32
; CHECK-NEXT: [[T22:%.*]] = shl i32 [[T21]], 8
; CHECK-NEXT: [[T23:%.*]] = or i32 [[T14]], [[T22]]
; CHECK-NEXT: [[T24:%.*]] = icmp ult i32 2, [[T5]]
; CHECK-NEXT: [[T25:%.*]] = select i1 [[T24]], i32 [[T5]], i32 2
; CHECK-NEXT: [[T26:%.*]] = shl i32 [[T25]], 3
; CHECK-NEXT: [[T27:%.*]] = zext i32 [[T26]] to i64
; CHECK-NEXT: [[T28:%.*]] = lshr i64 [[T4]], [[T27]]
; CHECK-NEXT: [[T29:%.*]] = trunc i64 [[T28]] to i8
; CHECK-NEXT: [[T30:%.*]] = zext i8 [[T29]] to i32
; CHECK-NEXT: [[T31:%.*]] = shl i32 [[T30]], 16
; CHECK-NEXT: [[T32:%.*]] = or i32 [[T23]], [[T31]]
; CHECK-NEXT: [[T33:%.*]] = icmp ult i32 3, [[T5]]
; CHECK-NEXT: [[T34:%.*]] = select i1 [[T33]], i32 [[T5]], i32 3
; CHECK-NEXT: [[T35:%.*]] = shl i32 [[T34]], 3
; CHECK-NEXT: [[T36:%.*]] = zext i32 [[T35]] to i64
; CHECK-NEXT: [[T37:%.*]] = lshr i64 [[T4]], [[T36]]
; CHECK-NEXT: [[T38:%.*]] = trunc i64 [[T37]] to i8
; CHECK-NEXT: [[T39:%.*]] = zext i8 [[T38]] to i32
; CHECK-NEXT: [[T40:%.*]] = shl i32 [[T39]], 24
; CHECK-NEXT: [[T41:%.*]] = or i32 [[T32]], [[T40]]
; CHECK-NEXT: ret i32 [[T41]]
; CHECK-NEXT: }
define i32 @prmt_ecl(i32 %a, i32 %b, i32 %c) {
  %r = call i32 asm "prmt.b32.ecl $0, $1, $2, $3;", "=r,r,r,r"(i32 %a, i32 %b, i32 %c)
  ret i32 %r
}

; CHECK-LABEL: define i32 @bfe_u32(i32 %a, i32 %p, i32 %l)
; CHECK-NEXT: [[T1:%.*]] = and i32 %p, 255
; CHECK-NEXT: [[T2:%.*]] = and i32 %l, 255
; CHECK-NEXT: [[T3:%.*]] = icmp eq i32 [[T2]], 0
; CHECK-NEXT: [[T4:%.*]] = icmp uge i32 [[T1]], 32
; CHECK-NEXT: [[T5:%.*]] = and i32 [[T1]], 31
; CHECK-NEXT: [[T6:%.*]] = lshr i32 %a, [[T5]]
; CHECK-NEXT: [[T7:%.*]] = select i1 [[T4]], i32 0, i32 [[T6]]
; CHECK-NEXT: [[T8:%.*]] = icmp uge i32 [[T2]], 32
; CHECK-NEXT: [[T9:%.*]] = and i32 [[T2]], 31
; CHECK-NEXT: [[T10:%.*]] = shl i32 1, [[T9]]
; CHECK-NEXT: [[T11:%.*]] = select i1 [[T8]], i32 0, i32 [[T10]]
; CHECK-NEXT: [[T12:%.*]] = sub i32 [[T11]], 1
; CHECK-NEXT: [[T13:%.*]] = icmp uge i32 [[T2]], 32
; CHECK-NEXT: [[T14:%.*]] = select i1 [[T13]], i32 -1, i32 [[T12]]
; CHECK-NEXT: [[T15:%.*]] = and i32 [[T7]], [[T14]]
; CHECK-NEXT: [[T16:%.*]] = select i1 [[T3]], i32 0, i32 [[T15]]
; CHECK-NEXT: ret i32 [[T16]]
; CHECK-NEXT: }
define i32 @bfe_u32(i32 %a, i32 %p, i32 %l) {
  %r = call i32 asm "bfe.u32 $0, $1, $2, $3;", "=r,r,r,r"(i32 %a, i32 %p, i32 %l)
  ret i32 %r
}

; CHECK-LABEL: define i64 @bfe_s64(i64 %a, i32 %p, i32 %l)
; CHECK-NEXT: [[T1:%.*]] = and i32 %p, 255
; CHECK-NEXT: [[T2:%.*]] = and i32 %l, 255
; CHECK-NEXT: [[T3:%.*]] = icmp eq i32 [[T2]], 0
; CHECK-NEXT: [[T4:%.*]] = add i32 [[T1]], [[T2]]
; CHECK-NEXT: [[T5:%.*]] = sub i32 [[T4]], 1
; CHECK-NEXT: [[T6:%.*]] = icmp ult i32 [[T5]], 63
; CHECK-NEXT: [[T7:%.*]] = select i1 [[T6]], i32 [[T5]], i32 63
; CHECK-NEXT: [[T8:%.*]] = sub i32 63, [[T7]]
; CHECK-NEXT: [[T9:%.*]] = add i32 [[T8]], [[T1]]
; CHECK-NEXT: [[T10:%.*]] = icmp ult i32 [[T9]], 63
; CHECK-NEXT: [[T11:%.*]] = select i1 [[T10]], i32 [[T9]], i32 63
; CHECK-NEXT: [[T12:%.*]] = zext i32 [[T8]] to i64
; CHECK-NEXT: [[T13:%.*]] = shl i64 %a, [[T12]]
; CHECK-NEXT: [[T14:%.*]] = zext i32 [[T11]] to i64
; CHECK-NEXT: [[T15:%.*]] = ashr i64 [[T13]], [[T14]]
; CHECK-NEXT: [[T16:%.*]] = select i1 [[T3]], i64 0, i64 [[T15]]
; CHECK-NEXT: ret i64 [[T16]]
; CHECK-NEXT: }
define i64 @bfe_s64(i64 %a, i32 %p, i32 %l) {
  %r = call i64 asm "bfe.s64 $0, $1, $2, $3;", "=l,l,r,r"(i64 %a, i32 %p, i32 %l)
  ret i64 %r
}

; CHECK-LABEL: define i32 @bfi(i32 %f, i32 %b, i32 %p, i32 %l)
; CHECK-NEXT: [[T1:%.*]] = and i32 %p, 255
; CHECK-NEXT: [[T2:%.*]] = and i32 %l, 255
; CHECK-NEXT: [[T3:%.*]] = icmp uge i32 [[T2]], 32
; CHECK-NEXT: [[T4:%.*]] = and i32 [[T2]], 31
; CHECK-NEXT: [[T5:%.*]] = shl i32 1, [[T4]]
; CHECK-NEXT: [[T6:%.*]] = select i1 [[T3]], i32 0, i32 [[T5]]
; CHECK-NEXT: [[T7:%.*]] = sub i32 [[T6]], 1
; CHECK-NEXT: [[T8:%.*]] = icmp uge i32 [[T2]], 32
; CHECK-NEXT: [[T9:%.*]] = select i1 [[T8]], i32 -1, i32 [[T7]]
; CHECK-NEXT: [[T10:%.*]] = icmp uge i32 [[T1]], 32
; CHECK-NEXT: [[T11:%.*]] = and i32 [[T1]], 31
; CHECK-NEXT: [[T12:%.*]] = shl i32 [[T9]], [[T11]]
; CHECK-NEXT: [[T13:%.*]] = select i1 [[T10]], i32 0, i32 [[T12]]
; CHECK-NEXT: [[T14:%.*]] = icmp uge i32 [[T1]], 32
; CHECK-NEXT: [[T15:%.*]] = and i32 [[T1]], 31
; CHECK-NEXT: [[T16:%.*]] = shl i32 %f, [[T15]]
; CHECK-NEXT: [[T17:%.*]] = select i1 [[T14]], i32 0, i32 [[T16]]
; CHECK-NEXT: [[T18:%.*]] = and i32 [[T17]], [[T13]]
; CHECK-NEXT: [[T19:%.*]] = xor i32 [[T13]], -1
; CHECK-NEXT: [[T20:%.*]] = and i32 %b, [[T19]]
; CHECK-NEXT: [[T21:%.*]] = or i32 [[T20]], [[T18]]
; CHECK-NEXT: ret i32 [[T21]]
; CHECK-NEXT: }
define i32 @bfi(i32 %f, i32 %b, i32 %p, i32 %l) {
  %r = call i32 asm "bfi.b32 $0, $1, $2, $3, $4;", "=r,r,r,r,r"(i32 %f, i32 %b, i32 %p, i32 %l)
  ret i32 %r
}

; CHECK-LABEL: define i32 @lop3_xor3(i32 %a, i32 %b, i32 %c)
; CHECK-NEXT: [[T1:%.*]] = xor i32 %a, -1
; CHECK-NEXT: [[T2:%.*]] = xor i32 %b, -1
; CHECK-NEXT: [[T3:%.*]] = and i32 [[T2]], %c
; CHECK-NEXT: [[T4:%.*]] = and i32 [[T1]], [[T3]]
; CHECK-NEXT: [[T5:%.*]] = or i32 0, [[T4]]
; CHECK-NEXT: [[T6:%.*]] = xor i32 %a, -1
; CHECK-NEXT: [[T7:%.*]] = xor i32 %c, -1
; CHECK-NEXT: [[T8:%.*]] = and i32 %b, [[T7]]
; CHECK-NEXT: [[T9:%.*]] = and i32 [[T6]], [[T8]]
; CHECK-NEXT: [[T10:%.*]] = or i32 [[T5]], [[T9]]
; CHECK-NEXT: [[T11:%.*]] = xor i32 %b, -1
; CHECK-NEXT: [[T12:%.*]] = xor i32 %c, -1
; CHECK-NEXT: [[T13:%.*]] = and i32 [[T11]], [[T12]]
; CHECK-NEXT: [[T14:%.*]] = and i32 %a, [[T13]]
; CHECK-NEXT: [[T15:%.*]] = or i32 [[T10]], [[T14]]
; CHECK-NEXT: [[T16:%.*]] = and i32 %b, %c
; CHECK-NEXT: [[T17:%.*]] = and i32 %a, [[T16]]
; CHECK-NEXT: [[T18:%.*]] = or i32 [[T15]], [[T17]]
; CHECK-NEXT: ret i32 [[T18]]
; CHECK-NEXT: }
define i32 @lop3_xor3(i32 %a, i32 %b, i32 %c) {
  %r = call i32 asm "lop3.b32 $0, $1, $2, $3, 0x96;", "=r,r,r,r"(i32 %a, i32 %b, i32 %c)
  ret i32 %r
}

; CHECK-LABEL: define i32 @lop3_n(i32 %a, i32 %b, i32 %c)
; CHECK-NEXT: [[T1:%.*]] = and i32 %b, %c
; CHECK-NEXT: [[T2:%.*]] = and i32 %a, [[T1]]
; CHECK-NEXT: [[T3:%.*]] = or i32 0, [[T2]]
; CHECK-NEXT: ret i32 [[T3]]
; CHECK-NEXT: }
define i32 @lop3_n(i32 %a, i32 %b, i32 %c) {
  %r = call i32 asm "lop3.b32 $0, $1, $2, $3, $4;", "=r,r,r,r,n"(i32 %a, i32 %b, i32 %c, i32 128)
  ret i32 %r
}

; CHECK-LABEL: define i32 @shf(i32 %a, i32 %b, i32 %n)
; CHECK-NEXT: [[T1:%.*]] = and i32 %n, 31
; CHECK-NEXT: [[T2:%.*]] = call i32 @llvm.fshl.i32(i32 %b, i32 %a, i32 [[T1]])
; CHECK-NEXT: [[T3:%.*]] = icmp ult i32 %n, 32
; CHECK-NEXT: [[T4:%.*]] = select i1 [[T3]], i32 %n, i32 32
; CHECK-NEXT: [[T5:%.*]] = call i32 @llvm.fshr.i32(i32 %b, i32 %a, i32 [[T4]])
; CHECK-NEXT: [[T6:%.*]] = icmp eq i32 [[T4]], 32
; CHECK-NEXT: [[T7:%.*]] = select i1 [[T6]], i32 %b, i32 [[T5]]
; CHECK-NEXT: [[T8:%.*]] = insertvalue { i32, i32 } poison, i32 [[T2]], 0
; CHECK-NEXT: [[T9:%.*]] = insertvalue { i32, i32 } [[T8]], i32 [[T7]], 1
; CHECK-NEXT: %x = extractvalue { i32, i32 } [[T9]], 0
; CHECK-NEXT: %y = extractvalue { i32, i32 } [[T9]], 1
; CHECK-NEXT: %s = xor i32 %x, %y
; CHECK-NEXT: ret i32 %s
; CHECK-NEXT: }
define i32 @shf(i32 %a, i32 %b, i32 %n) {
  %r = call { i32, i32 } asm "shf.l.wrap.b32 $0, $2, $3, $4;\0A\09shf.r.clamp.b32 $1, $2, $3, $4;", "=r,=r,r,r,r"(i32 %a, i32 %b, i32 %n)
  %x = extractvalue { i32, i32 } %r, 0
  %y = extractvalue { i32, i32 } %r, 1
  %s = xor i32 %x, %y
  ret i32 %s
}

; CHECK-LABEL: define i32 @counts(i32 %a, i64 %b)
; CHECK-NEXT: [[T1:%.*]] = call i32 @llvm.bitreverse.i32(i32 %a)
; CHECK-NEXT: [[T2:%.*]] = call i64 @llvm.ctpop.i64(i64 %b)
; CHECK-NEXT: [[T3:%.*]] = trunc i64 [[T2]] to i32
; CHECK-NEXT: [[T4:%.*]] = call i64 @llvm.ctlz.i64(i64 %b, i1 false)
; CHECK-NEXT: [[T5:%.*]] = trunc i64 [[T4]] to i32
; CHECK-NEXT: [[T6:%.*]] = xor i32 %a, -1
; CHECK-NEXT: [[T7:%.*]] = icmp slt i32 %a, 0
; CHECK-NEXT: [[T8:%.*]] = select i1 [[T7]], i32 [[T6]], i32 %a
; CHECK-NEXT: [[T9:%.*]] = call i32 @llvm.ctlz.i32(i32 [[T8]], i1 false)
; CHECK-NEXT: [[T10:%.*]] = sub i32 31, [[T9]]
; CHECK-NEXT: [[T11:%.*]] = icmp ne i32 [[T8]], 0
; CHECK-NEXT: [[T12:%.*]] = select i1 [[T11]], i32 [[T10]], i32 -1
; CHECK-NEXT: [[T13:%.*]] = insertvalue { i32, i32, i32, i32 } poison, i32 [[T1]], 0
; CHECK-NEXT: [[T14:%.*]] = insertvalue { i32, i32, i32, i32 } [[T13]], i32 [[T3]], 1
; CHECK-NEXT: [[T15:%.*]] = insertvalue { i32, i32, i32, i32 } [[T14]], i32 [[T5]], 2
; CHECK-NEXT: [[T16:%.*]] = insertvalue { i32, i32, i32, i32 } [[T15]], i32 [[T12]], 3
; CHECK-NEXT: %x = extractvalue { i32, i32, i32, i32 } [[T16]], 0
; CHECK-NEXT: %y = extractvalue { i32, i32, i32, i32 } [[T16]], 3
; CHECK-NEXT: %s = xor i32 %x, %y
; CHECK-NEXT: ret i32 %s
; CHECK-NEXT: }
define i32 @counts(i32 %a, i64 %b) {
  %r = call { i32, i32, i32, i32 } asm "brev.b32 $0, $4;\0A\09popc.b64 $1, $5;\0A\09clz.b64 $2, $5;\0A\09bfind.s32 $3, $4;", "=r,=r,=r,=r,r,l"(i32 %a, i64 %b)
  %x = extractvalue { i32, i32, i32, i32 } %r, 0
  %y = extractvalue { i32, i32, i32, i32 } %r, 3
  %s = xor i32 %x, %y
  ret i32 %s
}

; CHECK-LABEL: define i32 @fns(i32 %m, i32 %b, i32 %o)
; CHECK-NEXT: [[T1:%.*]] = call i32 @hetgpu.ptx.fns(i32 %m, i32 %b, i32 %o)
; CHECK-NEXT: ret i32 [[T1]]
; CHECK-NEXT: }
define i32 @fns(i32 %m, i32 %b, i32 %o) {
  %r = call i32 asm "fns.b32 $0, $1, $2, $3;", "=r,r,r,r"(i32 %m, i32 %b, i32 %o)
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
