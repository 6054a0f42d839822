//===- FaultGuard.h - Kernel faults on the CPU device: errors -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A wild load or store, a stack overflow or a hardware trap inside a block
/// run by the CPU device ends that launch with CUDA's sticky error instead
/// of the process: SIGSEGV, SIGBUS, SIGFPE and SIGILL handlers (installed
/// once, process-wide) leave the block through longjmp when the faulting
/// thread is running a block (a FaultScope is active on it), and chain to
/// the handler installed before them otherwise, so that crashes of the host
/// program stay crashes. Threads that run blocks get an alternate signal
/// stack (a stack overflow leaves no stack to run the handler on) and a
/// 64 KiB guard region below their stack. docs/Runtime.md lists what cannot
/// be caught.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_CPU_FAULTGUARD_H
#define HETGPU_RUNTIME_BACKENDS_CPU_FAULTGUARD_H

#include <csetjmp>
#include <cstddef>
#include <cstdint>
#include <pthread.h>
#include <string>

namespace hetgpu {
namespace rt {
namespace cpu {

/// The value setjmp returns when a fault left the block.
constexpr int FaultJump = 2;

/// Guard bytes below the stack of every thread that runs blocks.
constexpr size_t WorkerGuardBytes = 64 << 10;

/// What a fault inside a block was.
struct FaultInfo {
  int Signal = 0;
  int Code = 0; ///< si_code
  uintptr_t Address = 0;
  bool StackOverflow = false;

  /// "illegal address 0x… (SIGSEGV)", "stack overflow …", …
  std::string describe() const;
};

/// Installs the handlers (once) and prepares the calling thread: its
/// alternate signal stack and its stack bounds. Call before entering a
/// scope, outside any signal handler.
void prepareFaultThread();

/// While a scope is active on a thread, a fault on that thread fills
/// \p Info and longjmps to \p Jmp with FaultJump.
void enterFaultScope(jmp_buf *Jmp, FaultInfo *Info);
void leaveFaultScope();

/// Sets \p Stack bytes of stack and the guard region on \p Attr.
void setWorkerStack(pthread_attr_t &Attr, size_t Stack);

} // namespace cpu
} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_BACKENDS_CPU_FAULTGUARD_H
