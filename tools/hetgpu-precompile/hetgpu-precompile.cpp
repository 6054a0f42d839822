//===- hetgpu-precompile.cpp - Fill the JIT cache for a program -----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu-precompile APP [LIB...] [--device=SEL]`: translates the device
/// code of hetgpu-cc programs and shared libraries for the devices of this
/// machine (every device libhetgpu-rt finds, or those HETGPU_DEVICE's
/// spelling SEL names: a backend, a list of backends, `all`, an index) and
/// stores the translations in the JIT cache (HETGPU_CACHE_DIR, ...), so the
/// program's first run finds them there and translates nothing. The work is
/// the runtime's own (hetgpuPrecompile): the same cache keys, kernel groups
/// and embedded images. Prints one line per file and device; exit status 1
/// when a file cannot be read or a translation fails.
///
//===----------------------------------------------------------------------===//

#include "cuda_runtime_api.h"
#include "hetgpu/IR/ContainerBuilder.h"
#include "hetgpu/hetgpu.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;
using namespace hetgpu;

static cl::list<std::string> Inputs(cl::Positional, cl::desc("<program>..."),
                                    cl::OneOrMore);
static cl::opt<std::string>
    DeviceSel("device",
              cl::desc("Devices to translate for, as HETGPU_DEVICE spells "
                       "them (cpu, opencl, nvidia,..., a list, all or an "
                       "index); default: every device found"),
              cl::init("all"));

namespace {

int error(const Twine &Msg) {
  WithColor::error(errs(), "hetgpu-precompile") << Msg << "\n";
  return 1;
}

struct DeviceName {
  int Index;
  std::string Text; ///< "0 (cpu, host:native)"
};

/// The devices the runtime found for the selection (set before its init).
std::vector<DeviceName> devices() {
  std::vector<DeviceName> Out;
  for (int I = 0;; ++I) {
    const char *Backend = nullptr, *Target = nullptr, *Arch = nullptr;
    if (hetgpuGetDeviceInfo(I, &Backend, &Target, &Arch) != 0)
      break;
    Out.push_back({I, std::to_string(I) + " (" + Backend + ", " + Target +
                          (Arch && *Arch ? std::string(":") + Arch : "") +
                          ")"});
  }
  return Out;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv,
      "hetGPU precompiler: fills the JIT cache so a first run is warm\n");
  // The runtime reads HETGPU_DEVICE once, at its first call below.
  setenv("HETGPU_DEVICE", DeviceSel.c_str(), 1);
  std::vector<DeviceName> Devs = devices();
  if (Devs.empty())
    return error("no device for --device=" + DeviceSel +
                 " (HETGPU_LOG=info says why)");
  int Status = 0;
  // A copy: an in-process link (the translator's default) resets every
  // cl::opt of the process, Inputs too.
  std::vector<std::string> Files(Inputs.begin(), Inputs.end());
  for (const std::string &In : Files) {
    auto Buf = MemoryBuffer::getFile(In, /*IsText=*/false);
    if (!Buf) {
      Status = error(In + ": " + Buf.getError().message());
      continue;
    }
    auto Cs = loadContainers((*Buf)->getBuffer(), In);
    if (!Cs) {
      Status = error(toString(Cs.takeError()));
      continue;
    }
    for (const DeviceName &D : Devs) {
      unsigned Cached = 0, Images = 0, Translated = 0;
      bool OK = true;
      for (const container::Container &C : *Cs) {
        std::string Bytes = container::write(C);
        unsigned Ca = 0, Im = 0, Tr = 0;
        const char *Why = nullptr;
        if (int E = hetgpuPrecompile(D.Index, Bytes.data(), Bytes.size(), &Ca,
                                     &Im, &Tr, &Why)) {
          Status = error(In + " for device " + D.Text + ": " +
                         (Why ? Why : cudaGetErrorName(cudaError_t(E))));
          OK = false;
          break;
        }
        Cached += Ca;
        Images += Im;
        Translated += Tr;
      }
      if (OK)
        outs() << In << ": device " << D.Text << ": " << Translated
               << " translated, " << Cached << " already cached, " << Images
               << " from embedded images\n";
    }
  }
  outs() << "JIT cache: " << hetgpuGetCacheDir() << "\n";
  return Status;
}
