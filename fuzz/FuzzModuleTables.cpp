//===- FuzzModuleTables.cpp - libFuzzer target: tables against the IR -----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// What the translator does with a container's module before it trusts its
/// tables: the bitcode through parseCheckedBitcode (a child process reads
/// it first, then LLVM's error-returning reader and verifier), hetIR's
/// verifier, then checkTablesMatchIR. The mutator mostly changes one
/// table field or the bitcode and writes the container back with valid
/// checksums (ContainerMutator.h). Tables that are accepted must describe
/// the IR: as many parameters as the kernel function, each of its IR type's
/// size.
///
//===----------------------------------------------------------------------===//

#include "ContainerMutator.h"

#include "hetgpu/IR/ContainerBuilder.h"
#include "hetgpu/IR/Verifier.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace hetgpu;
using namespace llvm;

static void checkModule(const container::ModuleInfo &MI) {
  LLVMContext Ctx;
  auto M = parseCheckedBitcode(MI.IR, "fuzz", Ctx);
  if (!M) {
    consumeError(M.takeError());
    return;
  }
  if (Error E = verifyHetIR(**M)) {
    consumeError(std::move(E));
    return;
  }
  std::string T = container::writeTables(MI);
  if (Error E = checkTablesMatchIR(**M, T.data(), T.size())) {
    consumeError(std::move(E));
    return;
  }
  const DataLayout &DL = (*M)->getDataLayout();
  for (const container::KernelInfo &K : MI.Kernels) {
    Function *F = (*M)->getFunction(K.Name);
    if (!F || F->arg_size() != K.Params.size())
      abort();
    for (const Argument &A : F->args()) {
      Type *Ty = A.getParamByValType() ? A.getParamByValType() : A.getType();
      if (DL.getTypeAllocSize(Ty) != K.Params[A.getArgNo()].Size)
        abort();
    }
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  container::Container C;
  std::string Err;
  if (!container::read(Data, Size, C, Err))
    return 0;
  for (const container::ModuleInfo &MI : C.Modules)
    checkModule(MI);
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *Data, size_t Size,
                                          size_t MaxSize, unsigned Seed) {
  // Structured turns twice as often: raw bytes rarely get past the IR hash.
  return fuzz::mutateContainer(Data, Size, MaxSize, Seed,
                               Seed % 4 ? 2 : Seed % 2, /*KeepIR=*/false);
}
