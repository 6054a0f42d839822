// bench/linking/whole.cu - the same sources as one translation unit (the
// baseline: hetGPU's whole-TU build, no device link).
// SPDX-License-Identifier: Apache-2.0
#include "kernel.cu"
#include "main.cu"
#include "reduce.cu"
#include "stage.cu"
