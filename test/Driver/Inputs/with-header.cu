#include "dep-header.h"
__global__ void twice(int *x) { x[threadIdx.x] *= DEP_HEADER_SCALE; }
