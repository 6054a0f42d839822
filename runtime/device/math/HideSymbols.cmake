# HideSymbols.cmake - give every external function of a textual LLVM module
# hidden visibility: cmake -DIN=a.ll -DOUT=b.ll -P HideSymbols.cmake
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# The host math object (CMakeLists.txt) is linked into kernel modules' shared
# objects; hidden, its functions are neither exported nor preemptible there.
file(READ ${IN} text)
string(REGEX REPLACE "\ndefine dso_local " "\ndefine hidden " text "${text}")
file(WRITE ${OUT} "${text}")
