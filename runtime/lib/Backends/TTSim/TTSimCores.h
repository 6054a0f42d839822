//===- TTSimCores.h - The core processes of tt-sim --------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A group of tt-sim cores: qemu-riscv64 processes running one module image,
/// each with a control socket to the host (runtime/device/RVManycore/
/// ABI/RVManycore.h). Cores are started on a module's first launch with that
/// launch's descriptor and then stay: every later launch only writes its
/// descriptor address to their sockets and reads one word back from each, so
/// a launch costs microseconds of host work instead of starting a qemu
/// process per core. A group is also used once and discarded, for a launch
/// that finds the module's cores busy with another stream's launch (launches
/// of different streams may run concurrently, as on a GPU) and with
/// HETGPU_TTSIM_PERSISTENT=0.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_TTSIM_TTSIMCORES_H
#define HETGPU_RUNTIME_BACKENDS_TTSIM_TTSIMCORES_H

#include "Core/Device.h"

#include <string>
#include <sys/types.h>
#include <vector>

namespace hetgpu {
namespace rt {
namespace ttsim {

class CoreGroup {
public:
  /// Cores run \p Qemu on the image in \p ImageFd with the DRAM file
  /// \p DramFd; neither descriptor is owned. \p Purpose names the group in
  /// the HETGPU_LOG=info line of each core started.
  CoreGroup(std::string Qemu, int DramFd, int ImageFd,
            std::string Purpose = "the module");
  /// Ends every core: closes the control sockets and reaps the processes.
  ~CoreGroup();
  CoreGroup(const CoreGroup &) = delete;
  CoreGroup &operator=(const CoreGroup &) = delete;

  /// Runs the launch whose descriptor is at DRAM address \p Desc on cores
  /// 0..N-1: starts the cores that are not running (they boot mapping
  /// \p DramSize bytes of DRAM and run \p Desc first) and sends \p Desc to
  /// the others, then waits until every one reported the launch done or
  /// ended, for at most \p TimeoutS seconds (0: no limit; then the cores are
  /// killed and a timeout is returned). \p Ended gets, per core, 0 when it
  /// reported or the wait status of a core that ended (it is restarted by
  /// the next launch); \p Log what the cores wrote to stderr meanwhile.
  Status run(uint64_t Desc, uint64_t DramSize, unsigned N, uint64_t TimeoutS,
             std::vector<int> &Ended, std::string &Log);

  /// Cores started since the group was made (restarts included).
  unsigned started() const { return Started; }

private:
  struct Core {
    pid_t Pid = -1;
    int Ctl = -1; ///< host end of the control socket
  };
  Status spawn(unsigned Index, uint64_t Desc, uint64_t DramSize);
  /// Waits for a core that ended (or kills it first) and forgets it.
  int reap(Core &C, bool Kill);

  std::string Qemu;
  int DramFd, ImageFd;
  std::string Purpose;
  int LogFd = -1; ///< the cores' stderr (an unlinked temporary file)
  std::vector<Core> Cores;
  unsigned Started = 0;
};

} // namespace ttsim
} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_BACKENDS_TTSIM_TTSIMCORES_H
