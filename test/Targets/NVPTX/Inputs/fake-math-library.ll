; A stand-in for hetGPU's device math library for nvptx64: it defines the
; builtins themselves, with internal helpers that share the prefix (as the
; real library's __hetgpu_mathi_* do).
target triple = "nvptx64-nvidia-cuda"

define float @__hetgpu_math_sinf(float %x) {
  %y = call float @__hetgpu_mathi_sub3(float %x)
  ret float %y
}
define internal float @__hetgpu_mathi_sub3(float %x) {
  %y = fsub float %x, 3.0
  ret float %y
}
define double @__hetgpu_math_cos(double %x) {
  ret double %x
}
