//===- Printers.cpp - Print kernel and state metadata ----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Human-readable forms of KernelInfo shared by the printer passes and
/// hetgpu-objdump.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/IR/Printers.h"
#include "hetgpu/IR/Metadata.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace hetgpu::container;

namespace hetgpu {

void printKernelInfo(raw_ostream &OS, const KernelInfo &K) {
  OS << "kernel " << K.Name << "\n";
  if (!K.Demangled.empty() && K.Demangled != K.Name)
    OS << "  name: " << K.Demangled << "\n";
  OS << "  params: " << K.Params.size() << " (" << K.ParamBufferSize
     << " bytes)\n";
  for (size_t I = 0; I < K.Params.size(); ++I) {
    const ParamInfo &P = K.Params[I];
    OS << "    [" << I << "] " << paramKindName(P.Kind) << " size " << P.Size
       << " align " << P.Align << " offset " << P.Offset << "\n";
  }
  OS << "  shared.static: " << K.StaticShared << " bytes\n";
  OS << "  features:";
  if (!K.Features)
    OS << " none";
  for (unsigned B = 0; B < NumFeatures; ++B)
    if (K.Features & (1u << B))
      OS << " " << featureName(B);
  OS << "\n";
  if (K.MaxThreads || K.MinBlocks)
    OS << "  launch.bounds: max " << K.MaxThreads << " threads, min "
       << K.MinBlocks << " blocks\n";
  for (const LaunchRule &LR : K.LaunchRules)
    OS << "  launch.rule: threads per block " << launchRuleKindName(LR.K) << " "
       << LR.Value << ": " << LR.Why << "\n";
}

void printStateInfo(raw_ostream &OS, const KernelInfo &K) {
  OS << "state " << K.Name << ": " << K.SafePoints.size()
     << " safe points, record " << K.StateRecordSize << " bytes\n";
  for (const SafePointInfo &SP : K.SafePoints) {
    OS << "  safepoint " << SP.Id << " " << safePointKindName(SP.Kind) << ": "
       << SP.Slots.size() << " slots, " << SP.RecordSize << " bytes\n";
    for (size_t I = 0; I < SP.Slots.size(); ++I) {
      const SlotInfo &S = SP.Slots[I];
      OS << "    slot " << I << ": " << slotKindName(S.Kind) << " " << S.Type
         << " @" << S.Offset << " size " << S.Size << " align " << S.Align
         << "\n";
    }
  }
}

template <typename Fn> static void forEachKernel(Module &M, raw_ostream &OS, Fn F) {
  auto Infos = readKernelInfo(M);
  if (!Infos) {
    WithColor::error(OS) << toString(Infos.takeError()) << "\n";
    return;
  }
  for (auto &[Func, K] : *Infos)
    F(K);
}

PreservedAnalyses KernelPrinterPass::run(Module &M, ModuleAnalysisManager &) {
  forEachKernel(M, OS, [&](const KernelInfo &K) { printKernelInfo(OS, K); });
  return PreservedAnalyses::all();
}

PreservedAnalyses StatePrinterPass::run(Module &M, ModuleAnalysisManager &) {
  forEachKernel(M, OS, [&](const KernelInfo &K) { printStateInfo(OS, K); });
  return PreservedAnalyses::all();
}

} // namespace hetgpu
