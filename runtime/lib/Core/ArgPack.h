//===- ArgPack.h - Copies of kernel arguments for async launches -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaLaunchKernel receives `void **args` that point into the caller's
/// frame; an asynchronous launch must copy the bytes before returning.
/// ArgPack packs them into one buffer at the offsets of the container's
/// KernelInfo (CUDA's parameter layout) and keeps an array of pointers into
/// it, so the copy can be handed to a backend as `void **` again.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_CORE_ARGPACK_H
#define HETGPU_RUNTIME_CORE_ARGPACK_H

#include "hetgpu/IR/Container.h"

#include <memory>
#include <vector>

namespace hetgpu {
namespace rt {

class ArgPack {
public:
  ArgPack() = default;
  /// Copies parameter i's Params[i].Size bytes from Args[i].
  ArgPack(const container::KernelInfo &K, void *const *Args);
  ArgPack(const ArgPack &) = delete;
  ArgPack(ArgPack &&) = default;
  ArgPack &operator=(ArgPack &&) = default;

  /// Pointers to the copied parameters (nullptr-free; empty kernels give a
  /// valid, empty array).
  void **args() { return Pointers.data(); }
  /// The packed buffer (ParamBufferSize bytes, each parameter at Offset).
  const char *buffer() const { return Base; }
  size_t size() const { return Size; }

private:
  std::unique_ptr<char[]> Buffer;
  char *Base = nullptr;
  size_t Size = 0;
  std::vector<void *> Pointers;
};

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_CORE_ARGPACK_H
