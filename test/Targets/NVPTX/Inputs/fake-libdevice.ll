; A stand-in for libdevice.10.bc (which tests may not ship): same triple
; and naming convention, trivially wrong bodies that tests can recognise.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-gpulibs"

define float @__nv_sinf(float %x) #0 {
  %r = call i32 @__nvvm_reflect(ptr @ftz)
  %y = fadd float %x, 1.0
  ret float %y
}
define double @__nv_pow(double %x, double %y) #0 {
  %r = fmul double %x, %y
  ret double %r
}
define float @__nv_unused(float %x) #0 {
  ret float %x
}
@ftz = private constant [11 x i8] c"__CUDA_FTZ\00"
declare i32 @__nvvm_reflect(ptr)
attributes #0 = { alwaysinline nounwind }
