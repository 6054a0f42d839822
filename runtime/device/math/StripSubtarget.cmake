# StripSubtarget.cmake - remove subtarget-pinning function attributes from a
# textual LLVM module: cmake -DIN=a.ll -DOUT=b.ll -P StripSubtarget.cmake
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# clang records its default CPU and features ("target-cpu"="sm_52",
# "target-features"="+ptx88", ...) on every function. Left in the library,
# they would override the subtarget the lowering target picks and keep the
# functions from inlining into kernels, so the library ships without them.
file(READ ${IN} text)
string(REGEX REPLACE " \"(target-cpu|target-features|tune-cpu)\"=\"[^\"]*\"" "" text "${text}")
file(WRITE ${OUT} "${text}")
