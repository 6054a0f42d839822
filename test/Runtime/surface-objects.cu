// Surface objects over CUDA arrays: surf2Dwrite/surf2Dread with byte x
// coordinates, cudaBoundaryModeZero and cudaBoundaryModeClamp, surf1D,
// surf3D and surf2DLayered, a texture reading what a surface wrote, and
// CUDA's errors (an array without cudaArraySurfaceLoadStore, a linear
// resource, a destroyed object).
// REQUIRES: built-target-host
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// RUN: %if pocl %{ env HETGPU_DEVICE=opencl %t | FileCheck %s %}
// CHECK: surf2Dwrite: ok
// CHECK: surf2Dread zero/clamp: 0 0 53 50 3 53
// CHECK: tex2D of written: 21 53
// CHECK: surf1D: 3 2 1 0 0
// CHECK: surf3D: ok
// CHECK: surf2DLayered: ok
// CHECK: errors: 1 1 0 1
// CHECK: ALL PASS

#include <cstdio>
#include <cstring>
#include <initializer_list>

__global__ void write2D(cudaSurfaceObject_t S, int W, int H) {
  int X = threadIdx.x, Y = threadIdx.y;
  if (X < W && Y < H)
    surf2Dwrite(float(X * 10 + Y), S, X * (int)sizeof(float), Y);
}

__global__ void read2D(cudaSurfaceObject_t S, cudaTextureObject_t T,
                       float *Out) {
  Out[0] = surf2Dread<float>(S, -4, 0, cudaBoundaryModeZero);
  Out[1] = surf2Dread<float>(S, 4 * 6, 3, cudaBoundaryModeZero);
  Out[2] = surf2Dread<float>(S, 4 * 9, 3, cudaBoundaryModeClamp);
  surf2Dread(&Out[3], S, 4 * 5, 0);
  Out[4] = surf2Dread<float>(S, -8, 3, cudaBoundaryModeClamp);
  Out[5] = surf2Dread<float>(S, 4 * 5, 7, cudaBoundaryModeClamp);
  Out[6] = tex2D<float>(T, 2.5f, 1.5f);
  Out[7] = tex2D<float>(T, 5.5f, 3.5f);
}

__global__ void surf1D(cudaSurfaceObject_t S, int *Out) {
  int X = threadIdx.x;
  surf1Dwrite(3 - X, S, X * 4);
  __syncthreads();
  Out[X] = surf1Dread<int>(S, X * 4, cudaBoundaryModeZero);
  surf1Dwrite(99, S, 16, cudaBoundaryModeZero); // dropped
}

__global__ void surf3D(cudaSurfaceObject_t S, cudaSurfaceObject_t L) {
  int X = threadIdx.x, Y = threadIdx.y, Z = threadIdx.z;
  surf3Dwrite(make_uchar4(X, Y, Z, X + Y + Z), S, X * 4, Y, Z);
  surf2DLayeredwrite(short(100 * Z + 10 * Y + X), L, X * 2, Y, Z);
}

static cudaSurfaceObject_t surface(cudaArray_t A) {
  cudaResourceDesc R;
  std::memset(&R, 0, sizeof R);
  R.resType = cudaResourceTypeArray;
  R.res.array.array = A;
  cudaSurfaceObject_t S = 0;
  if (cudaCreateSurfaceObject(&S, &R) != cudaSuccess)
    std::printf("cudaCreateSurfaceObject failed\n");
  return S;
}

int main() {
  bool Pass = true;
  const int W = 6, H = 4;
  cudaChannelFormatDesc F = cudaCreateChannelDesc<float>();
  cudaArray_t A;
  cudaMallocArray(&A, &F, W, H, cudaArraySurfaceLoadStore);
  cudaSurfaceObject_t S = surface(A);
  write2D<<<1, dim3(W, H)>>>(S, W, H);
  float Back[H][W];
  cudaMemcpy2DFromArray(Back, sizeof Back[0], A, 0, 0, W * sizeof(float), H,
                        cudaMemcpyDeviceToHost);
  bool Ok = true;
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X)
      Ok &= Back[Y][X] == X * 10 + Y;
  std::printf("surf2Dwrite: %s\n", Ok ? "ok" : "FAILED");
  Pass &= Ok;
  cudaResourceDesc R;
  std::memset(&R, 0, sizeof R);
  R.resType = cudaResourceTypeArray;
  R.res.array.array = A;
  cudaTextureDesc TD;
  std::memset(&TD, 0, sizeof TD);
  cudaTextureObject_t T;
  cudaCreateTextureObject(&T, &R, &TD, nullptr);
  float *Out;
  cudaMalloc(&Out, 8 * sizeof(float));
  read2D<<<1, 1>>>(S, T, Out);
  float O[8];
  cudaMemcpy(O, Out, sizeof O, cudaMemcpyDeviceToHost);
  std::printf("surf2Dread zero/clamp: %g %g %g %g %g %g\n", O[0], O[1], O[2],
              O[3], O[4], O[5]);
  std::printf("tex2D of written: %g %g\n", O[6], O[7]);
  Pass &= O[2] == 53 && O[3] == 50 && O[4] == 3 && O[5] == 53 && O[6] == 21;

  cudaChannelFormatDesc I = cudaCreateChannelDesc<int>();
  cudaArray_t A1;
  cudaMallocArray(&A1, &I, 4, 0, cudaArraySurfaceLoadStore);
  cudaSurfaceObject_t S1 = surface(A1);
  int *DI, HI[4];
  cudaMalloc(&DI, sizeof HI);
  surf1D<<<1, 4>>>(S1, DI);
  cudaMemcpy(HI, DI, sizeof HI, cudaMemcpyDeviceToHost);
  int Tail = -1;
  cudaMemcpyFromArray(&Tail, A1, 12, 0, sizeof Tail, cudaMemcpyDeviceToHost);
  std::printf("surf1D: %d %d %d %d %d\n", HI[0], HI[1], HI[2], HI[3], Tail);
  Pass &= HI[0] == 3 && HI[3] == 0 && Tail == 0;

  cudaChannelFormatDesc U4 = cudaCreateChannelDesc<uchar4>();
  cudaChannelFormatDesc S16 = cudaCreateChannelDesc<short>();
  cudaArray_t A3, AL;
  cudaMalloc3DArray(&A3, &U4, make_cudaExtent(3, 2, 2), cudaArraySurfaceLoadStore);
  cudaMalloc3DArray(&AL, &S16, make_cudaExtent(3, 2, 2),
                    cudaArrayLayered | cudaArraySurfaceLoadStore);
  cudaSurfaceObject_t S3 = surface(A3), SL = surface(AL);
  surf3D<<<1, dim3(3, 2, 2)>>>(S3, SL);
  uchar4 B3[2][2][3];
  short BL[2][2][3];
  cudaMemcpy3DParms P;
  std::memset(&P, 0, sizeof P);
  P.srcArray = A3;
  P.dstPtr = make_cudaPitchedPtr(B3, 3 * sizeof(uchar4), 3, 2);
  P.extent = make_cudaExtent(3, 2, 2);
  P.kind = cudaMemcpyDeviceToHost;
  cudaMemcpy3D(&P);
  P.srcArray = AL;
  P.dstPtr = make_cudaPitchedPtr(BL, 3 * sizeof(short), 3, 2);
  cudaMemcpy3D(&P);
  bool Ok3 = true, OkL = true;
  for (int Z = 0; Z < 2; ++Z)
    for (int Y = 0; Y < 2; ++Y)
      for (int X = 0; X < 3; ++X) {
        uchar4 V = B3[Z][Y][X];
        Ok3 &= V.x == X && V.y == Y && V.z == Z && V.w == X + Y + Z;
        OkL &= BL[Z][Y][X] == 100 * Z + 10 * Y + X;
      }
  std::printf("surf3D: %s\nsurf2DLayered: %s\n", Ok3 ? "ok" : "FAILED",
              OkL ? "ok" : "FAILED");
  Pass &= Ok3 && OkL;

  cudaArray_t NoFlag;
  cudaMallocArray(&NoFlag, &F, 4, 4);
  cudaSurfaceObject_t Bad;
  R.res.array.array = NoFlag;
  int E0 = cudaCreateSurfaceObject(&Bad, &R);
  R.resType = cudaResourceTypeLinear;
  int E1 = cudaCreateSurfaceObject(&Bad, &R);
  int E2 = cudaDestroySurfaceObject(S), E3 = cudaDestroySurfaceObject(S);
  cudaGetLastError();
  std::printf("errors: %d %d %d %d\n", E0, E1, E2, E3);
  Pass &= E0 == 1 && E1 == 1 && E2 == 0 && E3 == 1;
  cudaDestroyTextureObject(T);
  cudaDestroySurfaceObject(S1);
  cudaDestroySurfaceObject(S3);
  cudaDestroySurfaceObject(SL);
  for (cudaArray_t X : {A, A1, A3, AL, NoFlag})
    cudaFreeArray(X);
  std::printf(Pass ? "ALL PASS\n" : "FAILED\n");
  return !Pass;
}
