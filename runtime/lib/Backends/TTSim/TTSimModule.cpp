//===- TTSimModule.cpp - rvmc images loaded on tt-sim ---------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Loads an rvmc image: the ELF is placed in device DRAM, its kernels'
/// block functions, shared memory and executor frames read from it, and
/// the module's persistent cores started.
///
//===----------------------------------------------------------------------===//
#include "Backends/TTSim/TTSimDevice.h"
#include "Core/UnifiedMemory.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::ttsim;

Status TTSimDevice::loadModule(const std::vector<char> &Binary,
                               const container::ModuleInfo &Info,
                               std::unique_ptr<Module> &Out) {
  auto Mod = std::make_unique<TTSimModule>(Mem);
  Mod->Bytes = Binary;
  std::string Err = Mod->Image.parse(Mod->Bytes);
  if (!Err.empty())
    return Status(ErrorCode::NoBinaryForGpu,
                  "tt-sim: cannot load the module image: " + Err);
  uint64_t Base = 0;
  if (Status S = Mem.allocate(Mod->Image.span(), Base, 4096))
    return S;
  Mod->Base = Base;
  Err = Mod->Image.loadAt(reinterpret_cast<char *>(Base), Base);
  if (!Err.empty())
    return Status(ErrorCode::NoBinaryForGpu, "tt-sim: " + Err);

  for (const container::KernelInfo &KI : Info.Kernels) {
    const ttsim::ElfSymbol *S = Mod->Image.symbol("__hetgpu_block_" + KI.Name);
    if (!S || !S->IsFunction)
      return Status(ErrorCode::NoBinaryForGpu,
                    "tt-sim: the module image has no block function for "
                    "kernel '" +
                        KI.Name + "'");
    auto ReadU64 = [&](const std::string &Name, uint64_t Absent) -> uint64_t {
      uint64_t V = Absent;
      if (const ttsim::ElfSymbol *Sh = Mod->Image.symbol(Name))
        if (Sh->Size == 8 && Sh->Value + 8 <= Mod->Image.span())
          std::memcpy(&V, reinterpret_cast<void *>(Base + Sh->Value), 8);
      return V;
    };
    Mod->Kernels.push_back(std::make_unique<TTSimKernel>(
        KI, Base + S->Value, ReadU64("__hetgpu_rvmc_shared_" + KI.Name, 0),
        ReadU64("__hetgpu_rvmc_frame_" + KI.Name, NoExecutor)));
  }

  // The private copy each core process boots from: a memfd (nothing left
  // on disk when the process exits without unloading), which each core sees
  // as /dev/fd/4. HETGPU_TTSIM_KEEP_IMAGES also writes it to $TMPDIR.
  int Raw = memfd_create("hetgpu-ttsim-image", MFD_CLOEXEC);
  // Off fds 3 and 4, which the cores' dup2 calls overwrite.
  int Fd = Raw < 0 ? -1 : fcntl(Raw, F_DUPFD_CLOEXEC, 10);
  if (Raw >= 0)
    close(Raw);
  if (Fd < 0)
    return Status(ErrorCode::DriverFailure,
                  "tt-sim: cannot create the core image file: " +
                      std::string(std::strerror(errno)));
  Mod->ImageFd = Fd;
  size_t Done = 0;
  while (Done < Binary.size()) {
    ssize_t W = ::write(Fd, Binary.data() + Done, Binary.size() - Done);
    if (W <= 0)
      return Status(ErrorCode::DriverFailure,
                    "tt-sim: cannot write the core image file");
    Done += size_t(W);
  }
  if (Cfg.KeepImages) {
    const char *Tmp = std::getenv("TMPDIR");
    std::string Path =
        std::string(Tmp && *Tmp ? Tmp : "/tmp") + "/hetgpu-ttsim-XXXXXX";
    std::vector<char> PathBuf(Path.begin(), Path.end());
    PathBuf.push_back(0);
    int KeepFd = mkstemp(PathBuf.data());
    if (KeepFd >= 0) {
      if (::write(KeepFd, Binary.data(), Binary.size()) ==
          ssize_t(Binary.size()))
        std::fprintf(stderr, "tt-sim: module image kept in %s\n",
                     PathBuf.data());
      close(KeepFd);
    }
  }
  Mod->Pool = std::make_unique<CorePool>(Cfg.Qemu, Mem.fd(), Mod->ImageFd);
  for (auto &K : Mod->Kernels) {
    K->ImageBase = Mod->Base;
    K->ImageFd = Mod->ImageFd;
    K->Tls = Mod->Image.tls();
    K->Pool = Mod->Pool.get();
  }
  Out = std::move(Mod);
  return Status::ok();
}

TTSimModule::~TTSimModule() {
  Pool.reset(); // the cores end before their image goes
  if (Base)
    D.release(Base);
  if (ImageFd >= 0)
    close(ImageFd);
}

Status TTSimModule::getKernel(const std::string &Name, Kernel *&Out) {
  for (auto &K : Kernels)
    if (K->Info.Name == Name) {
      Out = K.get();
      return Status::ok();
    }
  return Status(ErrorCode::InvalidValue,
                "tt-sim: no kernel '" + Name + "' in the module");
}

Status TTSimModule::getGlobal(const std::string &Name, void *&Addr,
                              size_t &Size) {
  const ttsim::ElfSymbol *S = Image.symbol(Name);
  if (!S || S->IsFunction)
    return Status(ErrorCode::InvalidSymbol,
                  "tt-sim: no device variable '" + Name + "' in the module");
  Addr = reinterpret_cast<void *>(Base + S->Value);
  Size = S->Size;
  return Status::ok();
}
