; The PTX for a module using every non-math builtin (plus libdevice-free
; math) assembles with ptxas for sm_75, sm_80 and sm_90, each at the PTX ISA
; version the arch needs by default.
; REQUIRES: ptxas
; RUN: hetgpu-translate --target=nvptx --arch=sm_75 %S/Inputs/all-builtins.ll -o %t75.ptx
; RUN: FileCheck --check-prefix=V75 %s < %t75.ptx
; RUN: %ptxas -arch=sm_75 %t75.ptx -o %t75.cubin
; RUN: hetgpu-translate --target=nvptx --arch=sm_80 %S/Inputs/all-builtins.ll -o %t80.ptx
; RUN: FileCheck --check-prefix=V80 %s < %t80.ptx
; RUN: %ptxas -arch=sm_80 %t80.ptx -o %t80.cubin
; RUN: hetgpu-translate --target=nvptx --arch=sm_90 %S/Inputs/all-builtins.ll -o %t90.ptx
; RUN: FileCheck --check-prefix=V90 %s < %t90.ptx
; RUN: %ptxas -arch=sm_90 %t90.ptx -o %t90.cubin
; A driver-chosen newer ISA (what the NVIDIA backend passes) also assembles.
; RUN: hetgpu-translate --target=nvptx --arch=sm_90 --features=+ptx85 %S/Inputs/all-builtins.ll -o %t90b.ptx
; RUN: FileCheck --check-prefix=V85 %s < %t90b.ptx
; RUN: %ptxas -arch=sm_90 %t90b.ptx -o %t90b.cubin
; The default arch is sm_70.
; RUN: hetgpu-translate --target=nvptx %S/Inputs/all-builtins.ll -o - | FileCheck --check-prefix=V70 %s

; V75: .version 6.3
; V75: .target sm_75
; V80: .version 7.0
; V80: .target sm_80
; V90: .version 7.8
; V90: .target sm_90
; V85: .version 8.5
; V70: .version 6.3
; V70: .target sm_70
