// Mipmapped arrays: cudaMallocMipmappedArray's level count and extents,
// cudaGetMipmappedArrayLevel, copies into levels, and texture objects over
// them read with tex1D/2D/3D/2DLayered Lod and Grad forms under point and
// linear mipmap filtering, mipmapLevelBias and the min/max level clamps,
// checked against a host reference that selects and blends levels as
// docs/Compatibility.md documents (lod fraction and texel weights in 8
// fractional bits); and the errors of a level freed as an array, a level
// past the last, a mipmapped array freed twice.
// REQUIRES: built-target-host
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// RUN: %if pocl %{ env HETGPU_DEVICE=opencl %t | FileCheck %s %}
// RUN: %if qemu-riscv64 %{ env HETGPU_DEVICE=tt-sim %t | FileCheck %s %}
// CHECK: levels: 5 | 16x8 8x4 4x2 2x1 1x1 | past last: 1
// CHECK: 2D lod point: ok
// CHECK: 2D lod linear: ok
// CHECK: 2D no lod, bias and min clamp: ok
// CHECK: 2D grad: ok
// CHECK: 2D grad pointer form: ok
// CHECK: max clamp 0: ok
// CHECK: 1D lod/grad: ok
// CHECK: 3D lod/grad: ok
// CHECK: 2D layered lod/grad: ok
// CHECK: errors: 1 1 0 1
// CHECK: ALL PASS

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

enum Op { Lod1, Grad1, Tex2, Lod2, Grad2, Grad2Ptr, Lod3, Grad3, LodL, GradL };

struct Query {
  int Op;
  float X, Y, Z;
  int Layer;
  float Lod;
  float DX[3], DY[3];
};

__global__ void sampleKernel(cudaTextureObject_t T, const Query *Qs,
                             float *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  Query Q = Qs[I];
  float2 DX2 = make_float2(Q.DX[0], Q.DX[1]), DY2 = make_float2(Q.DY[0], Q.DY[1]);
  float4 DX4 = make_float4(Q.DX[0], Q.DX[1], Q.DX[2], 0);
  float4 DY4 = make_float4(Q.DY[0], Q.DY[1], Q.DY[2], 0);
  switch (Q.Op) {
  case Lod1: Out[I] = tex1DLod<float>(T, Q.X, Q.Lod); break;
  case Grad1: Out[I] = tex1DGrad<float>(T, Q.X, Q.DX[0], Q.DY[0]); break;
  case Tex2: Out[I] = tex2D<float>(T, Q.X, Q.Y); break;
  case Lod2: Out[I] = tex2DLod<float>(T, Q.X, Q.Y, Q.Lod); break;
  case Grad2: Out[I] = tex2DGrad<float>(T, Q.X, Q.Y, DX2, DY2); break;
  case Grad2Ptr: tex2DGrad(&Out[I], T, Q.X, Q.Y, DX2, DY2); break;
  case Lod3: Out[I] = tex3DLod<float>(T, Q.X, Q.Y, Q.Z, Q.Lod); break;
  case Grad3: Out[I] = tex3DGrad<float>(T, Q.X, Q.Y, Q.Z, DX4, DY4); break;
  case LodL: Out[I] = tex2DLayeredLod<float>(T, Q.X, Q.Y, Q.Layer, Q.Lod); break;
  case GradL:
    Out[I] = tex2DLayeredGrad<float>(T, Q.X, Q.Y, Q.Layer, DX2, DY2);
    break;
  }
}

//===-- Host reference ----------------------------------------------------===//

/// One level: V[((L * D + z) * H + y) * W + x].
struct Level {
  int W, H, D, Layers;
  std::vector<float> V;
  float at(int L, int X, int Y, int Z) const {
    return V[((size_t)(L * D + Z) * H + Y) * W + X];
  }
};

struct Settings {
  bool Linear = true, MipLinear = false;
  float Bias = 0, MinClamp = 0, MaxClamp = 100;
};

static int clampTo(int I, int N) { return I < 0 ? 0 : I >= N ? N - 1 : I; }

/// Normalised coordinates, clamp addressing, 8-bit fractional weights.
static float sampleLevel(const Level &Lv, const Settings &S, int Dims,
                         const Query &Q) {
  const int N[3] = {Lv.W, Lv.H, Lv.D};
  const float U[3] = {Q.X, Q.Y, Q.Z};
  int I0[3] = {0, 0, 0};
  float A[3] = {0, 0, 0};
  for (int K = 0; K < Dims; ++K) {
    float X = U[K] * N[K] - (S.Linear ? 0.5f : 0.0f);
    I0[K] = (int)std::floor(X);
    A[K] = S.Linear ? std::round((X - std::floor(X)) * 256) / 256 : 0;
  }
  int L = clampTo(Q.Layer, Lv.Layers);
  float R = 0;
  for (int C = 0; C < (S.Linear ? 1 << Dims : 1); ++C) {
    float W = 1;
    int Idx[3] = {0, 0, 0};
    for (int K = 0; K < Dims; ++K) {
      int Bit = (C >> K) & 1;
      W *= Bit ? A[K] : 1 - A[K];
      Idx[K] = clampTo(I0[K] + Bit, N[K]);
    }
    R += W * Lv.at(L, Idx[0], Idx[1], Idx[2]);
  }
  return R;
}

static float reference(const std::vector<Level> &Lv, const Settings &S,
                       int Dims, const Query &Q, bool Grad) {
  float Lod = Q.Op == Tex2 ? 0.0f : Q.Lod;
  if (Grad) {
    const int N[3] = {Lv[0].W, Lv[0].H, Lv[0].D};
    double LX = 0, LY = 0;
    for (int K = 0; K < Dims; ++K) {
      LX = std::hypot(LX, (double)Q.DX[K] * N[K]);
      LY = std::hypot(LY, (double)Q.DY[K] * N[K]);
    }
    Lod = (float)std::log2(std::max(LX, LY)) + S.Bias;
  }
  Lod = std::min(std::max(Lod, S.MinClamp), S.MaxClamp);
  Lod = std::min(std::max(Lod, 0.0f), (float)(Lv.size() - 1));
  int Lo = (int)Lod;
  float Frac = Lod - Lo;
  if (!S.MipLinear)
    return sampleLevel(Lv[Frac >= 0.5f ? Lo + 1 : Lo], S, Dims, Q);
  float W = std::round(Frac * 256) / 256;
  float A = sampleLevel(Lv[Lo], S, Dims, Q);
  if (Lo + 1 >= (int)Lv.size())
    return A;
  return (1 - W) * A + W * sampleLevel(Lv[Lo + 1], S, Dims, Q);
}

//===-- Device side -------------------------------------------------------===//

static int Failures = 0;

struct Mip {
  cudaMipmappedArray_t M = nullptr;
  std::vector<Level> Levels;
};

/// A mipmapped float array of the extent, level L's texels distinct from
/// every other level's, copied level by level.
static Mip makeMip(cudaExtent E, unsigned Flags) {
  Mip R;
  cudaChannelFormatDesc F = cudaCreateChannelDesc<float>();
  if (cudaMallocMipmappedArray(&R.M, &F, E, 0, Flags) != cudaSuccess) {
    std::printf("cudaMallocMipmappedArray failed\n");
    ++Failures;
    return R;
  }
  bool Layered = Flags & cudaArrayLayered;
  for (unsigned L = 0;; ++L) {
    cudaArray_t A;
    if (cudaGetMipmappedArrayLevel(&A, R.M, L) != cudaSuccess)
      break;
    cudaChannelFormatDesc GF;
    cudaExtent X;
    unsigned Fl;
    cudaArrayGetInfo(&GF, &X, &Fl, A);
    Level Lv{(int)X.width, X.height ? (int)X.height : 1,
             Layered || !X.depth ? 1 : (int)X.depth,
             Layered ? (int)X.depth : 1, {}};
    size_t Count = (size_t)Lv.W * Lv.H * Lv.D * Lv.Layers;
    for (size_t I = 0; I < Count; ++I)
      Lv.V.push_back(L * 1000.0f + (float)((I * 37) % 101));
    cudaMemcpy3DParms P;
    std::memset(&P, 0, sizeof P);
    P.srcPtr = make_cudaPitchedPtr(Lv.V.data(), Lv.W * sizeof(float), Lv.W,
                                   Lv.H);
    P.dstArray = A;
    P.extent = make_cudaExtent(Lv.W, Lv.H, Lv.D * Lv.Layers);
    P.kind = cudaMemcpyHostToDevice;
    if (cudaMemcpy3D(&P) != cudaSuccess) {
      std::printf("cudaMemcpy3D to level %u failed\n", L);
      ++Failures;
    }
    R.Levels.push_back(Lv);
  }
  return R;
}

static cudaTextureObject_t makeTex(const Mip &M, const Settings &S) {
  cudaResourceDesc R;
  std::memset(&R, 0, sizeof R);
  R.resType = cudaResourceTypeMipmappedArray;
  R.res.mipmap.mipmap = M.M;
  cudaTextureDesc T;
  std::memset(&T, 0, sizeof T);
  for (int K = 0; K < 3; ++K)
    T.addressMode[K] = cudaAddressModeClamp;
  T.filterMode = S.Linear ? cudaFilterModeLinear : cudaFilterModePoint;
  T.mipmapFilterMode = S.MipLinear ? cudaFilterModeLinear : cudaFilterModePoint;
  T.readMode = cudaReadModeElementType;
  T.normalizedCoords = 1;
  T.mipmapLevelBias = S.Bias;
  T.minMipmapLevelClamp = S.MinClamp;
  T.maxMipmapLevelClamp = S.MaxClamp;
  cudaTextureObject_t Obj = 0;
  if (cudaError_t E = cudaCreateTextureObject(&Obj, &R, &T, nullptr)) {
    std::printf("cudaCreateTextureObject: %s\n", cudaGetErrorString(E));
    ++Failures;
  }
  return Obj;
}

static void run(const char *What, const Mip &M, const Settings &S, int Dims,
                const std::vector<Query> &Q) {
  cudaTextureObject_t T = makeTex(M, S);
  Query *DQ;
  float *DOut;
  int N = (int)Q.size();
  cudaMalloc(&DQ, N * sizeof(Query));
  cudaMalloc(&DOut, N * sizeof(float));
  cudaMemcpy(DQ, Q.data(), N * sizeof(Query), cudaMemcpyHostToDevice);
  sampleKernel<<<(N + 63) / 64, 64>>>(T, DQ, DOut, N);
  std::vector<float> Got(N);
  cudaMemcpy(Got.data(), DOut, N * sizeof(float), cudaMemcpyDeviceToHost);
  int Bad = 0;
  for (int I = 0; I < N; ++I) {
    bool Grad = Q[I].Op == Grad1 || Q[I].Op == Grad2 || Q[I].Op == Grad2Ptr ||
                Q[I].Op == Grad3 || Q[I].Op == GradL;
    float R = reference(M.Levels, S, Dims, Q[I], Grad);
    if (std::fabs(Got[I] - R) > 2e-4f * std::max(1.0f, std::fabs(R)) &&
        Bad++ < 4)
      std::printf("  %s[%d] (%g, %g, %g | %d) lod %g: got %g, want %g\n",
                  What, I, Q[I].X, Q[I].Y, Q[I].Z, Q[I].Layer, Q[I].Lod,
                  Got[I], R);
  }
  Failures += Bad != 0;
  std::printf("%s: %s\n", What, Bad ? "FAILED" : "ok");
  cudaFree(DQ);
  cudaFree(DOut);
  cudaDestroyTextureObject(T);
}

/// Queries of operation \p O at a few points, with levels of detail and
/// gradients (texels of level 0, divided by its extent \p N: exact floats)
/// whose log2 fractions are away from the rounding points.
static std::vector<Query> queries(int O, const int *N, int Layers = 1) {
  const float Pts[][3] = {{0.1f, 0.2f, 0.3f}, {0.37f, 0.61f, 0.5f},
                          {0.5f, 0.5f, 0.9f}, {0.93f, 0.05f, 0.71f}};
  const float Lods[] = {-1.0f, 0.0f, 0.3f, 0.7f, 1.2f, 1.8f, 2.6f, 3.4f, 9.0f};
  const float Rhos[] = {0.25f, 1.0f, 1.5f, 3.0f, 5.0f, 12.0f, 40.0f, 1000.0f};
  std::vector<Query> Q;
  for (auto &P : Pts)
    for (int I = 0; I < 9; ++I) {
      Query R;
      std::memset(&R, 0, sizeof R);
      R.Op = O;
      R.X = P[0];
      R.Y = P[1];
      R.Z = P[2];
      R.Layer = I % Layers;
      R.Lod = Lods[I];
      float Rho = Rhos[I % 8];
      // The longer derivative along one axis (the other three-quarters).
      for (int K = 0; K < 3; ++K) {
        R.DX[K] = (I % 2 ? Rho : 0.75f * Rho) / N[K] * (K == I % 3);
        R.DY[K] = (I % 2 ? 0.75f * Rho : Rho) / N[K] * (K == (I + 1) % 3);
      }
      Q.push_back(R);
    }
  return Q;
}

int main() {
  Mip M2 = makeMip(make_cudaExtent(16, 8, 0), 0);
  cudaArray_t Past;
  int PastLast = cudaGetMipmappedArrayLevel(&Past, M2.M, 5);
  std::printf("levels: %zu |", M2.Levels.size());
  for (auto &L : M2.Levels)
    std::printf(" %dx%d", L.W, L.H);
  std::printf(" | past last: %d\n", PastLast);
  const int N2[3] = {16, 8, 1};
  Settings S;
  S.Linear = false;
  run("2D lod point", M2, S, 2, queries(Lod2, N2));
  S.Linear = S.MipLinear = true;
  run("2D lod linear", M2, S, 2, queries(Lod2, N2));
  Settings B = S;
  B.Bias = 5; // not applied to an explicit level of detail (0 here)
  B.MinClamp = 1.25f;
  run("2D no lod, bias and min clamp", M2, B, 2, queries(Tex2, N2));
  B.Bias = 0.5f;
  B.MinClamp = 0.5f;
  B.MaxClamp = 3.25f;
  run("2D grad", M2, B, 2, queries(Grad2, N2));
  B.MipLinear = false;
  run("2D grad pointer form", M2, B, 2, queries(Grad2Ptr, N2));
  Settings Z;
  Z.MipLinear = true;
  Z.MaxClamp = 0; // a zeroed cudaTextureDesc: level 0 only
  run("max clamp 0", M2, Z, 2, queries(Lod2, N2));

  Mip M1 = makeMip(make_cudaExtent(32, 0, 0), 0);
  const int N1[3] = {32, 1, 1};
  auto Q1 = queries(Lod1, N1), G1 = queries(Grad1, N1);
  Q1.insert(Q1.end(), G1.begin(), G1.end());
  run("1D lod/grad", M1, S, 1, Q1);

  Mip M3 = makeMip(make_cudaExtent(8, 4, 16), 0);
  const int N3[3] = {8, 4, 16};
  auto Q3 = queries(Lod3, N3), G3 = queries(Grad3, N3);
  Q3.insert(Q3.end(), G3.begin(), G3.end());
  run("3D lod/grad", M3, S, 3, Q3);

  Mip ML = makeMip(make_cudaExtent(8, 8, 3), cudaArrayLayered);
  const int NL[3] = {8, 8, 1};
  auto QL = queries(LodL, NL, 3), GL = queries(GradL, NL, 3);
  QL.insert(QL.end(), GL.begin(), GL.end());
  run("2D layered lod/grad", ML, S, 2, QL);

  // A level is not the program's to free; nor a mipmapped array twice.
  cudaArray_t L1;
  cudaGetMipmappedArrayLevel(&L1, M2.M, 1);
  int E0 = cudaFreeArray(L1);
  int E1 = cudaGetMipmappedArrayLevel(&L1, M2.M, 99);
  int E2 = cudaFreeMipmappedArray(M2.M);
  int E3 = cudaFreeMipmappedArray(M2.M);
  cudaGetLastError();
  std::printf("errors: %d %d %d %d\n", E0, E1, E2, E3);
  Failures += !(E0 == 1 && E1 == 1 && E2 == 0 && E3 == 1);
  cudaFreeMipmappedArray(M1.M);
  cudaFreeMipmappedArray(M3.M);
  cudaFreeMipmappedArray(ML.M);
  std::printf(Failures ? "FAILED\n" : "ALL PASS\n");
  return Failures != 0;
}
