; atom/red: atomicrmw (relaxed unless a semantics is given), cas is
; cmpxchg, inc/dec wrap at the operand through a cmpxchg loop.
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-verify -disable-output %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-lower-inline-ptx -S %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define i32 @atom_add(ptr %p, i32 %v)
; CHECK-NEXT: [[T1:%.*]] = addrspacecast ptr %p to ptr addrspace(1)
; CHECK-NEXT: [[T2:%.*]] = atomicrmw add ptr addrspace(1) [[T1]], i32 %v monotonic, align 4
; CHECK-NEXT: ret i32 [[T2]]
; CHECK-NEXT: }
define i32 @atom_add(ptr %p, i32 %v) {
  %r = call i32 asm sideeffect "atom.global.add.u32 $0, [$1], $2;", "=r,l,r"(ptr %p, i32 %v)
  ret i32 %r
}

; CHECK-LABEL: define float @atom_add_f32(ptr %p, float %v)
; CHECK-NEXT: [[T1:%.*]] = atomicrmw fadd ptr %p, float %v monotonic, align 4
; CHECK-NEXT: ret float [[T1]]
; CHECK-NEXT: }
define float @atom_add_f32(ptr %p, float %v) {
  %r = call float asm sideeffect "atom.add.f32 $0, [$1], $2;", "=f,l,f"(ptr %p, float %v)
  ret float %r
}

; CHECK-LABEL: define i64 @atom_minmax(ptr %p, i64 %v)
; CHECK-NEXT: [[T1:%.*]] = addrspacecast ptr %p to ptr addrspace(1)
; CHECK-NEXT: [[T2:%.*]] = atomicrmw min ptr addrspace(1) [[T1]], i64 %v monotonic, align 8
; CHECK-NEXT: [[T3:%.*]] = addrspacecast ptr %p to ptr addrspace(1)
; CHECK-NEXT: [[T4:%.*]] = atomicrmw umax ptr addrspace(1) [[T3]], i64 %v acq_rel, align 8
; CHECK-NEXT: [[T5:%.*]] = insertvalue { i64, i64 } poison, i64 [[T2]], 0
; CHECK-NEXT: [[T6:%.*]] = insertvalue { i64, i64 } [[T5]], i64 [[T4]], 1
; CHECK-NEXT: %a = extractvalue { i64, i64 } [[T6]], 1
; CHECK-NEXT: ret i64 %a
; CHECK-NEXT: }
define i64 @atom_minmax(ptr %p, i64 %v) {
  %r = call { i64, i64 } asm sideeffect "atom.global.min.s64 $0, [$2], $3;\0A\09atom.acq_rel.gpu.global.max.u64 $1, [$2], $3;", "=l,=l,l,l"(ptr %p, i64 %v)
  %a = extractvalue { i64, i64 } %r, 1
  ret i64 %a
}

; CHECK-LABEL: define i32 @atom_bitwise_exch(ptr %p, i32 %v)
; CHECK-NEXT: [[T1:%.*]] = atomicrmw and ptr %p, i32 %v monotonic, align 4
; CHECK-NEXT: [[T2:%.*]] = atomicrmw or ptr %p, i32 %v monotonic, align 4
; CHECK-NEXT: [[T3:%.*]] = atomicrmw xor ptr %p, i32 %v monotonic, align 4
; CHECK-NEXT: [[T4:%.*]] = atomicrmw xchg ptr %p, i32 %v monotonic, align 4
; CHECK-NEXT: [[T5:%.*]] = insertvalue { i32, i32, i32, i32 } poison, i32 [[T1]], 0
; CHECK-NEXT: [[T6:%.*]] = insertvalue { i32, i32, i32, i32 } [[T5]], i32 [[T2]], 1
; CHECK-NEXT: [[T7:%.*]] = insertvalue { i32, i32, i32, i32 } [[T6]], i32 [[T3]], 2
; CHECK-NEXT: [[T8:%.*]] = insertvalue { i32, i32, i32, i32 } [[T7]], i32 [[T4]], 3
; CHECK-NEXT: %a = extractvalue { i32, i32, i32, i32 } [[T8]], 3
; CHECK-NEXT: ret i32 %a
; CHECK-NEXT: }
define i32 @atom_bitwise_exch(ptr %p, i32 %v) {
  %r = call { i32, i32, i32, i32 } asm sideeffect "atom.and.b32 $0, [$4], $5;\0A\09atom.or.b32 $1, [$4], $5;\0A\09atom.xor.b32 $2, [$4], $5;\0A\09atom.exch.b32 $3, [$4], $5;", "=r,=r,=r,=r,l,r"(ptr %p, i32 %v)
  %a = extractvalue { i32, i32, i32, i32 } %r, 3
  ret i32 %a
}

; CHECK-LABEL: define i32 @atom_cas(ptr %p, i32 %c, i32 %v)
; CHECK-NEXT: [[T1:%.*]] = addrspacecast ptr %p to ptr addrspace(1)
; CHECK-NEXT: [[T2:%.*]] = cmpxchg ptr addrspace(1) [[T1]], i32 %c, i32 %v monotonic monotonic, align 4
; CHECK-NEXT: [[T3:%.*]] = extractvalue { i32, i1 } [[T2]], 0
; CHECK-NEXT: ret i32 [[T3]]
; CHECK-NEXT: }
define i32 @atom_cas(ptr %p, i32 %c, i32 %v) {
  %r = call i32 asm sideeffect "atom.global.cas.b32 $0, [$1], $2, $3;", "=r,l,r,r"(ptr %p, i32 %c, i32 %v)
  ret i32 %r
}

; CHECK-LABEL: define i32 @atom_inc(ptr %p, i32 %lim)
; CHECK-NEXT: [[T1:%.*]] = addrspacecast ptr %p to ptr addrspace(1)
; CHECK-NEXT: [[T2:%.*]] = load atomic i32, ptr addrspace(1) [[T1]] monotonic, align 4
; CHECK-NEXT: br label %ptx.cas
; CHECK: ptx.cas:
; CHECK-NEXT: %ptx.old = phi i32 [ [[T2]], %0 ], [ [[T7:%.*]], %ptx.cas ]
; CHECK-NEXT: [[T3:%.*]] = add i32 %ptx.old, 1
; CHECK-NEXT: [[T4:%.*]] = icmp uge i32 %ptx.old, %lim
; CHECK-NEXT: [[T5:%.*]] = select i1 [[T4]], i32 0, i32 [[T3]]
; CHECK-NEXT: [[T6:%.*]] = cmpxchg ptr addrspace(1) [[T1]], i32 %ptx.old, i32 [[T5]] monotonic monotonic, align 4
; CHECK-NEXT: [[T7:%.*]] = extractvalue { i32, i1 } [[T6]], 0
; CHECK-NEXT: [[T8:%.*]] = extractvalue { i32, i1 } [[T6]], 1
; CHECK-NEXT: br i1 [[T8]], label %.split, label %ptx.cas
; CHECK: .split:
; CHECK-NEXT: ret i32 [[T7]]
; CHECK-NEXT: }
define i32 @atom_inc(ptr %p, i32 %lim) {
  %r = call i32 asm sideeffect "atom.global.inc.u32 $0, [$1], $2;", "=r,l,r"(ptr %p, i32 %lim)
  ret i32 %r
}

; CHECK-LABEL: define void @red_dec(ptr %p)
; CHECK-NEXT: [[T1:%.*]] = addrspacecast ptr %p to ptr addrspace(3)
; CHECK-NEXT: [[T2:%.*]] = load atomic i32, ptr addrspace(3) [[T1]] monotonic, align 4
; CHECK-NEXT: br label %ptx.cas
; CHECK: ptx.cas:
; CHECK-NEXT: %ptx.old = phi i32 [ [[T2]], %0 ], [ [[T9:%.*]], %ptx.cas ]
; CHECK-NEXT: [[T3:%.*]] = icmp ugt i32 %ptx.old, 9
; CHECK-NEXT: [[T4:%.*]] = icmp eq i32 %ptx.old, 0
; CHECK-NEXT: [[T5:%.*]] = or i1 [[T4]], [[T3]]
; CHECK-NEXT: [[T6:%.*]] = sub i32 %ptx.old, 1
; CHECK-NEXT: [[T7:%.*]] = select i1 [[T5]], i32 9, i32 [[T6]]
; CHECK-NEXT: [[T8:%.*]] = cmpxchg ptr addrspace(3) [[T1]], i32 %ptx.old, i32 [[T7]] monotonic monotonic, align 4
; CHECK-NEXT: [[T9:%.*]] = extractvalue { i32, i1 } [[T8]], 0
; CHECK-NEXT: [[T10:%.*]] = extractvalue { i32, i1 } [[T8]], 1
; CHECK-NEXT: br i1 [[T10]], label %.split, label %ptx.cas
; CHECK: .split:
; CHECK-NEXT: ret void
; CHECK-NEXT: }
define void @red_dec(ptr %p) {
  call void asm sideeffect "red.shared.dec.u32 [$0], 9;", "l"(ptr %p)
  ret void
}

; CHECK-LABEL: define void @red_add(ptr %p, i32 %v)
; CHECK-NEXT: [[T1:%.*]] = addrspacecast ptr %p to ptr addrspace(1)
; CHECK-NEXT: [[T2:%.*]] = atomicrmw add ptr addrspace(1) [[T1]], i32 %v release, align 4
; CHECK-NEXT: ret void
; CHECK-NEXT: }
define void @red_add(ptr %p, i32 %v) {
  call void asm sideeffect "red.release.gpu.global.add.u32 [$0], $1;", "l,r"(ptr %p, i32 %v)
  ret void
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
