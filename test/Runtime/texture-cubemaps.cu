// Cubemaps and half-float texels: cudaMalloc3DArray with cudaArrayCubemap
// (and cudaArrayLayered | cudaArrayCubemap), copies into faces with
// cudaMemcpy3D, texCubemap / texCubemapLayered / texCubemapLod (point and
// linear) against a host reference of the programming guide's face table,
// texCubemapGrad (the level from the face coordinates' derivatives),
// surfCubemap(Layered)write/read; half-float arrays (cudaCreateChannelDescHalf2)
// read as floats with linear filtering and tex1Dfetch of half texels; the
// errors of bad cubemap extents and half-float formats; the cubemap limits
// the device reports (properties, attributes) are those allocation keeps.
// REQUIRES: built-target-host
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// RUN: %if pocl %{ env HETGPU_DEVICE=opencl %t | FileCheck %s %}
// RUN: %if qemu-riscv64 %{ env HETGPU_DEVICE=tt-sim %t | FileCheck %s %}
// CHECK: cubemap point: ok
// CHECK: cubemap linear: ok
// CHECK: cubemap layered: ok
// CHECK: cubemap lod: ok
// CHECK: cubemap grad: ok
// CHECK: surface cubemap: ok
// CHECK: half2 linear: ok
// CHECK: half fetch: ok
// CHECK: errors: 1 1 1 1 20
// CHECK: limits: 1 1 1 0
// CHECK: ALL PASS

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

enum Op { Cube, CubeLayered, CubeLod, CubeGrad };

struct Query {
  int Op;
  float X, Y, Z;
  int Layer;
  float Lod;
  float DX[3], DY[3];
};

__global__ void cubeKernel(cudaTextureObject_t T, const Query *Qs, float *Out,
                           int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  Query Q = Qs[I];
  if (Q.Op == Cube)
    Out[I] = texCubemap<float>(T, Q.X, Q.Y, Q.Z);
  else if (Q.Op == CubeLayered)
    texCubemapLayered(&Out[I], T, Q.X, Q.Y, Q.Z, Q.Layer);
  else if (Q.Op == CubeLod)
    Out[I] = texCubemapLod<float>(T, Q.X, Q.Y, Q.Z, Q.Lod);
  else
    Out[I] = texCubemapGrad<float>(
        T, Q.X, Q.Y, Q.Z, make_float4(Q.DX[0], Q.DX[1], Q.DX[2], 0),
        make_float4(Q.DY[0], Q.DY[1], Q.DY[2], 0));
}

//===-- Host reference ----------------------------------------------------===//

/// Faces of W x W texels, 6 a cube: V[((Cube * 6 + Face) * W + y) * W + x].
struct Cubes {
  int W, N;
  std::vector<float> V;
};

/// The programming guide's table: per face (+x, -x, +y, -y, +z, -z), the
/// axis and sign of sc, then of tc.
static const int FaceTable[6][4] = {{2, -1, 1, -1}, {2, 1, 1, -1},
                                    {0, 1, 2, 1},   {0, 1, 2, -1},
                                    {0, 1, 1, -1},  {0, -1, 1, -1}};

/// The level of detail of a texCubemapGrad: the derivatives of the face
/// coordinates s = (sc / ma + 1) / 2 (t alike) in texels of level 0 (width
/// \p W), the longer of the two, log2.
static float refCubeLod(const Query &Q, int W) {
  const double P[3] = {Q.X, Q.Y, Q.Z};
  int Axis = 0;
  for (int K = 1; K < 3; ++K)
    if (std::fabs(P[K]) > std::fabs(P[Axis]))
      Axis = K;
  const int *T = FaceTable[2 * Axis + (P[Axis] < 0)];
  double Ma = std::fabs(P[Axis]), Sgn = P[Axis] < 0 ? -1 : 1, Longest = 0;
  for (const float *G : {Q.DX, Q.DY}) {
    double DMa = Sgn * G[Axis], Len = 0;
    for (int C = 0; C < 2; ++C) {
      double Sc = T[2 * C + 1] * P[T[2 * C]], DSc = T[2 * C + 1] * G[T[2 * C]];
      Len = std::hypot(Len, W * (DSc * Ma - Sc * DMa) / (2 * Ma * Ma));
    }
    Longest = std::max(Longest, Len);
  }
  return (float)std::log2(Longest);
}

static float refCube(const Cubes &C, bool Linear, const Query &Q, int Cube) {
  const float D[3] = {Q.X, Q.Y, Q.Z};
  int Axis = 0;
  for (int K = 1; K < 3; ++K)
    if (std::fabs(D[K]) > std::fabs(D[Axis]))
      Axis = K;
  int Face = 2 * Axis + (D[Axis] < 0);
  float Ma = std::fabs(D[Axis]);
  const int *T = FaceTable[Face];
  float S = (T[1] * D[T[0]] / Ma + 1) / 2, Tc = (T[3] * D[T[2]] / Ma + 1) / 2;
  float U[2] = {S * C.W - (Linear ? 0.5f : 0), Tc * C.W - (Linear ? 0.5f : 0)};
  int I0[2];
  float A[2];
  for (int K = 0; K < 2; ++K) {
    I0[K] = (int)std::floor(U[K]);
    A[K] = Linear ? std::round((U[K] - I0[K]) * 256) / 256 : 0;
  }
  auto Clamp = [&](int I) { return I < 0 ? 0 : I >= C.W ? C.W - 1 : I; };
  float R = 0;
  for (int Corner = 0; Corner < (Linear ? 4 : 1); ++Corner) {
    int BX = Corner & 1, BY = Corner >> 1;
    float W = (BX ? A[0] : 1 - A[0]) * (BY ? A[1] : 1 - A[1]);
    int X = Clamp(I0[0] + BX), Y = Clamp(I0[1] + BY);
    R += W * C.V[((size_t)(Cube * 6 + Face) * C.W + Y) * C.W + X];
  }
  return R;
}

/// Directions towards every face, off-centre, near edges and corners.
static std::vector<Query> directions(int O, int Layers = 1) {
  const float D[][3] = {{1, 0.1f, -0.2f},    {-2, 0.7f, 0.3f},
                        {0.2f, 3, -0.9f},    {-0.4f, -1, 0.45f},
                        {0.3f, -0.6f, 1},    {0.8f, 0.05f, -1.1f},
                        {0.99f, -0.98f, 0.1f}, {-0.5f, 0.49f, -0.51f},
                        {0.9f, 0.9f, -0.95f}, {0.25f, 0.125f, -4}};
  std::vector<Query> Q;
  int I = 0;
  for (auto &V : D)
    Q.push_back(Query{O, V[0], V[1], V[2], I++ % Layers, 0.7f * (I % 5),
                      {0.08f * I, -0.24f, 0.16f * (I % 3)},
                      {0.032f, 0.4f * (I % 4), -0.08f * I}});
  return Q;
}

static int Failures = 0;

static void report(const char *What, int Bad) {
  Failures += Bad != 0;
  std::printf("%s: %s\n", What, Bad ? "FAILED" : "ok");
}

/// A cubemap array of \p N cubes with distinct texels, filled by one
/// cudaMemcpy3D (faces as z).
static cudaArray_t makeCube(Cubes &C, unsigned Flags, cudaArray_t A = nullptr) {
  cudaChannelFormatDesc F = cudaCreateChannelDesc<float>();
  if (!A && cudaMalloc3DArray(&A, &F, make_cudaExtent(C.W, C.W, 6 * C.N),
                              Flags) != cudaSuccess) {
    std::printf("cudaMalloc3DArray cubemap failed\n");
    ++Failures;
    return nullptr;
  }
  C.V.resize((size_t)C.N * 6 * C.W * C.W);
  for (size_t I = 0; I < C.V.size(); ++I)
    C.V[I] = (float)(I / (C.W * C.W)) * 100 + (float)((I * 13) % 71);
  cudaMemcpy3DParms P;
  std::memset(&P, 0, sizeof P);
  P.srcPtr = make_cudaPitchedPtr(C.V.data(), C.W * sizeof(float), C.W, C.W);
  P.dstArray = A;
  P.extent = make_cudaExtent(C.W, C.W, 6 * C.N);
  P.kind = cudaMemcpyHostToDevice;
  if (cudaMemcpy3D(&P) != cudaSuccess) {
    std::printf("cudaMemcpy3D to the faces failed\n");
    ++Failures;
  }
  return A;
}

static cudaTextureObject_t
makeTex(cudaResourceDesc R, bool Linear, float MaxLod = 0,
        cudaTextureAddressMode Addr = cudaAddressModeWrap) {
  cudaTextureDesc T;
  std::memset(&T, 0, sizeof T);
  T.filterMode = Linear ? cudaFilterModeLinear : cudaFilterModePoint;
  T.normalizedCoords = 1;
  T.maxMipmapLevelClamp = MaxLod;
  // Wrap: cubemap faces are clamped whatever the mode says.
  for (int K = 0; K < 3; ++K)
    T.addressMode[K] = Addr;
  cudaTextureObject_t Obj = 0;
  if (cudaError_t E = cudaCreateTextureObject(&Obj, &R, &T, nullptr)) {
    std::printf("cudaCreateTextureObject: %s\n", cudaGetErrorString(E));
    ++Failures;
  }
  return Obj;
}

static cudaResourceDesc arrayRes(cudaArray_t A) {
  cudaResourceDesc R;
  std::memset(&R, 0, sizeof R);
  R.resType = cudaResourceTypeArray;
  R.res.array.array = A;
  return R;
}

static std::vector<float> sample(cudaTextureObject_t T,
                                 const std::vector<Query> &Q) {
  Query *DQ;
  float *DOut;
  int N = (int)Q.size();
  cudaMalloc(&DQ, N * sizeof(Query));
  cudaMalloc(&DOut, N * sizeof(float));
  cudaMemcpy(DQ, Q.data(), N * sizeof(Query), cudaMemcpyHostToDevice);
  cubeKernel<<<1, N>>>(T, DQ, DOut, N);
  std::vector<float> Got(N);
  cudaMemcpy(Got.data(), DOut, N * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(DQ);
  cudaFree(DOut);
  return Got;
}

static int compare(const char *What, const std::vector<float> &Got,
                   const std::vector<Query> &Q,
                   float (*Ref)(const Query &, const void *), const void *Ctx) {
  int Bad = 0;
  for (size_t I = 0; I < Q.size(); ++I) {
    float R = Ref(Q[I], Ctx);
    if (std::fabs(Got[I] - R) > 1e-4f * std::max(1.0f, std::fabs(R)) &&
        Bad++ < 4)
      std::printf("  %s[%zu] (%g, %g, %g | %d): got %g, want %g\n", What, I,
                  Q[I].X, Q[I].Y, Q[I].Z, Q[I].Layer, Got[I], R);
  }
  return Bad;
}

struct CubeCtx {
  const Cubes *C;
  bool Linear;
};

static float cubeRef(const Query &Q, const void *P) {
  const CubeCtx *X = (const CubeCtx *)P;
  int Cube = Q.Op == CubeLayered ? Q.Layer : 0;
  return refCube(*X->C, X->Linear, Q, Cube);
}

static void cubemaps() {
  Cubes C{8, 1, {}};
  cudaArray_t A = makeCube(C, cudaArrayCubemap);
  for (bool Linear : {false, true}) {
    cudaTextureObject_t T = makeTex(arrayRes(A), Linear);
    auto Q = directions(Cube);
    CubeCtx X{&C, Linear};
    report(Linear ? "cubemap linear" : "cubemap point",
           compare("cube", sample(T, Q), Q, cubeRef, &X));
    cudaDestroyTextureObject(T);
  }
  cudaFreeArray(A);

  Cubes L{4, 3, {}};
  A = makeCube(L, cudaArrayCubemap | cudaArrayLayered);
  cudaTextureObject_t T = makeTex(arrayRes(A), true);
  auto Q = directions(CubeLayered, 3);
  CubeCtx X{&L, true};
  report("cubemap layered", compare("layered", sample(T, Q), Q, cubeRef, &X));
  cudaDestroyTextureObject(T);
  cudaFreeArray(A);

  // Mipmapped cubemap: point mipmap filtering picks the nearest level.
  cudaMipmappedArray_t M;
  cudaChannelFormatDesc F = cudaCreateChannelDesc<float>();
  cudaMallocMipmappedArray(&M, &F, make_cudaExtent(8, 8, 6), 0,
                           cudaArrayCubemap);
  std::vector<Cubes> Levels;
  for (int Lv = 0; Lv < 4; ++Lv) {
    cudaArray_t LA;
    cudaGetMipmappedArrayLevel(&LA, M, Lv);
    Levels.push_back(Cubes{8 >> Lv, 1, {}});
    makeCube(Levels.back(), 0, LA);
    for (float &V : Levels.back().V) // distinct levels
      V += 1000.0f * Lv;
    cudaMemcpy3DParms P;
    std::memset(&P, 0, sizeof P);
    Cubes &Cb = Levels.back();
    P.srcPtr = make_cudaPitchedPtr(Cb.V.data(), Cb.W * sizeof(float), Cb.W, Cb.W);
    P.dstArray = LA;
    P.extent = make_cudaExtent(Cb.W, Cb.W, 6);
    P.kind = cudaMemcpyHostToDevice;
    cudaMemcpy3D(&P);
  }
  cudaResourceDesc R;
  std::memset(&R, 0, sizeof R);
  R.resType = cudaResourceTypeMipmappedArray;
  R.res.mipmap.mipmap = M;
  T = makeTex(R, true, 10);
  Q = directions(CubeLod);
  auto Got = sample(T, Q);
  int Bad = 0;
  for (size_t I = 0; I < Q.size(); ++I) {
    int Lv = (int)std::floor(std::min(Q[I].Lod, 3.0f) + 0.5f);
    float Want = refCube(Levels[Lv], true, Q[I], 0);
    if (std::fabs(Got[I] - Want) > 1e-4f * std::fabs(Want) && Bad++ < 4)
      std::printf("  lod[%zu] %g: got %g, want %g\n", I, Q[I].Lod, Got[I], Want);
  }
  report("cubemap lod", Bad);
  cudaDestroyTextureObject(T);
  // Gradients, linear between levels.
  cudaTextureDesc TD;
  std::memset(&TD, 0, sizeof TD);
  TD.filterMode = TD.mipmapFilterMode = cudaFilterModeLinear;
  TD.normalizedCoords = 1;
  TD.maxMipmapLevelClamp = 10;
  cudaCreateTextureObject(&T, &R, &TD, nullptr);
  Q = directions(CubeGrad);
  Got = sample(T, Q);
  Bad = 0;
  for (size_t I = 0; I < Q.size(); ++I) {
    float Lod = std::min(std::max(refCubeLod(Q[I], 8), 0.0f), 3.0f);
    int Lo = (int)Lod;
    float W = std::round((Lod - Lo) * 256) / 256;
    float Want = refCube(Levels[Lo], true, Q[I], 0);
    if (Lo < 3)
      Want = (1 - W) * Want + W * refCube(Levels[Lo + 1], true, Q[I], 0);
    if (std::fabs(Got[I] - Want) > 1e-4f * std::fabs(Want) && Bad++ < 4)
      std::printf("  grad[%zu] lod %g: got %g, want %g\n", I, Lod, Got[I],
                  Want);
  }
  report("cubemap grad", Bad);
  cudaDestroyTextureObject(T);
  cudaFreeMipmappedArray(M);
}

__global__ void surfKernel(cudaSurfaceObject_t S, cudaSurfaceObject_t SL,
                           int W, float *Back) {
  int X = threadIdx.x, Y = threadIdx.y, F = blockIdx.x;
  surfCubemapwrite(F * 1000.0f + Y * W + X, S, X * 4, Y, F);
  surfCubemapLayeredwrite(-(F + 6.0f) * 1000 - Y * W - X, SL, X * 4, Y, F + 6);
  __syncthreads();
  // Read a neighbour's texel back (written by another thread of the block).
  Back[(F * W + Y) * W + X] = surfCubemapread<float>(S, (W - 1 - X) * 4, Y, F);
}

static void surfaces() {
  const int W = 4;
  cudaChannelFormatDesc F = cudaCreateChannelDesc<float>();
  cudaArray_t A, AL;
  cudaMalloc3DArray(&A, &F, make_cudaExtent(W, W, 6),
                    cudaArrayCubemap | cudaArraySurfaceLoadStore);
  cudaMalloc3DArray(&AL, &F, make_cudaExtent(W, W, 12),
                    cudaArrayCubemap | cudaArrayLayered |
                        cudaArraySurfaceLoadStore);
  cudaSurfaceObject_t S, SL;
  cudaResourceDesc R = arrayRes(A);
  cudaCreateSurfaceObject(&S, &R);
  R = arrayRes(AL);
  cudaCreateSurfaceObject(&SL, &R);
  float *Back;
  cudaMalloc(&Back, 6 * W * W * sizeof(float));
  surfKernel<<<6, dim3(W, W)>>>(S, SL, W, Back);
  std::vector<float> H(6 * W * W), HL(12 * W * W), HB(6 * W * W);
  cudaMemcpy(HB.data(), Back, HB.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy3DParms P;
  std::memset(&P, 0, sizeof P);
  P.srcArray = A;
  P.dstPtr = make_cudaPitchedPtr(H.data(), W * sizeof(float), W, W);
  P.extent = make_cudaExtent(W, W, 6);
  P.kind = cudaMemcpyDeviceToHost;
  cudaMemcpy3D(&P);
  P.srcArray = AL;
  P.dstPtr = make_cudaPitchedPtr(HL.data(), W * sizeof(float), W, W);
  P.extent = make_cudaExtent(W, W, 12);
  cudaMemcpy3D(&P);
  int Bad = 0;
  for (int Fc = 0; Fc < 6; ++Fc)
    for (int Y = 0; Y < W; ++Y)
      for (int X = 0; X < W; ++X) {
        size_t I = (Fc * W + Y) * W + X;
        Bad += H[I] != Fc * 1000.0f + Y * W + X;
        Bad += HL[I + 6 * W * W] != -(Fc + 6.0f) * 1000 - Y * W - X;
        Bad += HB[I] != Fc * 1000.0f + Y * W + (W - 1 - X);
      }
  report("surface cubemap", Bad);
  cudaDestroySurfaceObject(S);
  cudaDestroySurfaceObject(SL);
  cudaFreeArray(A);
  cudaFreeArray(AL);
  cudaFree(Back);
}

//===-- Half-float texels -------------------------------------------------===//

/// A half's bits as a float, by its definition (sign, 5-bit exponent biased
/// by 15, 10-bit fraction; subnormals without the implicit 1).
static float halfValue(unsigned short H) {
  int E = (H >> 10) & 31, M = H & 1023;
  float V = E == 0 ? std::ldexp((float)M, -24)
            : E == 31 ? (M ? NAN : INFINITY)
                      : std::ldexp(1.0f + M / 1024.0f, E - 15);
  return (H & 0x8000) ? -V : V;
}

__global__ void halfKernel(cudaTextureObject_t T, cudaTextureObject_t L,
                           const float2 *Pts, float2 *Out, float *Fetch,
                           int N) {
  int I = threadIdx.x;
  if (I < N)
    Out[I] = tex2D<float2>(T, Pts[I].x, Pts[I].y);
  if (I < 8)
    Fetch[I] = tex1Dfetch<float>(L, I);
}

static void halves() {
  const int W = 4, H = 4;
  const unsigned short Bits[] = {0x3C00, 0xC500, 0x0001, 0x7BFF, 0x3555,
                                 0x8200, 0x4248, 0x0000, 0xBC00, 0x5640,
                                 0x2E66, 0x03FF, 0x4900, 0xD0A4, 0x3800,
                                 0x1234};
  std::vector<unsigned short> Tex(W * H * 2);
  for (int I = 0; I < W * H; ++I) {
    Tex[2 * I] = Bits[I];
    Tex[2 * I + 1] = Bits[(I * 7 + 3) % 16];
  }
  cudaChannelFormatDesc F = cudaCreateChannelDescHalf2();
  cudaArray_t A;
  cudaMallocArray(&A, &F, W, H);
  cudaMemcpy2DToArray(A, 0, 0, Tex.data(), W * 4, W * 4, H,
                      cudaMemcpyHostToDevice);
  cudaTextureObject_t T = makeTex(arrayRes(A), true, 0, cudaAddressModeClamp);
  unsigned short *Lin;
  cudaMalloc(&Lin, sizeof Bits);
  cudaMemcpy(Lin, Bits, sizeof Bits, cudaMemcpyHostToDevice);
  cudaResourceDesc R;
  std::memset(&R, 0, sizeof R);
  R.resType = cudaResourceTypeLinear;
  R.res.linear.devPtr = Lin;
  R.res.linear.desc = cudaCreateChannelDescHalf();
  R.res.linear.sizeInBytes = sizeof Bits;
  cudaTextureDesc TD;
  std::memset(&TD, 0, sizeof TD);
  cudaTextureObject_t TL = 0;
  cudaCreateTextureObject(&TL, &R, &TD, nullptr);
  std::vector<float2> Pts;
  for (float Y : {0.1f, 0.375f, 0.6f, 0.95f})
    for (float X : {0.05f, 0.3f, 0.55f, 0.8f, 1.2f})
      Pts.push_back(make_float2(X, Y));
  int N = (int)Pts.size();
  float2 *DP, *DOut;
  float *DF;
  cudaMalloc(&DP, N * sizeof(float2));
  cudaMalloc(&DOut, N * sizeof(float2));
  cudaMalloc(&DF, 8 * sizeof(float));
  cudaMemcpy(DP, Pts.data(), N * sizeof(float2), cudaMemcpyHostToDevice);
  halfKernel<<<1, 32>>>(T, TL, DP, DOut, DF, N);
  std::vector<float2> Got(N);
  float Fetch[8];
  cudaMemcpy(Got.data(), DOut, N * sizeof(float2), cudaMemcpyDeviceToHost);
  cudaMemcpy(Fetch, DF, sizeof Fetch, cudaMemcpyDeviceToHost);
  int Bad = 0;
  auto Clamp = [](int I, int N) { return I < 0 ? 0 : I >= N ? N - 1 : I; };
  for (int I = 0; I < N; ++I) {
    float U = Pts[I].x * W - 0.5f, V = Pts[I].y * H - 0.5f;
    int X0 = (int)std::floor(U), Y0 = (int)std::floor(V);
    float AX = std::round((U - X0) * 256) / 256,
          AY = std::round((V - Y0) * 256) / 256;
    for (int C = 0; C < 2; ++C) {
      float Want = 0;
      for (int K = 0; K < 4; ++K) {
        int BX = K & 1, BY = K >> 1;
        int X = Clamp(X0 + BX, W), Y = Clamp(Y0 + BY, H);
        Want += (BX ? AX : 1 - AX) * (BY ? AY : 1 - AY) *
                halfValue(Tex[(Y * W + X) * 2 + C]);
      }
      float G = C ? Got[I].y : Got[I].x;
      if (std::fabs(G - Want) > 1e-4f * std::max(1.0f, std::fabs(Want)) &&
          Bad++ < 4)
        std::printf("  half2[%d].%d: got %g, want %g\n", I, C, G, Want);
    }
  }
  report("half2 linear", Bad);
  Bad = 0;
  for (int I = 0; I < 8; ++I)
    Bad += Fetch[I] != halfValue(Bits[I]);
  report("half fetch", Bad);
  cudaDestroyTextureObject(T);
  cudaDestroyTextureObject(TL);
  cudaFreeArray(A);
  cudaFree(Lin);
  cudaFree(DP);
  cudaFree(DOut);
  cudaFree(DF);
}

static void errors() {
  cudaChannelFormatDesc F = cudaCreateChannelDesc<float>();
  cudaArray_t A = nullptr;
  int E0 = cudaMalloc3DArray(&A, &F, make_cudaExtent(4, 8, 6), cudaArrayCubemap);
  int E1 = cudaMalloc3DArray(&A, &F, make_cudaExtent(4, 4, 5), cudaArrayCubemap);
  int E2 = cudaMallocArray(&A, &F, 4, 4, cudaArrayCubemap);
  cudaChannelFormatDesc HF = cudaCreateChannelDescHalf();
  cudaMallocArray(&A, &HF, 4, 4);
  cudaTextureDesc T;
  std::memset(&T, 0, sizeof T);
  T.readMode = cudaReadModeNormalizedFloat; // for integer texels only
  cudaResourceDesc R = arrayRes(A);
  cudaTextureObject_t Obj;
  int E3 = cudaCreateTextureObject(&Obj, &R, &T, nullptr);
  cudaFreeArray(A);
  cudaChannelFormatDesc Mixed =
      cudaCreateChannelDesc(16, 32, 0, 0, cudaChannelFormatKindFloat);
  cudaMallocArray(&A, &Mixed, 4, 4);
  R = arrayRes(A);
  T.readMode = cudaReadModeElementType;
  int E4 = cudaCreateTextureObject(&Obj, &R, &T, nullptr);
  cudaFreeArray(A);
  cudaGetLastError();
  std::printf("errors: %d %d %d %d %d\n", E0, E1, E2, E3, E4);
  Failures += !(E0 == 1 && E1 == 1 && E2 == 1 && E3 == 1 && E4 == 20);
  // The limits the device reports are the ones cudaMalloc3DArray keeps.
  cudaDeviceProp Prop;
  cudaGetDeviceProperties(&Prop, 0);
  int Width = 0, Layers = 0;
  cudaDeviceGetAttribute(&Width, cudaDevAttrMaxTextureCubemapWidth, 0);
  cudaDeviceGetAttribute(&Layers, cudaDevAttrMaxTextureCubemapLayeredLayers, 0);
  bool Same = Width > 0 && Width == Prop.maxTextureCubemap &&
              Layers == Prop.maxTextureCubemapLayered[1];
  const unsigned LC = cudaArrayLayered | cudaArrayCubemap;
  int L0 = cudaMalloc3DArray(&A, &F, make_cudaExtent(Width + 1, Width + 1, 6),
                             cudaArrayCubemap);
  int L1 = cudaMalloc3DArray(&A, &F, make_cudaExtent(1, 1, Layers + 6), LC);
  int L2 = cudaMalloc3DArray(&A, &F, make_cudaExtent(1, 1, Layers), LC);
  cudaFreeArray(A);
  cudaGetLastError();
  std::printf("limits: %d %d %d %d\n", Same, L0, L1, L2);
  Failures += !(Same && L0 == 1 && L1 == 1 && L2 == 0);
}

int main() {
  cubemaps();
  surfaces();
  halves();
  errors();
  std::printf(Failures ? "FAILED\n" : "ALL PASS\n");
  return Failures != 0;
}
