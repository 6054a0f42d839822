// The device function rdc-main.cu calls across files.
__device__ float twice(float x) { return 2.0f * x + 1.0f; }
