//===- TTSimCores.cpp - The core processes of tt-sim ----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Starting, driving and ending qemu-riscv64 core processes. Cores are
/// forked by one long-lived thread, because PR_SET_PDEATHSIG (a core dies
/// with the host, also when it crashes) fires when the *thread* that forked
/// the core ends: a core started by a stream's worker must outlive that
/// stream.
///
//===----------------------------------------------------------------------===//

#include "TTSimCores.h"

#include "hetgpu/ABI/RVManycore.h"
#include "Core/Log.h"

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <functional>
#include <future>
#include <mutex>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace hetgpu {
namespace rt {
namespace ttsim {
namespace {

using Clock = std::chrono::steady_clock;

std::string hex(uint64_t V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "0x%llx", (unsigned long long)V);
  return Buf;
}

/// The thread that forks every core (see the file comment). It is never
/// joined: it ends with the process, and the cores with it.
class Spawner {
public:
  static Spawner &get() {
    static Spawner *S = new Spawner();
    return *S;
  }
  pid_t run(std::function<pid_t()> Fn) {
    std::packaged_task<pid_t()> Task(std::move(Fn));
    std::future<pid_t> F = Task.get_future();
    {
      std::lock_guard<std::mutex> G(M);
      Work.push_back(std::move(Task));
    }
    CV.notify_one();
    return F.get();
  }

private:
  Spawner() {
    std::thread([this] {
      for (;;) {
        std::packaged_task<pid_t()> Task;
        {
          std::unique_lock<std::mutex> L(M);
          CV.wait(L, [&] { return !Work.empty(); });
          Task = std::move(Work.front());
          Work.pop_front();
        }
        Task();
      }
    }).detach();
  }
  std::mutex M;
  std::condition_variable CV;
  std::deque<std::packaged_task<pid_t()>> Work;
};

/// \p Fd moved to a descriptor >= 10 with close-on-exec (off 2..5, which a
/// core's dup2 calls overwrite), or -1.
int highFd(int Fd) {
  if (Fd < 0)
    return -1;
  int H = fcntl(Fd, F_DUPFD_CLOEXEC, 10);
  close(Fd);
  return H;
}

/// Sends the next launch to a core: its descriptor address and the DRAM
/// size it needs mapped (ABI/RVManycore.h).
bool sendLaunch(int Fd, uint64_t Desc, uint64_t DramSize) {
  uint64_t Words[2] = {Desc, DramSize};
  const char *P = reinterpret_cast<const char *>(Words);
  size_t Done = 0;
  while (Done < sizeof(Words)) {
    ssize_t W = send(Fd, P + Done, sizeof(Words) - Done, MSG_NOSIGNAL);
    if (W < 0 && errno == EINTR)
      continue;
    if (W <= 0)
      return false;
    Done += size_t(W);
  }
  return true;
}

} // namespace

CoreGroup::CoreGroup(std::string Qemu, int DramFd, int ImageFd,
                     std::string Purpose)
    : Qemu(std::move(Qemu)), DramFd(DramFd), ImageFd(ImageFd),
      Purpose(std::move(Purpose)) {
  char Path[] = "/tmp/hetgpu-ttsim-log-XXXXXX";
  LogFd = highFd(mkostemp(Path, O_CLOEXEC));
  unlink(Path);
}

CoreGroup::~CoreGroup() {
  // Idle cores exit when their socket closes; one still running a kernel
  // (a launch that timed out was already killed) is killed.
  for (Core &C : Cores)
    if (C.Ctl >= 0) {
      close(C.Ctl);
      C.Ctl = -1;
    }
  for (Core &C : Cores)
    if (C.Pid > 0) {
      auto Until = Clock::now() + std::chrono::seconds(2);
      int St;
      while (waitpid(C.Pid, &St, WNOHANG) == 0) {
        if (Clock::now() > Until) {
          kill(C.Pid, SIGKILL);
          waitpid(C.Pid, &St, 0);
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      C.Pid = -1;
    }
  if (LogFd >= 0)
    close(LogFd);
}

int CoreGroup::reap(Core &C, bool Kill) {
  int St = -1;
  if (C.Ctl >= 0)
    close(C.Ctl);
  C.Ctl = -1;
  if (C.Pid > 0) {
    if (Kill)
      kill(C.Pid, SIGKILL);
    while (waitpid(C.Pid, &St, 0) < 0 && errno == EINTR)
      ;
  }
  C.Pid = -1;
  return St;
}

Status CoreGroup::spawn(unsigned Index, uint64_t Desc, uint64_t DramSize) {
  int Pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Pair) != 0)
    return Status(ErrorCode::DriverFailure,
                  "tt-sim: cannot create a core control socket: " +
                      std::string(std::strerror(errno)));
  int HostEnd = highFd(Pair[0]), CoreEnd = highFd(Pair[1]);
  if (HostEnd < 0 || CoreEnd < 0) {
    if (HostEnd >= 0)
      close(HostEnd);
    if (CoreEnd >= 0)
      close(CoreEnd);
    return Status(ErrorCode::DriverFailure,
                  "tt-sim: cannot create a core control socket");
  }
  std::string DescS = hex(Desc), CoreS = std::to_string(Index),
              SizeS = hex(DramSize);
  const char *Argv[] = {Qemu.c_str(), "/dev/fd/4", DescS.c_str(),
                        CoreS.c_str(), SizeS.c_str(), nullptr};
  int Dram = DramFd, Image = ImageFd, Log = LogFd;
  pid_t Pid = Spawner::get().run([&]() -> pid_t {
    pid_t P = fork();
    if (P == 0) {
      // Child: only async-signal-safe calls from here on.
      struct rlimit NoCore = {0, 0};
      setrlimit(RLIMIT_CORE, &NoCore);
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (dup2(Dram, RVMC_DRAM_FD) < 0 || dup2(Image, RVMC_IMAGE_FD) < 0 ||
          dup2(CoreEnd, RVMC_CTRL_FD) < 0)
        _exit(126);
      if (Log >= 0)
        dup2(Log, 2);
      execv(Argv[0], const_cast<char *const *>(Argv));
      _exit(127);
    }
    return P;
  });
  int Err = errno;
  close(CoreEnd);
  if (Pid < 0) {
    close(HostEnd);
    return Status(ErrorCode::DriverFailure, "tt-sim: cannot start core " +
                                                CoreS + ": " +
                                                std::strerror(Err));
  }
  Cores[Index].Pid = Pid;
  Cores[Index].Ctl = HostEnd;
  ++Started;
  if (logEnabled(LogLevel::Info))
    log(LogLevel::Info, "tt-sim: started core " + CoreS + " (pid " +
                            std::to_string(Pid) + ") for " + Purpose);
  return Status::ok();
}

Status CoreGroup::run(uint64_t Desc, uint64_t DramSize, unsigned N,
                      uint64_t TimeoutS, std::vector<int> &Ended,
                      std::string &Log) {
  if (Cores.size() < N)
    Cores.resize(N);
  struct stat LogSt;
  off_t LogStart = (LogFd >= 0 && fstat(LogFd, &LogSt) == 0) ? LogSt.st_size
                                                              : 0;
  Ended.assign(N, 0);
  std::vector<bool> Running(N, false);
  Status Result;
  for (unsigned I = 0; I < N; ++I) {
    Core &C = Cores[I];
    // A running core takes the descriptor; one that ended since (or whose
    // socket is gone) is replaced by a new one booting with it.
    if (C.Pid > 0 && sendLaunch(C.Ctl, Desc, DramSize)) {
      Running[I] = true;
      continue;
    }
    if (C.Pid > 0)
      reap(C, /*Kill=*/true);
    Result = spawn(I, Desc, DramSize);
    if (Result)
      break;
    Running[I] = true;
  }

  // Wait for a word (done) or the end (the core exited) on every socket.
  auto Deadline = Clock::now() + std::chrono::seconds(TimeoutS);
  unsigned Left = 0;
  for (unsigned I = 0; I < N; ++I)
    Left += Running[I];
  std::vector<pollfd> Fds;
  std::vector<unsigned> Which;
  while (Left) {
    Fds.clear();
    Which.clear();
    for (unsigned I = 0; I < N; ++I)
      if (Running[I]) {
        Fds.push_back({Cores[I].Ctl, POLLIN, 0});
        Which.push_back(I);
      }
    int WaitMs = 1000;
    if (TimeoutS) {
      auto Rest = std::chrono::duration_cast<std::chrono::milliseconds>(
                      Deadline - Clock::now())
                      .count();
      WaitMs = int(std::max<long long>(0, std::min<long long>(Rest, 1000)));
    }
    int R = poll(Fds.data(), Fds.size(), WaitMs);
    if (R < 0 && errno != EINTR) {
      Result = Status(ErrorCode::DriverFailure,
                      std::string("tt-sim: poll failed: ") +
                          std::strerror(errno));
      break;
    }
    for (size_t F = 0; R > 0 && F < Fds.size(); ++F) {
      if (!Fds[F].revents)
        continue;
      unsigned I = Which[F];
      uint64_t Word = 0;
      ssize_t Got = recv(Cores[I].Ctl, &Word, 8, MSG_WAITALL);
      if (Got < 0 && errno == EINTR)
        continue;
      if (Got != 8) // the core ended: an abort, a crash or a boot failure
        Ended[I] = reap(Cores[I], /*Kill=*/false);
      Running[I] = false;
      --Left;
    }
    if (Left && TimeoutS && Clock::now() >= Deadline) {
      for (unsigned I = 0; I < N; ++I)
        if (Running[I]) {
          Ended[I] = reap(Cores[I], /*Kill=*/true);
          Running[I] = false;
        }
      Left = 0;
      Result = Status(ErrorCode::LaunchFailure,
                      "tt-sim: launch timed out after " +
                          std::to_string(TimeoutS) +
                          " s (HETGPU_TTSIM_TIMEOUT_S)");
    }
  }

  if (LogFd >= 0 && fstat(LogFd, &LogSt) == 0 && LogSt.st_size > LogStart) {
    char Buf[4096];
    for (off_t At = LogStart; At < LogSt.st_size && Log.size() < 16384;) {
      ssize_t R = pread(LogFd, Buf, sizeof(Buf), At);
      if (R <= 0)
        break;
      Log.append(Buf, size_t(R));
      At += R;
    }
  }
  return Result;
}

} // namespace ttsim
} // namespace rt
} // namespace hetgpu
