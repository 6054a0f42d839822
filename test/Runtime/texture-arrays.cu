// CUDA arrays and texture objects over arrays and pitched 2D memory: copies
// to and from arrays (2D, linear, 3D) round trip; tex2D point and linear
// filtering of float and uchar4 (normalised) textures, normalised
// coordinates with wrap/mirror/clamp/border, tex3D, tex1DLayered and
// tex2DLayered, tex2Dgather, pitch 2D resources and element (integer) reads,
// all checked against a host reference with CUDA's 9-bit filter weights; and
// CUDA's errors for bad sizes, freed arrays and bad texture settings.
// REQUIRES: built-target-host
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// RUN: %if pocl %{ env HETGPU_DEVICE=opencl %t | FileCheck %s %}
// CHECK: info: 4 3 0 32 flags 0
// CHECK: round trip 2D: ok
// CHECK: round trip linear: ok
// CHECK: point float: ok
// CHECK: linear float: ok 9-bit
// CHECK: linear uchar4 normalized: ok
// CHECK: element uchar4: ok
// CHECK: tex2Dgather: ok
// CHECK: wrap: ok
// CHECK: mirror: ok
// CHECK: clamp: ok
// CHECK: border: ok
// CHECK: round trip 3D: ok
// CHECK: tex3D point: ok
// CHECK: tex3D linear: ok
// CHECK: tex2DLayered: ok
// CHECK: tex1DLayered: ok
// CHECK: pitch2D: ok
// cudaFreeArray of a freed array: cudaErrorInvalidValue, the code CUDA's
// documentation gives (CUDA 13 itself dereferences the dead handle).
// CHECK: errors: 1 1 20 1 400 400 1 1 0
// CHECK: ALL PASS

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

struct Query {
  float X, Y, Z;
  int Layer;
};

template <typename T, int Dims, bool Layered>
__global__ void sampleKernel(cudaTextureObject_t Tex, const Query *Q, T *Out,
                             int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  Query P = Q[I];
  if (Dims == 1 && Layered)
    Out[I] = tex1DLayered<T>(Tex, P.X, P.Layer);
  else if (Dims == 2 && Layered)
    tex2DLayered(&Out[I], Tex, P.X, P.Y, P.Layer);
  else if (Dims == 1)
    Out[I] = tex1D<T>(Tex, P.X);
  else if (Dims == 2)
    Out[I] = tex2D<T>(Tex, P.X, P.Y);
  else
    tex3D(&Out[I], Tex, P.X, P.Y, P.Z);
}

template <typename T>
__global__ void gatherKernel(cudaTextureObject_t Tex, const Query *Q, T *Out,
                             int N, int Comp) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = tex2Dgather<T>(Tex, Q[I].X, Q[I].Y, Comp);
}

template <typename T, int Dims, bool Layered = false>
static std::vector<T> sample(cudaTextureObject_t Tex,
                             const std::vector<Query> &Q) {
  Query *DQ;
  T *DOut;
  int N = (int)Q.size();
  cudaMalloc(&DQ, N * sizeof(Query));
  cudaMalloc(&DOut, N * sizeof(T));
  cudaMemcpy(DQ, Q.data(), N * sizeof(Query), cudaMemcpyHostToDevice);
  sampleKernel<T, Dims, Layered><<<(N + 63) / 64, 64>>>(Tex, DQ, DOut, N);
  std::vector<T> Out(N);
  cudaMemcpy(Out.data(), DOut, N * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(DQ);
  cudaFree(DOut);
  return Out;
}

//===-- Host reference ----------------------------------------------------===//

/// A texture's texels as floats: V[(((L * D + z) * H + y) * W + x) * C + c].
struct Image {
  int W, H, D, Layers, C;
  std::vector<float> V;
  float at(int L, int X, int Y, int Z, int Ch) const {
    return V[(((size_t)(L * D + Z) * H + Y) * W + X) * C + Ch];
  }
};

struct Mode {
  bool Linear = false, Norm = false;
  cudaTextureAddressMode Addr = cudaAddressModeClamp;
  float Border[4] = {0, 0, 0, 0};
};

static int refIndex(int I, int N, cudaTextureAddressMode M, bool Norm) {
  if (!Norm && (M == cudaAddressModeWrap || M == cudaAddressModeMirror))
    M = cudaAddressModeClamp;
  if (M == cudaAddressModeWrap)
    return ((I % N) + N) % N;
  if (M == cudaAddressModeMirror) {
    int P = ((I % (2 * N)) + 2 * N) % (2 * N);
    return P < N ? P : 2 * N - 1 - P;
  }
  if (M == cudaAddressModeBorder)
    return I < 0 || I >= N ? -1 : I;
  return I < 0 ? 0 : I >= N ? N - 1 : I;
}

/// CUDA's filtering: weights in 9-bit fixed point (8 fractional bits).
static void reference(const Image &Img, const Mode &M, int Dims, Query Q,
                      float *Out, bool NineBit = true) {
  const int N[3] = {Img.W, Img.H, Img.D};
  const float U[3] = {Q.X, Q.Y, Q.Z};
  int I0[3] = {0, 0, 0};
  float A[3] = {0, 0, 0};
  for (int K = 0; K < Dims; ++K) {
    float X = M.Norm ? U[K] * N[K] : U[K];
    if (M.Linear)
      X -= 0.5f;
    I0[K] = (int)std::floor(X);
    float F = X - std::floor(X);
    A[K] = M.Linear ? (NineBit ? std::round(F * 256.0f) / 256.0f : F) : 0;
  }
  int L = Q.Layer < 0 ? 0 : Q.Layer >= Img.Layers ? Img.Layers - 1 : Q.Layer;
  for (int C = 0; C < 4; ++C)
    Out[C] = 0;
  for (int Corner = 0; Corner < (M.Linear ? 1 << Dims : 1); ++Corner) {
    float W = 1;
    int Idx[3] = {0, 0, 0};
    bool Border = false;
    for (int K = 0; K < Dims; ++K) {
      int Bit = (Corner >> K) & 1;
      W *= Bit ? A[K] : 1 - A[K];
      Idx[K] = refIndex(I0[K] + Bit, N[K], M.Addr, M.Norm);
      Border |= Idx[K] < 0;
    }
    for (int C = 0; C < Img.C; ++C)
      Out[C] += W * (Border ? M.Border[C] : Img.at(L, Idx[0], Idx[1], Idx[2], C));
  }
}

static bool close(float A, float B) { return std::fabs(A - B) <= 1e-4f; }

static int Failures = 0;

/// Compares device results \p Got (\p C floats each) with the reference.
static void check(const char *What, const float *Got, const Image &Img,
                  const Mode &M, int Dims, const std::vector<Query> &Q,
                  const char *Extra = "") {
  int Bad = 0;
  for (size_t I = 0; I < Q.size(); ++I) {
    float R[4];
    reference(Img, M, Dims, Q[I], R);
    for (int C = 0; C < Img.C; ++C)
      if (!close(Got[I * Img.C + C], R[C])) {
        if (Bad++ < 4)
          std::printf("  %s[%zu] (%g, %g, %g | %d).%d: got %g, want %g\n",
                      What, I, Q[I].X, Q[I].Y, Q[I].Z, Q[I].Layer, C,
                      Got[I * Img.C + C], R[C]);
      }
  }
  Failures += Bad != 0;
  std::printf("%s: %s%s\n", What, Bad ? "FAILED" : "ok", Extra);
}

static cudaTextureObject_t makeTex(const cudaResourceDesc &R, const Mode &M,
                                   cudaTextureReadMode Read) {
  cudaTextureDesc T;
  std::memset(&T, 0, sizeof T);
  for (int K = 0; K < 3; ++K)
    T.addressMode[K] = M.Addr;
  T.filterMode = M.Linear ? cudaFilterModeLinear : cudaFilterModePoint;
  T.readMode = Read;
  T.normalizedCoords = M.Norm;
  for (int C = 0; C < 4; ++C)
    T.borderColor[C] = M.Border[C];
  cudaTextureObject_t Obj = 0;
  cudaError_t E = cudaCreateTextureObject(&Obj, &R, &T, nullptr);
  if (E != cudaSuccess) {
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

/// 2D queries over a W x H texture: texel centres, fractions, outside.
static std::vector<Query> grid2D(float W, float H, bool Norm) {
  std::vector<Query> Q;
  const float Xs[] = {-1.3f, 0.0f, 0.5f, 0.8333f, 1.25f, 2.7f, 3.5f, 4.2f, 6.0f};
  const float Ys[] = {-0.7f, 0.5f, 1.1f, 1.6f, 2.5f, 3.9f};
  for (float Y : Ys)
    for (float X : Xs)
      Q.push_back(Norm ? Query{X / W, Y / H, 0, 0} : Query{X, Y, 0, 0});
  return Q;
}

//===-- Sections ----------------------------------------------------------===//

/// A 4 x 3 float array: copies, info, point and linear tex2D.
static void floatArray() {
  const int W = 4, H = 3;
  Image Img{W, H, 1, 1, 1, {}};
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X)
      Img.V.push_back(Y * 100.0f + X * 10.0f + (X * Y % 3));
  cudaChannelFormatDesc Fmt = cudaCreateChannelDesc<float>();
  cudaArray_t A;
  cudaMallocArray(&A, &Fmt, W, H);
  cudaMemcpy2DToArray(A, 0, 0, Img.V.data(), W * sizeof(float),
                      W * sizeof(float), H, cudaMemcpyHostToDevice);
  cudaChannelFormatDesc GotFmt;
  cudaExtent Ext;
  unsigned Flags = 7;
  cudaArrayGetInfo(&GotFmt, &Ext, &Flags, A);
  std::printf("info: %zu %zu %zu %d flags %u\n", Ext.width, Ext.height,
              Ext.depth, GotFmt.x, Flags);
  // 2D round trip of an inner 2 x 2 block, then the linear (deprecated) form.
  float Back[W * H] = {}, Block[4];
  cudaMemcpy2DFromArray(Block, 2 * sizeof(float), A, 1 * sizeof(float), 1,
                        2 * sizeof(float), 2, cudaMemcpyDeviceToHost);
  bool Ok = Block[0] == Img.at(0, 1, 1, 0, 0) && Block[3] == Img.at(0, 2, 2, 0, 0);
  cudaMemcpy2DFromArray(Back, W * sizeof(float), A, 0, 0, W * sizeof(float), H,
                        cudaMemcpyDeviceToHost);
  Ok = Ok && std::memcmp(Back, Img.V.data(), sizeof Back) == 0;
  std::printf("round trip 2D: %s\n", Ok ? "ok" : "FAILED");
  Failures += !Ok;
  float Lin[5];
  cudaMemcpyFromArray(Lin, A, 2 * sizeof(float), 1, sizeof Lin,
                      cudaMemcpyDeviceToHost);
  Ok = std::memcmp(Lin, &Img.V[1 * W + 2], sizeof Lin) == 0;
  float Seven = 7.0f;
  cudaMemcpyToArray(A, 3 * sizeof(float), 2, &Seven, sizeof Seven,
                    cudaMemcpyHostToDevice);
  cudaMemcpyFromArray(Lin, A, 3 * sizeof(float), 2, sizeof(float),
                      cudaMemcpyDeviceToHost);
  Ok = Ok && Lin[0] == 7.0f;
  std::printf("round trip linear: %s\n", Ok ? "ok" : "FAILED");
  Failures += !Ok;
  Img.V[2 * W + 3] = 7.0f;

  Mode M;
  auto Q = grid2D(W, H, false);
  cudaTextureObject_t T = makeTex(arrayRes(A), M, cudaReadModeElementType);
  check("point float", sample<float, 2>(T, Q).data(), Img, M, 2, Q);
  cudaDestroyTextureObject(T);
  M.Linear = true;
  T = makeTex(arrayRes(A), M, cudaReadModeElementType);
  auto Got = sample<float, 2>(T, Q);
  // x = 0.8333: alpha 0.3333 exactly, 85/256 in 9 bits; the weights differ.
  float Exact[4], Nine[4];
  reference(Img, M, 2, Q[3 + 9], Exact, false);
  reference(Img, M, 2, Q[3 + 9], Nine, true);
  bool Differs = !close(Exact[0], Nine[0]) && close(Got[3 + 9], Nine[0]);
  check("linear float", Got.data(), Img, M, 2, Q,
        Differs ? " 9-bit" : " exact weights?");
  cudaDestroyTextureObject(T);
  cudaFreeArray(A);
}

/// A 4 x 4 uchar4 array read as normalised floats with linear filtering.
static void uchar4Array() {
  const int W = 4, H = 4;
  std::vector<uchar4> Texels;
  Image Img{W, H, 1, 1, 4, {}};
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X) {
      uchar4 V = make_uchar4(X * 60, Y * 80, (X * 37 + Y * 91) % 256, 255 - X);
      Texels.push_back(V);
      for (unsigned char C : {V.x, V.y, V.z, V.w})
        Img.V.push_back(C / 255.0f);
    }
  cudaChannelFormatDesc Fmt = cudaCreateChannelDesc<uchar4>();
  cudaArray_t A;
  cudaMallocArray(&A, &Fmt, W, H);
  cudaMemcpy2DToArray(A, 0, 0, Texels.data(), W * sizeof(uchar4),
                      W * sizeof(uchar4), H, cudaMemcpyHostToDevice);
  Mode M;
  M.Linear = true;
  auto Q = grid2D(W, H, false);
  cudaTextureObject_t T = makeTex(arrayRes(A), M, cudaReadModeNormalizedFloat);
  check("linear uchar4 normalized", &sample<float4, 2>(T, Q)[0].x, Img, M, 2,
        Q);
  cudaDestroyTextureObject(T);
  // Element reads of the same array (point filtering, as stored).
  M.Linear = false;
  T = makeTex(arrayRes(A), M, cudaReadModeElementType);
  std::vector<Query> P = {{0.5f, 0.5f, 0, 0}, {3.9f, 2.2f, 0, 0},
                          {-4.0f, 9.0f, 0, 0}};
  auto E = sample<uchar4, 2>(T, P);
  bool Ok = E[0].x == Texels[0].x && E[0].w == Texels[0].w &&
            E[1].z == Texels[2 * W + 3].z && E[1].y == Texels[2 * W + 3].y &&
            E[2].x == Texels[3 * W].x && E[2].w == Texels[3 * W].w;
  std::printf("element uchar4: %s\n", Ok ? "ok" : "FAILED");
  Failures += !Ok;
  // tex2Dgather: channel 1 of the bilinear footprint, counter-clockwise
  // from (i, j + 1), clamped; as normalised floats and as stored.
  cudaDestroyTextureObject(T);
  T = makeTex(arrayRes(A), M, cudaReadModeNormalizedFloat);
  auto Q2 = grid2D(W, H, false);
  Query *DQ;
  float4 *DF;
  cudaMalloc(&DQ, Q2.size() * sizeof(Query));
  cudaMalloc(&DF, Q2.size() * sizeof(float4));
  cudaMemcpy(DQ, Q2.data(), Q2.size() * sizeof(Query), cudaMemcpyHostToDevice);
  gatherKernel<<<1, (int)Q2.size()>>>(T, DQ, DF, (int)Q2.size(), 1);
  std::vector<float4> G(Q2.size());
  cudaMemcpy(G.data(), DF, G.size() * sizeof(float4), cudaMemcpyDeviceToHost);
  cudaTextureObject_t TE = makeTex(arrayRes(A), M, cudaReadModeElementType);
  gatherKernel<<<1, (int)Q2.size()>>>(TE, DQ, (uchar4 *)DF, (int)Q2.size(), 2);
  std::vector<uchar4> GE(Q2.size());
  cudaMemcpy(GE.data(), DF, GE.size() * sizeof(uchar4), cudaMemcpyDeviceToHost);
  Ok = true;
  for (size_t K = 0; K < Q2.size(); ++K) {
    int I = (int)std::floor(Q2[K].X - 0.5f), J = (int)std::floor(Q2[K].Y - 0.5f);
    const int DI[4] = {0, 1, 1, 0}, DJ[4] = {1, 1, 0, 0};
    const float *GF = &G[K].x;
    const unsigned char *GU = &GE[K].x;
    for (int C = 0; C < 4; ++C) {
      int X = refIndex(I + DI[C], W, cudaAddressModeClamp, false);
      int Y = refIndex(J + DJ[C], H, cudaAddressModeClamp, false);
      Ok &= close(GF[C], Img.at(0, X, Y, 0, 1)) && GU[C] == Texels[Y * W + X].z;
    }
  }
  std::printf("tex2Dgather: %s\n", Ok ? "ok" : "FAILED");
  Failures += !Ok;
  cudaDestroyTextureObject(TE);
  cudaFree(DQ);
  cudaFree(DF);
  cudaDestroyTextureObject(T);
  cudaFreeArray(A);
}

/// Normalised coordinates under each address mode (point and linear).
static void addressModes() {
  const int W = 5, H = 3;
  Image Img{W, H, 1, 1, 1, {}};
  for (int I = 0; I < W * H; ++I)
    Img.V.push_back((float)(I * I % 17));
  cudaChannelFormatDesc Fmt = cudaCreateChannelDesc<float>();
  cudaArray_t A;
  cudaMallocArray(&A, &Fmt, W, H);
  cudaMemcpyToArray(A, 0, 0, Img.V.data(), W * H * sizeof(float),
                    cudaMemcpyHostToDevice);
  std::vector<Query> Q;
  const float Us[] = {-1.35f, -0.5f, -0.1f, 0.05f, 0.3f, 0.97f, 1.1f, 1.62f, 2.3f};
  for (float V : {-0.4f, 0.2f, 0.7f, 1.3f})
    for (float U : Us)
      Q.push_back({U, V, 0, 0});
  const cudaTextureAddressMode Modes[] = {cudaAddressModeWrap, cudaAddressModeMirror,
                                          cudaAddressModeClamp, cudaAddressModeBorder};
  const char *Names[] = {"wrap", "mirror", "clamp", "border"};
  for (int I = 0; I < 4; ++I) {
    bool Ok = true;
    for (bool Linear : {false, true}) {
      Mode M;
      M.Norm = true;
      M.Linear = Linear;
      M.Addr = Modes[I];
      M.Border[0] = -2.5f;
      cudaTextureObject_t T = makeTex(arrayRes(A), M, cudaReadModeElementType);
      auto Got = sample<float, 2>(T, Q);
      for (size_t K = 0; K < Q.size(); ++K) {
        float R[4];
        reference(Img, M, 2, Q[K], R);
        if (!close(Got[K], R[0])) {
          std::printf("  %s %s (%g, %g): got %g, want %g\n", Names[I],
                      Linear ? "linear" : "point", Q[K].X, Q[K].Y, Got[K], R[0]);
          Ok = false;
        }
      }
      cudaDestroyTextureObject(T);
    }
    std::printf("%s: %s\n", Names[I], Ok ? "ok" : "FAILED");
    Failures += !Ok;
  }
  cudaFreeArray(A);
}

/// A 3 x 4 x 2 float array filled with cudaMemcpy3D from pitched memory.
static void array3D() {
  const int W = 3, H = 4, D = 2;
  Image Img{W, H, D, 1, 1, {}};
  for (int I = 0; I < W * H * D; ++I)
    Img.V.push_back(I * 1.5f - 4.0f);
  cudaChannelFormatDesc Fmt = cudaCreateChannelDesc<float>();
  cudaArray_t A;
  cudaMalloc3DArray(&A, &Fmt, make_cudaExtent(W, H, D));
  cudaMemcpy3DParms P;
  std::memset(&P, 0, sizeof P);
  P.srcPtr = make_cudaPitchedPtr(Img.V.data(), W * sizeof(float), W, H);
  P.dstArray = A;
  P.extent = make_cudaExtent(W, H, D);
  P.kind = cudaMemcpyHostToDevice;
  cudaError_t E1 = cudaMemcpy3D(&P);
  // Back through pitched device memory (cudaMalloc3D) to the host.
  cudaPitchedPtr Dev;
  cudaMalloc3D(&Dev, make_cudaExtent(W * sizeof(float), H, D));
  std::memset(&P, 0, sizeof P);
  P.srcArray = A;
  P.dstPtr = Dev;
  P.extent = make_cudaExtent(W, H, D);
  P.kind = cudaMemcpyDeviceToDevice;
  cudaError_t E2 = cudaMemcpy3D(&P);
  std::vector<float> Back(W * H * D);
  std::memset(&P, 0, sizeof P);
  P.srcPtr = Dev;
  P.dstPtr = make_cudaPitchedPtr(Back.data(), W * sizeof(float), W, H);
  P.extent = make_cudaExtent(W * sizeof(float), H, D); // bytes: no array
  P.kind = cudaMemcpyDeviceToHost;
  cudaError_t E3 = cudaMemcpy3D(&P);
  bool Ok = !E1 && !E2 && !E3 && Back == Img.V;
  std::printf("round trip 3D: %s\n", Ok ? "ok" : "FAILED");
  Failures += !Ok;
  cudaFree(Dev.ptr);
  std::vector<Query> Q;
  for (float Z : {-0.2f, 0.4f, 1.0f, 1.7f, 2.4f})
    for (float Y : {0.3f, 1.5f, 3.99f})
      for (float X : {0.1f, 1.6f, 2.5f, 3.2f})
        Q.push_back({X, Y, Z, 0});
  Mode M;
  cudaTextureObject_t T = makeTex(arrayRes(A), M, cudaReadModeElementType);
  check("tex3D point", sample<float, 3>(T, Q).data(), Img, M, 3, Q);
  cudaDestroyTextureObject(T);
  M.Linear = true;
  T = makeTex(arrayRes(A), M, cudaReadModeElementType);
  check("tex3D linear", sample<float, 3>(T, Q).data(), Img, M, 3, Q);
  cudaDestroyTextureObject(T);
  cudaFreeArray(A);
}

/// Layered arrays: 2D (3 x 2, 4 layers, float2) and 1D (5 texels, 3 layers).
static void layered() {
  Image Img{3, 2, 1, 4, 2, {}};
  for (int I = 0; I < 3 * 2 * 4 * 2; ++I)
    Img.V.push_back(I * 0.25f);
  cudaChannelFormatDesc Fmt = cudaCreateChannelDesc<float2>();
  cudaArray_t A;
  cudaMalloc3DArray(&A, &Fmt, make_cudaExtent(3, 2, 4), cudaArrayLayered);
  cudaMemcpy3DParms P;
  std::memset(&P, 0, sizeof P);
  P.srcPtr = make_cudaPitchedPtr(Img.V.data(), 3 * sizeof(float2), 3, 2);
  P.dstArray = A;
  P.extent = make_cudaExtent(3, 2, 4);
  P.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&P);
  std::vector<Query> Q;
  for (int L : {0, 1, 3, 7})
    for (float Y : {0.2f, 1.3f, 2.4f})
      for (float X : {0.6f, 1.75f, 2.9f})
        Q.push_back({X, Y, 0, L});
  Mode M;
  M.Linear = true;
  cudaTextureObject_t T = makeTex(arrayRes(A), M, cudaReadModeElementType);
  check("tex2DLayered", &sample<float2, 2, true>(T, Q)[0].x, Img, M, 2, Q);
  cudaDestroyTextureObject(T);
  cudaFreeArray(A);

  Image Img1{5, 1, 1, 3, 1, {}};
  for (int I = 0; I < 15; ++I)
    Img1.V.push_back(100.0f - I * I);
  Fmt = cudaCreateChannelDesc<float>();
  cudaMalloc3DArray(&A, &Fmt, make_cudaExtent(5, 0, 3), cudaArrayLayered);
  cudaMemcpy2DToArray(A, 0, 0, Img1.V.data(), 5 * sizeof(float),
                      5 * sizeof(float), 3, cudaMemcpyHostToDevice);
  Q.clear();
  for (int L : {0, 1, 2})
    for (float X : {-1.0f, 0.5f, 1.9f, 3.3f, 4.6f, 7.0f})
      Q.push_back({X, 0, 0, L});
  M.Linear = false;
  T = makeTex(arrayRes(A), M, cudaReadModeElementType);
  check("tex1DLayered", sample<float, 1, true>(T, Q).data(), Img1, M, 1, Q);
  cudaDestroyTextureObject(T);
  cudaFreeArray(A);
}

/// Pitched 2D memory (cudaMallocPitch) with linear filtering.
static void pitch2D() {
  const int W = 5, H = 3;
  Image Img{W, H, 1, 1, 1, {}};
  for (int I = 0; I < W * H; ++I)
    Img.V.push_back(std::sin(I * 0.7f) * 10.0f);
  void *Dev;
  size_t Pitch;
  cudaMallocPitch(&Dev, &Pitch, W * sizeof(float), H);
  cudaMemcpy2D(Dev, Pitch, Img.V.data(), W * sizeof(float), W * sizeof(float),
               H, cudaMemcpyHostToDevice);
  cudaResourceDesc R;
  std::memset(&R, 0, sizeof R);
  R.resType = cudaResourceTypePitch2D;
  R.res.pitch2D.devPtr = Dev;
  R.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  R.res.pitch2D.width = W;
  R.res.pitch2D.height = H;
  R.res.pitch2D.pitchInBytes = Pitch;
  Mode M;
  M.Linear = true;
  M.Norm = true;
  M.Addr = cudaAddressModeWrap;
  auto Q = grid2D(W, H, true);
  cudaTextureObject_t T = makeTex(R, M, cudaReadModeElementType);
  check("pitch2D", sample<float, 2>(T, Q).data(), Img, M, 2, Q);
  cudaDestroyTextureObject(T);
  cudaFree(Dev);
}

/// CUDA's errors.
static void errors() {
  cudaChannelFormatDesc Fmt = cudaCreateChannelDesc<float>();
  cudaArray_t A = nullptr, B = nullptr;
  int E0 = cudaMallocArray(&A, &Fmt, 0, 4);        // zero width
  int E1 = cudaMallocArray(&A, &Fmt, 16, 1 << 20); // too tall
  cudaChannelFormatDesc Odd = cudaCreateChannelDesc(24, 0, 0, 0,
                                                    cudaChannelFormatKindFloat);
  int E2 = cudaMallocArray(&A, &Odd, 4, 4);
  cudaMallocArray(&B, &Fmt, 4, 4);
  cudaFreeArray(B);
  float H[4] = {};
  int E3 = cudaFreeArray(B);
  int E4 = cudaMemcpy2DToArray(B, 0, 0, H, 16, 16, 1, cudaMemcpyHostToDevice);
  cudaResourceDesc R;
  std::memset(&R, 0, sizeof R);
  R.resType = cudaResourceTypeArray;
  R.res.array.array = B;
  cudaTextureDesc T;
  std::memset(&T, 0, sizeof T);
  cudaTextureObject_t Obj;
  int E5 = cudaCreateTextureObject(&Obj, &R, &T, nullptr);
  cudaMallocArray(&B, &Fmt, 4, 4);
  int E6 = cudaMemcpy2DToArray(B, 4, 0, H, 16, 16, 1, cudaMemcpyHostToDevice);
  // Linear filtering of integer texels read as integers.
  cudaChannelFormatDesc IntFmt = cudaCreateChannelDesc<int>();
  cudaArray_t C;
  cudaMallocArray(&C, &IntFmt, 4, 4);
  R.res.array.array = C;
  T.filterMode = cudaFilterModeLinear;
  int E7 = cudaCreateTextureObject(&Obj, &R, &T, nullptr);
  int E8 = cudaFreeArray(nullptr);
  cudaGetLastError();
  std::printf("errors: %d %d %d %d %d %d %d %d %d\n", E0, E1, E2, E3, E4, E5,
              E6, E7, E8);
  Failures += !(E0 == 1 && E1 == 1 && E2 == 20 && E3 == 1 && E4 == 400 &&
                E5 == 400 && E6 == 1 && E7 == 1 && E8 == 0);
  cudaFreeArray(B);
  cudaFreeArray(C);
}

int main() {
  floatArray();
  uchar4Array();
  addressModes();
  array3D();
  layered();
  pitch2D();
  errors();
  std::printf(Failures ? "FAILED\n" : "ALL PASS\n");
  return Failures != 0;
}
