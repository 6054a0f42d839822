//===- ImageTargets.h - Names of ahead-of-time image targets ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The targets `hetgpu-cc --offload-arch=` accepts for ahead-of-time images
/// (container 2.1, docs/Container.md) and what each means twice: how the
/// compiler translates the image (lowering target, processor, features) and
/// which devices the runtime may run it on. Both sides use this file, so an
/// image is made and chosen by one rule.
///
///   host     the CPU device of a CPU with x86-64-v3 (AVX2, FMA, ...:
///            Haswell, Zen and later); translated for that level, not for
///            the running CPU as the runtime's own translations are. Not
///            the x86-64 baseline: without FMA, CUDA's contracted a*b+c
///            rounds differently and results would differ from the JIT's
///   sm_NN    an NVIDIA device of exactly that compute capability (sm_NNa /
///            sm_NNf too); PTX at the lowest ISA version for that processor,
///            which every driver that knows the processor accepts
///   gfxNNNN  an AMD device of exactly that processor
///   spirv[1.N][+feature...]
///            an OpenCL / Level Zero device that the runtime translates for
///            SPIR-V 1.N (default 1.2) with exactly the features
///            "+defer-unsupported" and those named (subgroups32,
///            fence-as-atomic, flat-atomics, warp-loop, warp-loop-all), in
///            any order: `spirv` alone fits no PoCL device, PoCL's CPU
///            device here is `spirv+fence-as-atomic+flat-atomics+warp-loop`
///            (hetgpu-info and HETGPU_LOG=info show a device's features)
///
/// Plain C++, no LLVM (the runtime links it).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_IR_IMAGETARGETS_H
#define HETGPU_IR_IMAGETARGETS_H

#include <string>

namespace hetgpu {
namespace container {

/// How the image for one --offload-arch name is translated
/// (hetgpu_translate_request's target, arch and features).
struct ImageTranslation {
  std::string Target;
  std::string Arch;
  std::string Features;
};

/// The translation of the image named \p Name, or false with \p Why naming
/// it and listing the accepted names.
bool imageTranslation(const std::string &Name, ImageTranslation &Out,
                      std::string &Why);

/// Whether an image named \p Name runs on a device whose properties are
/// (\p Target, \p Arch, \p Features); otherwise \p Why says why not
/// ("built for sm_90, the device is host:native").
bool imageFitsDevice(const std::string &Name, const std::string &Target,
                     const std::string &Arch, const std::string &Features,
                     std::string &Why);

/// Whether this process's CPU runs "host" images (x86-64-v3).
bool cpuRunsHostImages();

} // namespace container
} // namespace hetgpu

#endif // HETGPU_IR_IMAGETARGETS_H
