//===- FaultGuard.cpp - Kernel faults on the CPU device become errors -----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The handlers of FaultGuard.h. The thread-local scope uses the
/// initial-exec TLS model, so the handler reads it without calling into the
/// dynamic linker; the handlers are installed with SA_NODEFER (the signal
/// stays unblocked after the longjmp) and SA_ONSTACK.
///
//===----------------------------------------------------------------------===//

#include "Backends/CPU/FaultGuard.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <sys/mman.h>

using namespace hetgpu::rt::cpu;

namespace {

struct Scope {
  jmp_buf *Jmp = nullptr;
  FaultInfo *Info = nullptr;
};

#define HETGPU_TLS __attribute__((tls_model("initial-exec"))) thread_local
HETGPU_TLS Scope Active;
HETGPU_TLS uintptr_t StackLo = 0; ///< lowest byte of this thread's stack

/// This thread's alternate signal stack, released when the thread ends
/// (the threads of cooperative launches come and go).
constexpr size_t AltStackBytes = 64 << 10;
struct AltStack {
  void *Mem = nullptr;
  bool Ready = false;
  ~AltStack() {
    if (!Mem)
      return;
    stack_t Off = {};
    Off.ss_flags = SS_DISABLE;
    sigaltstack(&Off, nullptr);
    munmap(Mem, AltStackBytes);
  }
};
thread_local AltStack Alt;

constexpr int Signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
struct sigaction Previous[sizeof(Signals) / sizeof(Signals[0])];

int slotOf(int Sig) {
  for (unsigned I = 0; I < sizeof(Signals) / sizeof(Signals[0]); ++I)
    if (Signals[I] == Sig)
      return int(I);
  return -1;
}

/// Not a fault of a block: what would have happened without us.
void chain(int Sig, siginfo_t *Info, void *Uctx) {
  int Slot = slotOf(Sig);
  const struct sigaction &P = Previous[Slot < 0 ? 0 : Slot];
  if (P.sa_flags & SA_SIGINFO) {
    if (P.sa_sigaction) {
      P.sa_sigaction(Sig, Info, Uctx);
      return;
    }
  } else if (P.sa_handler != SIG_DFL && P.sa_handler != SIG_IGN) {
    P.sa_handler(Sig);
    return;
  }
  // The default action: restore it; returning re-executes the faulting
  // instruction, which now ends the process as it would have.
  signal(Sig, SIG_DFL);
  if (Info && Info->si_code <= 0) // sent by kill/raise: send it again
    raise(Sig);
}

void handler(int Sig, siginfo_t *Info, void *Uctx) {
  Scope S = Active;
  if (!S.Jmp || !Info || Info->si_code <= 0) {
    chain(Sig, Info, Uctx);
    return;
  }
  Active = Scope();
  FaultInfo &F = *S.Info;
  F.Signal = Sig;
  F.Code = Info->si_code;
  F.Address = reinterpret_cast<uintptr_t>(Info->si_addr);
  // Within the guard region below the stack (or just under it): the stack
  // ran out.
  F.StackOverflow = (Sig == SIGSEGV || Sig == SIGBUS) && StackLo &&
                    F.Address < StackLo + 4096 &&
                    F.Address + WorkerGuardBytes + (1 << 20) >= StackLo;
  longjmp(*S.Jmp, FaultJump);
}

void installHandlers() {
  for (unsigned I = 0; I < sizeof(Signals) / sizeof(Signals[0]); ++I) {
    struct sigaction A;
    memset(&A, 0, sizeof(A));
    A.sa_sigaction = &handler;
    A.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&A.sa_mask);
    sigaction(Signals[I], &A, &Previous[I]);
  }
}

const char *signalName(int Sig) {
  switch (Sig) {
  case SIGSEGV:
    return "SIGSEGV";
  case SIGBUS:
    return "SIGBUS";
  case SIGFPE:
    return "SIGFPE";
  case SIGILL:
    return "SIGILL";
  }
  return "signal";
}

} // namespace

std::string FaultInfo::describe() const {
  char Buf[160];
  if (StackOverflow)
    snprintf(Buf, sizeof(Buf),
             "stack overflow (access at 0x%llx, below the thread's stack; "
             "%s)",
             static_cast<unsigned long long>(Address), signalName(Signal));
  else if (Signal == SIGFPE)
    snprintf(Buf, sizeof(Buf), "arithmetic trap at 0x%llx (SIGFPE)",
             static_cast<unsigned long long>(Address));
  else if (Signal == SIGILL)
    snprintf(Buf, sizeof(Buf), "illegal instruction at 0x%llx (SIGILL)",
             static_cast<unsigned long long>(Address));
  else
    snprintf(Buf, sizeof(Buf), "illegal address 0x%llx (%s)",
             static_cast<unsigned long long>(Address), signalName(Signal));
  return Buf;
}

void hetgpu::rt::cpu::prepareFaultThread() {
  static std::once_flag Once;
  std::call_once(Once, installHandlers);
  if (Alt.Ready)
    return;
  Alt.Ready = true;
  // Keep an alternate stack the host program set up on this thread.
  stack_t Old;
  if (sigaltstack(nullptr, &Old) == 0 && !(Old.ss_flags & SS_DISABLE)) {
  } else {
    void *M = mmap(nullptr, AltStackBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (M != MAP_FAILED) {
      stack_t S = {};
      S.ss_sp = M;
      S.ss_size = AltStackBytes;
      if (sigaltstack(&S, nullptr) == 0)
        Alt.Mem = M;
      else
        munmap(M, AltStackBytes);
    }
  }
  pthread_attr_t A;
  if (pthread_getattr_np(pthread_self(), &A) == 0) {
    void *Addr;
    size_t Size;
    if (pthread_attr_getstack(&A, &Addr, &Size) == 0)
      StackLo = reinterpret_cast<uintptr_t>(Addr);
    pthread_attr_destroy(&A);
  }
}

void hetgpu::rt::cpu::enterFaultScope(jmp_buf *Jmp, FaultInfo *Info) {
  Active.Info = Info;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  Active.Jmp = Jmp;
  std::atomic_signal_fence(std::memory_order_seq_cst);
}

void hetgpu::rt::cpu::leaveFaultScope() {
  Active.Jmp = nullptr;
  std::atomic_signal_fence(std::memory_order_seq_cst);
}

void hetgpu::rt::cpu::setWorkerStack(pthread_attr_t &Attr, size_t Stack) {
  pthread_attr_setstacksize(&Attr, Stack);
  pthread_attr_setguardsize(&Attr, WorkerGuardBytes);
}
