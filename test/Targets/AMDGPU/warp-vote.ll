; Votes, ballots, activemask, match_any and syncwarp on 32-lane warps. On
; wave64 the warp's 32 bits are the 64-bit ballot shifted right by the
; thread's half (wave lane & 32); on wave32 the ballot is 32 bits. Lanes
; outside the member mask contribute 0 (PTX); `all` holds when no member
; lane has a false predicate.
; RUN: hetgpu-opt -passes='hetgpu-lower-amdgpu<gfx942>' -S %s | FileCheck --check-prefixes=CHECK,W64 %s
; RUN: hetgpu-opt -passes='hetgpu-lower-amdgpu<gfx1100>' -S %s | FileCheck --check-prefixes=CHECK,W32 %s
; RUN: hetgpu-opt -passes='hetgpu-lower-amdgpu<gfx1100;wavefrontsize64>' -S %s | FileCheck --check-prefixes=CHECK,W64 %s
; RUN: hetgpu-translate --target=amdgpu --arch=gfx90a %s -o %t64.hsaco
; RUN: llvm-objdump -d --mcpu=gfx90a %t64.hsaco | FileCheck --check-prefix=ISA64 %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define protected amdgpu_kernel void @ballot(
; CHECK: [[P:%.*]] = icmp ne i32 %t, 0
; W64: [[B:%.*]] = call i64 @llvm.amdgcn.ballot.i64(i1 [[P]])
; W64: [[WL:%.*]] = call i32 @llvm.amdgcn.mbcnt.hi(
; W64: [[HALF:%.*]] = and i32 [[WL]], 32
; W64: [[SH:%.*]] = zext i32 [[HALF]] to i64
; W64: [[S:%.*]] = lshr i64 [[B]], [[SH]]
; W64: [[W:%.*]] = trunc i64 [[S]] to i32
; W32: [[W:%.*]] = call i32 @llvm.amdgcn.ballot.i32(i1 [[P]])
; CHECK: %b = and i32 [[W]], %mask
; CHECK: store i32 %b
; ISA64-LABEL: <ballot>:
; ISA64: v_cmp_ne_u32_e32 vcc, 0,
; ISA64: v_mbcnt_hi_u32_b32
; ISA64: v_lshrrev_b64
define void @ballot(ptr %p, i32 %mask) #0 {
  %t = call i32 @__hetgpu_tid_x()
  %b = call i32 @__hetgpu_vote_ballot(i32 %mask, i32 %t)
  store i32 %b, ptr %p
  ret void
}

; CHECK-LABEL: define protected amdgpu_kernel void @any_all(
; any: (ballot(p) & mask) != 0
; W64: call i64 @llvm.amdgcn.ballot.i64(i1
; W32: call i32 @llvm.amdgcn.ballot.i32(i1
; CHECK: [[A:%.*]] = and i32 {{%.*}}, %mask
; CHECK: [[NZ:%.*]] = icmp ne i32 [[A]], 0
; CHECK: %any = zext i1 [[NZ]] to i32
; all: (ballot(p == 0) & mask) == 0
; CHECK: [[F:%.*]] = icmp eq i32 %t, 0
; W64: call i64 @llvm.amdgcn.ballot.i64(i1 [[F]])
; W32: call i32 @llvm.amdgcn.ballot.i32(i1 [[F]])
; CHECK: [[FM:%.*]] = and i32 {{%.*}}, %mask
; CHECK: [[NONE:%.*]] = icmp eq i32 [[FM]], 0
; CHECK: %all = zext i1 [[NONE]] to i32
define void @any_all(ptr %p, i32 %mask) #0 {
  %t = call i32 @__hetgpu_tid_x()
  %any = call i32 @__hetgpu_vote_any(i32 %mask, i32 %t)
  %all = call i32 @__hetgpu_vote_all(i32 %mask, i32 %t)
  %s = add i32 %any, %all
  store i32 %s, ptr %p
  ret void
}

; activemask: the warp's bits of ballot(true).
; CHECK-LABEL: define protected amdgpu_kernel void @active(
; W64: call i64 @llvm.amdgcn.ballot.i64(i1 true)
; W64: lshr i64
; W32: %am = call i32 @llvm.amdgcn.ballot.i32(i1 true)
; ISA64-LABEL: <active>:
; ISA64: exec
define void @active(ptr %p) #0 {
  %t = call i32 @__hetgpu_tid_x()
  %c = icmp ult i32 %t, 40
  br i1 %c, label %then, label %done
then:
  %am = call i32 @__hetgpu_activemask()
  store i32 %am, ptr %p
  br label %done
done:
  ret void
}

; match_any: a loop; the first remaining lane broadcasts its value
; (readfirstlane), matching lanes take their warp's ballot and leave.
; CHECK-LABEL: define protected amdgpu_kernel void @match(
; CHECK: br label %match.loop
; CHECK: match.loop:
; CHECK: [[L:%.*]] = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %v)
; CHECK: [[EQ:%.*]] = icmp eq i32 %v, [[L]]
; W64: call i64 @llvm.amdgcn.ballot.i64(i1 [[EQ]])
; W32: [[BW:%.*]] = call i32 @llvm.amdgcn.ballot.i32(i1 [[EQ]])
; CHECK: br i1 [[EQ]], label %match.done, label %match.loop
; CHECK: match.done:
; CHECK: %match.ballot = phi i32
; CHECK: %m = and i32 %match.ballot, -1
; syncwarp: wave-scope fences around a wave barrier.
; CHECK: fence syncscope("wavefront") release
; CHECK-NEXT: call void @llvm.amdgcn.wave.barrier()
; CHECK-NEXT: fence syncscope("wavefront") acquire
; ISA64-LABEL: <match>:
; ISA64: v_readfirstlane_b32
; ISA64: s_cbranch_execnz
define void @match(ptr %p) #0 {
  %t = call i32 @__hetgpu_tid_x()
  %v = and i32 %t, 3
  %m = call i32 @__hetgpu_match_any_i32(i32 -1, i32 %v)
  call void @__hetgpu_syncwarp(i32 -1)
  store i32 %m, ptr %p
  ret void
}

; CHECK-NOT: __hetgpu_

declare i32 @__hetgpu_tid_x()
declare i32 @__hetgpu_vote_ballot(i32, i32)
declare i32 @__hetgpu_vote_any(i32, i32)
declare i32 @__hetgpu_vote_all(i32, i32)
declare i32 @__hetgpu_activemask()
declare i32 @__hetgpu_match_any_i32(i32, i32)
declare void @__hetgpu_syncwarp(i32)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
