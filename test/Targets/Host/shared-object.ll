; emit() produces an x86-64 shared object exporting exactly the block
; functions, the ABI version and the device variables; the math functions
; come from hetGPU's device math library inside the object, not from libm.
; RUN: hetgpu-host-run --block=4 --save-so=%t.so %s add buf:f32:4:iota f32=1.5 | FileCheck --check-prefix=OUT %s
; RUN: llvm-readobj --file-headers %t.so | FileCheck --check-prefix=ELF %s
; RUN: llvm-nm -D --defined-only %t.so | FileCheck --check-prefix=SYMS %s
; RUN: llvm-nm -D --undefined-only %t.so | FileCheck --allow-empty --check-prefix=UNDEF %s
; OUT: arg0: 2.49749 3.09847 3.14922 3.52247
; ELF: Type: SharedObject
; ELF: Machine: EM_X86_64
; SYMS-DAG: T __hetgpu_block_add
; SYMS-DAG: R __hetgpu_host_abi_version
; SYMS-DAG: D dev_var
; SYMS-NOT: hetgpu.thread
; SYMS-NOT: helper
; UNDEF-NOT: sinf
; UNDEF-NOT: __hetgpu_math

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@dev_var = addrspace(1) global i32 7, align 4

define internal float @helper(float %x) noinline {
  %s = call float @__hetgpu_math_sinf(float %x)
  ret float %s
}

define void @add(ptr %a, float %b) #0 {
  %t = call i32 @__hetgpu_tid_x()
  %t64 = zext i32 %t to i64
  %p = getelementptr float, ptr %a, i64 %t64
  %v = load float, ptr %p
  %s = fadd float %v, %b
  %h = call float @helper(float %s)
  %r = fadd float %s, %h
  store float %r, ptr %p
  %d = load volatile i32, ptr addrspace(1) @dev_var
  ret void
}

declare i32 @__hetgpu_tid_x()
declare float @__hetgpu_math_sinf(float)

attributes #0 = { "hetgpu-kernel" }
