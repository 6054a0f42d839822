//===- Fuse.h - hetgpu_fuse's work, behind the translator's gate -*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Private to the translator library: Translate.cpp's hetgpu_fuse takes the
/// translator's lock and calls fuseToContainer.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_LIB_TRANSLATE_FUSE_H
#define HETGPU_LIB_TRANSLATE_FUSE_H

#include "hetgpu/Translate/Translate.h"

#include <string>

namespace hetgpu {

/// The container bytes of the fusion \p Req asks for; on failure empty,
/// with \p Error set.
std::string fuseToContainer(const hetgpu_fuse_request *Req, std::string &Error);

} // namespace hetgpu

#endif // HETGPU_LIB_TRANSLATE_FUSE_H
