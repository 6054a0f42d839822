; The lane loops compute a warp operation with the full mask and constant
; control operands as vector code on the per-warp arrays when all 32 lanes
; stopped at it (HostUniformWarpOps.cpp): the mask of the call is ~0 and
; every returned sync id the same (AND == OR of them), then a switch on it; a ballot is a
; vector compare and a bit cast per piece of 8 lanes, all a compare of the ballot with ~0, a
; shuffle one shufflevector (shfl_down by 3 at width 8: lanes 5-7 of each
; segment keep their own value). Not inlined (negative twins): the xor
; shuffle with a lane mask known only at run time, the any with the partial
; mask 0xffff; they and every other case take __hetgpu_exec_fuse_soa.
; RUN: hetgpu-opt -passes=hetgpu-lower-host,verify -S %s | FileCheck %s
; RUN: env HETGPU_HOST_UNIFORM_WARP_OPS=0 hetgpu-opt -passes=hetgpu-lower-host,verify -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define internal i32 @u.hetgpu.thread.lanes(
; CHECK: {{^}}dispatch:
; CHECK-NEXT: %at = phi i32 [ %[[NEXT:.*]], %fuse.call ], [ 1, %uniform.sync1 ], [ 2, %uniform.sync2 ], [ 3, %uniform.sync3 ]
; CHECK: fuse:
; CHECK-NEXT: %[[FULL:[0-9]+]] = icmp eq i32 %3, -1
; CHECK-NEXT: br i1 %[[FULL]], label %uniform.ids, label %fuse.call
; The lanes' loops carried the OR and the AND of the ids they returned
; (lower-host.ll): all lanes at one id when they are equal, with no load
; of the ids just stored.
; CHECK: uniform.ids:
; CHECK-NEXT: %same = icmp eq i32 %ids.and.out, %ids.or.out
; CHECK-NEXT: br i1 %same, label %uniform.pick, label %fuse.call
; CHECK: uniform.pick:
; CHECK-NEXT: switch i32 %ids.or.out, label %fuse.call [
; CHECK-NEXT: i32 1, label %uniform.sync1
; CHECK-NEXT: i32 2, label %uniform.sync2
; CHECK-NEXT: i32 3, label %uniform.sync3
; CHECK-NEXT: ]
; The ballot: operand 1 of the 32 lanes (warp.args[32..63]), read and
; compared in pieces of 8 lanes as the vectorised loops stored them (a wider
; load of narrower stores is not store-forwarded); every result is stored in
; such pieces too.
; CHECK: uniform.sync1:
; CHECK-NEXT: %[[P1:[0-9]+]] = getelementptr inbounds i32, ptr %warp.args, i64 32
; CHECK-NEXT: %warp.vals = load <8 x i32>, ptr %[[P1]], align 32
; CHECK-NEXT: %[[NZ:[0-9]+]] = icmp ne <8 x i32> %warp.vals, zeroinitializer
; CHECK-NEXT: %[[M8:[0-9]+]] = bitcast <8 x i1> %[[NZ]] to i8
; CHECK-NEXT: %[[M0:[0-9]+]] = zext i8 %[[M8]] to i32
; CHECK-NEXT: %[[P2:[0-9]+]] = getelementptr inbounds i32, ptr %[[P1]], i64 8
; CHECK-NEXT: %warp.vals{{[0-9]+}} = load <8 x i32>, ptr %[[P2]], align 32
; CHECK: %[[SH:[0-9]+]] = shl i32 %{{[0-9]+}}, 8
; CHECK-NEXT: %{{[0-9]+}} = or i32 %[[M0]], %[[SH]]
; CHECK: shl i32 %{{[0-9]+}}, 16
; CHECK: shl i32 %{{[0-9]+}}, 24
; CHECK-NEXT: %warp.ballot = or i32
; CHECK: %[[SPLAT:warp.splat.splat]] = shufflevector <8 x i32>
; CHECK-NEXT: store <8 x i32> %[[SPLAT]], ptr %warp.result, align 32
; CHECK-NEXT: %[[R8:[0-9]+]] = getelementptr inbounds i32, ptr %warp.result, i64 8
; CHECK-NEXT: store <8 x i32> %[[SPLAT]], ptr %[[R8]], align 32
; CHECK: getelementptr inbounds i32, ptr %warp.result, i64 24
; CHECK-NEXT: store <8 x i32> %[[SPLAT]]
; CHECK-NEXT: br label %dispatch
; CHECK: uniform.sync2:
; CHECK: %warp.ballot[[B2:[0-9]+]] = or i32
; CHECK-NEXT: %[[CMP:[0-9]+]] = icmp eq i32 %warp.ballot[[B2]], -1
; CHECK-NEXT: %warp.all = zext i1 %[[CMP]] to i32
; CHECK: store <8 x i32> %{{.*}}, ptr %warp.result, align 32
; CHECK: uniform.sync3:
; CHECK: %warp.vals[[V3:[0-9]+]] = load <32 x i32>
; CHECK-NEXT: %warp.shfl = shufflevector <32 x i32> %warp.vals[[V3]], <32 x i32> poison, <32 x i32> <i32 3, i32 4, i32 5, i32 6, i32 7, i32 5, i32 6, i32 7, i32 11, i32 12, i32 13, i32 14, i32 15, i32 13, i32 14, i32 15, i32 19, i32 20, i32 21, i32 22, i32 23, i32 21, i32 22, i32 23, i32 27, i32 28, i32 29, i32 30, i32 31, i32 29, i32 30, i32 31>
; CHECK-NEXT: %[[S0:[0-9]+]] = shufflevector <32 x i32> %warp.shfl, <32 x i32> poison, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
; CHECK-NEXT: store <8 x i32> %[[S0]], ptr %warp.result, align 32
; CHECK: shufflevector <32 x i32> %warp.shfl, <32 x i32> poison, <8 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31>
; CHECK-NOT: uniform.sync
; CHECK: fuse.call:
; CHECK-NEXT: %[[NEXT]] = call i32 @__hetgpu_exec_fuse_soa(
; OFF-LABEL: define internal i32 @u.hetgpu.thread.lanes(
; OFF-NOT: uniform.
; OFF: %next{{[0-9]*}} = call i32 @__hetgpu_exec_fuse_soa(
; OFF-NOT: uniform.
define void @u(ptr %out, i32 %p, i32 %v, i32 %m) #0 {
  %b = call i32 @__hetgpu_vote_ballot(i32 -1, i32 %p)
  %a = call i32 @__hetgpu_vote_all(i32 -1, i32 %b)
  %d = call i32 @__hetgpu_shfl_down_i32(i32 -1, i32 %v, i32 3, i32 8)
  %x = call i32 @__hetgpu_shfl_xor_i32(i32 -1, i32 %d, i32 %m, i32 32)
  %n = call i32 @__hetgpu_vote_any(i32 65535, i32 %x)
  %s1 = add i32 %b, %a
  %s2 = add i32 %s1, %x
  %s3 = add i32 %s2, %n
  store i32 %s3, ptr %out
  ret void
}

declare i32 @__hetgpu_vote_ballot(i32, i32)
declare i32 @__hetgpu_vote_all(i32, i32)
declare i32 @__hetgpu_vote_any(i32, i32)
declare i32 @__hetgpu_shfl_down_i32(i32, i32, i32, i32)
declare i32 @__hetgpu_shfl_xor_i32(i32, i32, i32, i32)

attributes #0 = { "hetgpu-kernel" }
