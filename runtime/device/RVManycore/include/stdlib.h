/*===- stdlib.h - The part of <stdlib.h> the RISC-V device runtime has ---===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * Cores have no C library. The block executor (runtime/device/common) needs
 * an allocator for its thread frames: alloc.c gives it core SRAM after the
 * block's shared memory when the frames fit there, else core-private
 * scratch memory.
 *
\*===----------------------------------------------------------------------===*/

#ifndef HETGPU_RVMC_STDLIB_H
#define HETGPU_RVMC_STDLIB_H

#include <stddef.h>

void *aligned_alloc(size_t Align, size_t Size);
void *malloc(size_t Size);
void free(void *Ptr);
__attribute__((noreturn)) void abort(void);

#endif /* HETGPU_RVMC_STDLIB_H */
