//===- TTSimBackend.cpp - tt-sim: RISC-V many-core cores under qemu-user --===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The tt-sim device. Device DRAM is a memfd mapped at RVMC_DRAM_BASE in this
/// process and, by each core's boot code, at the same address in every core
/// process, so device pointers are equal and host-visible everywhere. A
/// module is the rvmc target's static-PIE image: loadModule relocates a copy
/// into DRAM (code, data, `__device__` variables) and writes the original
/// to a file that each core process runs. A launch writes a descriptor
/// (ABI/RVManycore.h) into DRAM and hands it to the
/// module's cores (qemu-riscv64 processes started by the module's first
/// launch and kept, TTSimCores.h), waits for all of them and then reports
/// errors and prints the printf records. Queues are host worker threads.
///
/// The classes are in TTSimDevice.h: DRAM in TTSimDram.cpp, modules in
/// TTSimModule.cpp, launches in TTSimLaunch.cpp, queues and events in
/// TTSimQueue.cpp; this file holds discovery and the device's properties.
///
//===----------------------------------------------------------------------===//
#include "Backends/TTSim/TTSim.h"
#include "Backends/TTSim/TTSimDevice.h"

#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>

namespace hetgpu {
namespace rt {
namespace {

using namespace ttsim;

uint64_t envNumber(const char *Name, uint64_t Default) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return Default;
  char *End = nullptr;
  unsigned long long N = std::strtoull(V, &End, 0);
  return (End && *End == 0) ? N : Default;
}

std::string findInPath(const std::string &Prog) {
  if (Prog.find('/') != std::string::npos)
    return access(Prog.c_str(), X_OK) == 0 ? Prog : "";
  const char *Path = std::getenv("PATH");
  std::string P = Path ? Path : "/usr/bin:/bin";
  size_t Start = 0;
  while (Start <= P.size()) {
    size_t End = P.find(':', Start);
    if (End == std::string::npos)
      End = P.size();
    std::string Dir = P.substr(Start, End - Start);
    if (Dir.empty())
      Dir = ".";
    std::string Full = Dir + "/" + Prog;
    if (access(Full.c_str(), X_OK) == 0)
      return Full;
    Start = End + 1;
  }
  return "";
}

class TTSimBackend : public Backend {
public:
  const char *name() const override { return "tt-sim"; }
  Status discover(std::vector<std::unique_ptr<Device>> &Out) override {
    Config C;
    C.Cores = unsigned(envNumber("HETGPU_TTSIM_CORES", 8));
    if (C.Cores == 0 || C.Cores > RVMC_MAX_CORES)
      return Status(ErrorCode::InvalidValue,
                    "tt-sim: HETGPU_TTSIM_CORES must be 1.." +
                        std::to_string(RVMC_MAX_CORES));
    C.DramBytes = envNumber("HETGPU_TTSIM_DRAM_MB", 4096) << 20;
    if (C.DramBytes == 0 || C.DramBytes > RVMC_DRAM_MAX)
      return Status(ErrorCode::InvalidValue,
                    "tt-sim: HETGPU_TTSIM_DRAM_MB out of range");
    const char *Q = std::getenv("HETGPU_TTSIM_QEMU");
    C.Qemu = findInPath(Q && *Q ? Q : "qemu-riscv64");
    if (C.Qemu.empty())
      return Status(ErrorCode::NotSupported,
                    std::string("tt-sim: ") + (Q && *Q ? Q : "qemu-riscv64") +
                        " not found (install qemu-user or set "
                        "HETGPU_TTSIM_QEMU)");
    const char *Sched = std::getenv("HETGPU_TTSIM_SCHED");
    if (Sched && std::string(Sched) == "static")
      C.Sched = RVMC_SCHED_STATIC;
    else if (Sched && *Sched && std::string(Sched) != "dynamic")
      return Status(ErrorCode::InvalidValue,
                    "tt-sim: HETGPU_TTSIM_SCHED must be static or dynamic");
    C.PrintfBytes = envNumber("HETGPU_TTSIM_PRINTF_KB", 1024) << 10;
    C.HeapBytes = envNumber("HETGPU_TTSIM_HEAP_MB", 8) << 20;
    C.TimeoutS = envNumber("HETGPU_TTSIM_TIMEOUT_S", 600);
    C.KeepImages = std::getenv("HETGPU_TTSIM_KEEP_IMAGES") != nullptr;
    C.Persistent = envNumber("HETGPU_TTSIM_PERSISTENT", 1) != 0;
    // Device DRAM sits at a fixed address: one tt-sim device per process.
    static std::mutex Once;
    std::lock_guard<std::mutex> G(Once);
    static bool Mapped = false;
    if (Mapped)
      return Status(ErrorCode::NotSupported,
                    "tt-sim: the device is already open in this process");
    auto Dev = std::make_unique<TTSimDevice>(C);
    if (Status S = Dev->init())
      return S;
    Mapped = true;
    Out.push_back(std::move(Dev));
    return Status::ok();
  }
};

} // namespace

std::unique_ptr<Backend> createTTSimBackend() {
  return std::make_unique<TTSimBackend>();
}

} // namespace rt
} // namespace hetgpu

using namespace hetgpu::rt;
using namespace hetgpu::rt::ttsim;

Status TTSimDevice::init() {
  Mem.configure(Cfg.DramBytes);
  Props.Name = "tt-sim RISC-V many-core (" + std::to_string(Cfg.Cores) +
               " rv64imafd cores, qemu-riscv64)";
  Props.Vendor = "hetGPU";
  Props.Kind = BackendKind::TTSim;
  Props.Target = "rvmc";
  Props.Arch = "rv64imafd";
  Props.TotalMemory = Cfg.DramBytes;
  Props.MultiProcessorCount = Cfg.Cores;
  Props.MaxThreadsPerBlock = 1024;
  Props.SharedMemPerBlock = 48 * 1024;
  Props.SharedMemPerBlockOptin = RVMC_SRAM_SIZE;
  Props.SharedMemPerMultiprocessor = RVMC_SRAM_SIZE;
  Props.MaxThreadsPerMultiProcessor = 1024;
  Props.MaxBlocksPerMultiProcessor = 1;
  // Cores are emulated by qemu: report a clock that reflects the real
  // speed, so programs choosing the "fastest" GPU (max SMs x clock, as
  // helper_cuda.h does) do not pick the simulator over the host CPU.
  Props.ClockRateKHz = 50000;
  Props.L2CacheSize = 0;
  Props.Integrated = false;
  Props.ConcurrentKernels = true;
  Props.ManagedMemory = true;
  return Status::ok();
}
