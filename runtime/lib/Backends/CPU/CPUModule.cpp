//===- CPUModule.cpp - Host translations loaded as shared objects ---------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Loads a translation of the host lowering target: the shared object is
/// written to a memfd and dlopen'ed from there, its ABI version checked,
/// its variables made writable; kernels are its `__hetgpu_block_<K>`
/// functions.
///
//===----------------------------------------------------------------------===//

#include "Backends/CPU/CPUDevice.h"
#include "Core/Log.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <dlfcn.h>
#include <fcntl.h>
#include <fstream>
#include <sys/mman.h>
#include <unistd.h>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::cpu;

namespace {

/// `__constant__` data may be placed in a read-only segment of the host
/// translation, but cudaMemcpyToSymbol writes it: make the pages of every
/// variable of the module writable (never touching executable mappings).
void makeGlobalsWritable(void *Handle, const container::ModuleInfo &Info) {
  struct Range {
    uintptr_t Lo, Hi;
    bool Writable, Exec;
  };
  std::vector<Range> Maps;
  std::ifstream In("/proc/self/maps");
  std::string Line;
  while (std::getline(In, Line)) {
    unsigned long Lo, Hi;
    char Perms[8] = {};
    if (sscanf(Line.c_str(), "%lx-%lx %7s", &Lo, &Hi, Perms) == 3)
      Maps.push_back({Lo, Hi, Perms[1] == 'w', Perms[2] == 'x'});
  }
  long Page = sysconf(_SC_PAGESIZE);
  for (const container::GlobalInfo &G : Info.Globals) {
    auto Addr = reinterpret_cast<uintptr_t>(dlsym(Handle, G.Name.c_str()));
    if (!Addr || !G.Size)
      continue;
    uintptr_t Lo = Addr & ~uintptr_t(Page - 1);
    uintptr_t Hi = (Addr + G.Size + Page - 1) & ~uintptr_t(Page - 1);
    bool NeedsWrite = false, Exec = false;
    for (const Range &R : Maps)
      if (R.Lo < Hi && Lo < R.Hi) {
        NeedsWrite |= !R.Writable;
        Exec |= R.Exec;
      }
    if (!NeedsWrite)
      continue;
    if (Exec || mprotect(reinterpret_cast<void *>(Lo), Hi - Lo,
                         PROT_READ | PROT_WRITE) != 0)
      log(LogLevel::Warn, "variable " + G.Name +
                              " of a host translation is read-only: "
                              "cudaMemcpyToSymbol to it will fault");
  }
}

/// HETGPU_PROFILE_DIR=DIR: the module is loaded from a file of its own
/// in DIR, kept after the process ends, so that profilers (perf report,
/// which cannot read a memfd's code back) name its functions. Otherwise
/// from a memfd.
int openModuleFile(std::string &Path) {
  static std::atomic<unsigned> Seq{0};
  const char *Dir = getenv("HETGPU_PROFILE_DIR");
  if (!Dir || !*Dir)
    return memfd_create("hetgpu-host-module", MFD_CLOEXEC);
  Path = std::string(Dir) + "/hetgpu-host-" + std::to_string(getpid()) + "-" +
         std::to_string(Seq++) + ".so";
  int FD = open(Path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (FD < 0)
    log(LogLevel::Warn, "HETGPU_PROFILE_DIR: cannot create " + Path + ": " +
                            strerror(errno) + "; loading from memory");
  return FD >= 0 ? FD : memfd_create("hetgpu-host-module", MFD_CLOEXEC);
}

} // namespace

Status CPUDevice::loadModule(const std::vector<char> &Binary,
                             const container::ModuleInfo &Info,
                             std::unique_ptr<Module> &Out) {
  std::string File;
  int FD = openModuleFile(File);
  if (FD < 0)
    return Status(ErrorCode::DriverFailure,
                  std::string("memfd_create failed: ") + strerror(errno));
  size_t Done = 0;
  while (Done < Binary.size()) {
    ssize_t W = write(FD, Binary.data() + Done, Binary.size() - Done);
    if (W <= 0) {
      close(FD);
      return Status(ErrorCode::DriverFailure,
                    "cannot write the translated module to memory");
    }
    Done += static_cast<size_t>(W);
  }
  std::string Path = "/proc/self/fd/" + std::to_string(FD);
  if (!File.empty()) // (perf knows a mapping by the path it was opened by)
    Path = File;
  // The descriptor stays open while the module is loaded: glibc knows
  // loaded objects by path, and a reused descriptor number would make the
  // next module's path equal to this one's. RTLD_DEEPBIND: the module's
  // own `__device__` variables win over equally named host symbols.
  void *H = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
  if (!H) {
    close(FD);
    const char *E = dlerror();
    return Status(ErrorCode::NoBinaryForGpu,
                  std::string("cannot load the host translation: ") +
                      (E ? E : "dlopen failed"));
  }
  auto *V =
      static_cast<const uint32_t *>(dlsym(H, "__hetgpu_host_abi_version"));
  if (!V || *V != HETGPU_HOST_ABI_VERSION) {
    dlclose(H);
    close(FD);
    return Status(ErrorCode::NoBinaryForGpu,
                  V ? "host translation has ABI version " + std::to_string(*V) +
                          ", expected " +
                          std::to_string(HETGPU_HOST_ABI_VERSION)
                    : std::string("host translation does not export "
                                  "__hetgpu_host_abi_version"));
  }
  makeGlobalsWritable(H, Info);
  Out = std::make_unique<CPUModule>(H, FD, Info);
  return Status::ok();
}

Status CPUModule::getKernel(const std::string &Name, Kernel *&Out) {
  std::lock_guard<std::mutex> Lock(M);
  auto It = Loaded.find(Name);
  if (It != Loaded.end()) {
    Out = It->second.get();
    return Status::ok();
  }
  const container::KernelInfo *Info = nullptr;
  for (const container::KernelInfo &K : Kernels)
    if (K.Name == Name)
      Info = &K;
  if (!Info)
    return Status(ErrorCode::InvalidValue,
                  "kernel " + Name + " is not in the module");
  std::string Sym = "__hetgpu_block_" + Name;
  void *F = dlsym(Handle, Sym.c_str());
  if (!F)
    return Status(ErrorCode::InvalidValue,
                  "the translated module does not export " + Sym);
  auto K =
      std::make_unique<CPUKernel>(*Info, reinterpret_cast<hetgpu_block_fn>(F));
  Out = K.get();
  Loaded[Name] = std::move(K);
  return Status::ok();
}

Status CPUModule::getGlobal(const std::string &Name, void *&Addr,
                            size_t &Size) {
  Addr = dlsym(Handle, Name.c_str());
  if (!Addr)
    return Status(ErrorCode::InvalidSymbol,
                  "the translated module does not export variable " + Name);
  Size = 0;
  for (const container::GlobalInfo &G : Globals)
    if (G.Name == Name)
      Size = G.Size;
  return Status::ok();
}

CPUModule::~CPUModule() {
  if (Handle)
    dlclose(Handle);
  if (FD >= 0)
    close(FD);
}
