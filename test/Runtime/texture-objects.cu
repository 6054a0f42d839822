// Texture objects over linear memory: tex1Dfetch in the element type and as
// normalised floats, zero outside the resource, the descriptor queries, and
// CUDA's errors for what is refused (a null array or mipmapped array, bad
// channel formats, a bad or destroyed object). Arrays and pitch 2D: see
// texture-arrays.cu; mipmapped arrays: texture-mipmaps.cu.
// REQUIRES: built-target-host
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// CHECK: element: 0 1.5 3 4.5 | 0
// CHECK: normalized: 0 0.502 1 | 0
// CHECK: int4: 4 5 6 7
// CHECK: desc: linear 8 bits, normalized read
// CHECK: array: 400 mipmap: 400
// CHECK: channel: 20
// CHECK: destroy twice: 0 1
// CHECK: ALL PASS

#include <cstdio>

__global__ void fetch(cudaTextureObject_t F, cudaTextureObject_t U,
                      cudaTextureObject_t V, float *Out, int4 *Out4) {
  int I = threadIdx.x;
  Out[I] = tex1Dfetch<float>(F, I);          // I == 4: past the end -> 0
  Out[8 + I] = tex1Dfetch<float>(U, I - 1);  // I == 0: index -1 -> 0
  if (I == 0)
    tex1Dfetch(Out4, V, 1);
}

static cudaTextureObject_t linear(void *Dev, size_t Bytes,
                                  cudaChannelFormatDesc Fmt,
                                  cudaTextureReadMode Mode) {
  cudaResourceDesc R = {};
  R.resType = cudaResourceTypeLinear;
  R.res.linear.devPtr = Dev;
  R.res.linear.desc = Fmt;
  R.res.linear.sizeInBytes = Bytes;
  cudaTextureDesc T = {};
  T.readMode = Mode;
  cudaTextureObject_t Obj = 0;
  if (cudaCreateTextureObject(&Obj, &R, &T, nullptr) != cudaSuccess)
    std::printf("create failed\n");
  return Obj;
}

int main() {
  float HF[4] = {0, 1.5f, 3, 4.5f};
  unsigned char HU[3] = {0, 255 / 2 + 1, 255};
  int HV[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  float *DF, *Out;
  unsigned char *DU;
  int *DV;
  int4 *Out4;
  cudaMalloc(&DF, sizeof HF);
  cudaMalloc(&DU, sizeof HU);
  cudaMalloc(&DV, sizeof HV);
  cudaMalloc(&Out, 16 * sizeof(float));
  cudaMalloc(&Out4, sizeof(int4));
  cudaMemcpy(DF, HF, sizeof HF, cudaMemcpyHostToDevice);
  cudaMemcpy(DU, HU, sizeof HU, cudaMemcpyHostToDevice);
  cudaMemcpy(DV, HV, sizeof HV, cudaMemcpyHostToDevice);
  cudaTextureObject_t F = linear(DF, sizeof HF, cudaCreateChannelDesc<float>(),
                                 cudaReadModeElementType);
  cudaTextureObject_t U = linear(DU, sizeof HU, cudaCreateChannelDesc<unsigned char>(),
                                 cudaReadModeNormalizedFloat);
  cudaTextureObject_t V = linear(DV, sizeof HV, cudaCreateChannelDesc<int4>(),
                                 cudaReadModeElementType);
  fetch<<<1, 5>>>(F, U, V, Out, Out4);
  float R[16];
  int4 R4;
  cudaMemcpy(R, Out, sizeof R, cudaMemcpyDeviceToHost);
  cudaMemcpy(&R4, Out4, sizeof R4, cudaMemcpyDeviceToHost);
  std::printf("element: %g %g %g %g | %g\n", R[0], R[1], R[2], R[3], R[4]);
  std::printf("normalized: %g %.3g %g | %g\n", R[9], R[10], R[11], R[8]);
  std::printf("int4: %d %d %d %d\n", R4.x, R4.y, R4.z, R4.w);

  cudaResourceDesc RD;
  cudaTextureDesc TD;
  bool Desc = cudaGetTextureObjectResourceDesc(&RD, U) == cudaSuccess &&
              cudaGetTextureObjectTextureDesc(&TD, U) == cudaSuccess;
  std::printf("desc: %s %d bits, %s read\n",
              Desc && RD.resType == cudaResourceTypeLinear ? "linear" : "?",
              RD.res.linear.desc.x,
              TD.readMode == cudaReadModeNormalizedFloat ? "normalized" : "element");

  cudaResourceDesc Arr = {};
  Arr.resType = cudaResourceTypeArray;
  cudaTextureDesc T = {};
  cudaTextureObject_t Bad = 0;
  int NullArray = cudaCreateTextureObject(&Bad, &Arr, &T, nullptr);
  Arr.resType = cudaResourceTypeMipmappedArray;
  std::printf("array: %d mipmap: %d\n", NullArray,
              (int)cudaCreateTextureObject(&Bad, &Arr, &T, nullptr));
  cudaResourceDesc Odd = {};
  Odd.resType = cudaResourceTypeLinear;
  Odd.res.linear.devPtr = DF;
  Odd.res.linear.sizeInBytes = sizeof HF;
  Odd.res.linear.desc = cudaCreateChannelDesc(12, 0, 0, 0, cudaChannelFormatKindFloat);
  std::printf("channel: %d\n", (int)cudaCreateTextureObject(&Bad, &Odd, &T, nullptr));
  cudaGetLastError();
  int D1 = cudaDestroyTextureObject(F), D2 = cudaDestroyTextureObject(F);
  cudaGetLastError();
  std::printf("destroy twice: %d %d\n", D1, D2);
  cudaDestroyTextureObject(U);
  cudaDestroyTextureObject(V);
  bool Ok = R[0] == 0 && R[1] == 1.5f && R[3] == 4.5f && R[4] == 0 && R[8] == 0 &&
            R[9] == 0 && R[11] == 1 && R4.x == 4 && R4.w == 7 && D1 == 0 && D2 == 1;
  std::printf(Ok ? "ALL PASS\n" : "FAILED\n");
  return !Ok;
}
