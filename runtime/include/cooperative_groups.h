//===- cooperative_groups.h - CUDA cooperative groups -----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// namespace cooperative_groups: thread_block, thread_block_tile<N>
/// (tiled_partition<N>), dynamically sized tiles (tiled_partition(g, n)),
/// coalesced_group (coalesced_threads()), the type-erased thread_group,
/// grid_group (this_grid()) and cg::sync(g). Reductions are in
/// cooperative_groups/reduce.h, scans in cooperative_groups/scan.h.
///
/// Built on the CUDA device API of these headers (barrier, warp builtins);
/// warps are 32 lanes on every target, a thread's lane is its linear thread
/// index in the block modulo 32, so a tile of N <= 32 threads is N
/// consecutive lanes of one warp.
///
/// Tiles of more than 32 threads (tiled_partition<64..1024>, CUDA 11.1's
/// multi-warp tiles with block_tile_memory) are whole warps; their sync() and
/// collectives (cg::reduce) use the block barrier, so every thread of the
/// block must reach them together (CUDA only requires the tile's threads).
/// They have no shfl/any/all/ballot/match (CUDA has none either).
///
/// grid_group::sync() is a grid-wide barrier for cooperative launches
/// (cudaLaunchCooperativeKernel). Tiles must be a power of two no larger
/// than 1024 threads.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_COOPERATIVE_GROUPS_H
#define HETGPU_COOPERATIVE_GROUPS_H

// Device language: empty in a plain C/C++ (non-CUDA) compile.
#if defined(__CUDA__)

#include <cuda_runtime.h>

#pragma push_macro("__HG_CG")
#define __HG_CG __device__ __inline__ __attribute__((always_inline))

namespace cooperative_groups {

namespace details {
template <class T> struct dependent_false {
  static constexpr bool value = false;
};

__HG_CG unsigned int block_rank_linear() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
__HG_CG unsigned int block_size_linear() {
  return blockDim.x * blockDim.y * blockDim.z;
}
/// The lanes of the calling thread's tile of \p n (power of two <= 32)
/// threads.
__HG_CG unsigned int tile_mask(unsigned int n) {
  if (n >= 32)
    return 0xffffffffu;
  unsigned int lane = __lane_id();
  return ((1u << n) - 1u) << (lane & ~(n - 1u));
}
/// The lane of the \p rank-th (0-based) set bit of \p mask.
__HG_CG int lane_of_rank(unsigned int mask, unsigned int rank) {
  return (int)__fns(mask, 0, (int)rank + 1);
}
/// Bits of \p bits at the positions set in \p mask, packed to the bottom.
__HG_CG unsigned int compact(unsigned int bits, unsigned int mask) {
  unsigned int r = 0, k = 0;
  for (int l = 0; l < 32; ++l)
    if ((mask >> l) & 1u)
      r |= ((bits >> l) & 1u) << k++;
  return r;
}

/// Shuffle of any trivially copyable type, 32 bits at a time.
enum shfl_kind { shfl_idx, shfl_up, shfl_down, shfl_xor };
template <class T>
__HG_CG T shfl(shfl_kind kind, unsigned int mask, T value, int lane,
               int width) {
  constexpr int words = (int)((sizeof(T) + 3) / 4);
  int w[words];
  w[words - 1] = 0;
  __builtin_memcpy(w, &value, sizeof(T));
  for (int i = 0; i < words; ++i) {
    switch (kind) {
    case shfl_idx:
      w[i] = __hetgpu_shfl_idx_i32(mask, w[i], lane, width);
      break;
    case shfl_up:
      w[i] = __hetgpu_shfl_up_i32(mask, w[i], lane, width);
      break;
    case shfl_down:
      w[i] = __hetgpu_shfl_down_i32(mask, w[i], lane, width);
      break;
    case shfl_xor:
      w[i] = __hetgpu_shfl_xor_i32(mask, w[i], lane, width);
      break;
    }
  }
  T result = value;
  __builtin_memcpy(&result, w, sizeof(T));
  return result;
}

enum group_kind { kind_block, kind_tile, kind_coalesced, kind_grid };
} // namespace details

/// A group of threads of any kind (what tiled_partition(g, n) returns, and
/// what every group converts to).
class thread_group {
protected:
  details::group_kind kind_;
  unsigned int size_; // tile size for tiles
  unsigned int mask_; // lanes, for coalesced groups

  __HG_CG thread_group(details::group_kind kind, unsigned int size,
                       unsigned int mask)
      : kind_(kind), size_(size), mask_(mask) {}

public:
  __HG_CG unsigned int size() const {
    switch (kind_) {
    case details::kind_block:
      return details::block_size_linear();
    case details::kind_coalesced:
      return (unsigned int)__popc(mask_);
    default:
      return size_;
    }
  }
  __HG_CG unsigned int num_threads() const { return size(); }
  __HG_CG unsigned int thread_rank() const {
    switch (kind_) {
    case details::kind_block:
      return details::block_rank_linear();
    case details::kind_coalesced:
      return (unsigned int)__popc(mask_ & __lanemask_lt());
    default:
      return details::block_rank_linear() & (size_ - 1u);
    }
  }
  __HG_CG void sync() const {
    switch (kind_) {
    case details::kind_block:
      __syncthreads();
      break;
    case details::kind_coalesced:
      __syncwarp(mask_);
      break;
    default:
      if (size_ > 32)
        __syncthreads();
      else
        __syncwarp(details::tile_mask(size_));
      break;
    }
  }
  __HG_CG bool is_valid() const { return true; }
};

/// The thread block of the calling thread.
class thread_block : public thread_group {
  friend __device__ thread_block this_thread_block();
  __HG_CG thread_block() : thread_group(details::kind_block, 0, 0) {}

public:
  static __HG_CG void sync() { __syncthreads(); }
  static __HG_CG unsigned int thread_rank() {
    return details::block_rank_linear();
  }
  static __HG_CG unsigned int size() { return details::block_size_linear(); }
  static __HG_CG unsigned int num_threads() {
    return details::block_size_linear();
  }
  static __HG_CG dim3 group_index() { return dim3(blockIdx); }
  static __HG_CG dim3 thread_index() { return dim3(threadIdx); }
  static __HG_CG dim3 dim_threads() { return dim3(blockDim); }
  static __HG_CG dim3 group_dim() { return dim3(blockDim); }
};

__HG_CG thread_block this_thread_block() { return thread_block(); }

/// Shared scratch that CUDA's multi-warp tiles communicate through. hetGPU's
/// multi-warp collectives bring their own shared storage, so this only keeps
/// the declaration (`__shared__ block_tile_memory<256> scratch;`) and
/// this_thread_block(scratch) compiling.
template <unsigned int MaxBlockSize = 1024> struct block_tile_memory {
  static_assert(MaxBlockSize > 0 && MaxBlockSize <= 1024,
                "block_tile_memory<MaxBlockSize>: 1 to 1024 threads");
  unsigned char reserved[4];
};
template <unsigned int MaxBlockSize>
__HG_CG thread_block this_thread_block(block_tile_memory<MaxBlockSize> &) {
  return this_thread_block();
}

template <unsigned int N, class ParentT> class thread_block_tile;
namespace details {
/// The static size of a tile type, 0 for anything else (a block).
template <class G> struct tile_size {
  static constexpr unsigned int value = 0;
};
template <unsigned int N, class P> struct tile_size<thread_block_tile<N, P>> {
  static constexpr unsigned int value = N;
};
} // namespace details

/// A statically sized tile of N consecutive threads (N a power of two,
/// N <= 1024; above 32 a tile is N / 32 whole warps).
template <unsigned int N, class ParentT = void>
class thread_block_tile : public thread_group {
  static_assert(N > 0 && N <= 1024 && (N & (N - 1)) == 0,
                "hetGPU: thread_block_tile<N> needs N a power of two <= 1024");
  template <class T> struct warp_only {
    static_assert(details::dependent_false<T>::value || N <= 32,
                  "hetGPU: shuffles, votes and matches exist only for tiles "
                  "of at most 32 threads (as in CUDA)");
    typedef T type;
  };

public:
  __HG_CG thread_block_tile() : thread_group(details::kind_tile, N, 0) {}
  // Tiles with a known parent convert to the parent-less type.
  template <class P>
  __HG_CG thread_block_tile(const thread_block_tile<N, P> &)
      : thread_group(details::kind_tile, N, 0) {}

  static constexpr unsigned int num_threads_v = N;
  __HG_CG unsigned int mask() const { return details::tile_mask(N); }
  __HG_CG void sync() const {
    if (N > 32)
      __syncthreads();
    else
      __syncwarp(mask());
  }
  __HG_CG unsigned int thread_rank() const {
    return details::block_rank_linear() & (N - 1u);
  }
  static constexpr __HG_CG unsigned int size() { return N; }
  static constexpr __HG_CG unsigned int num_threads() { return N; }
  /// Rank of this tile within its parent (the block, or the larger tile it
  /// was partitioned from) and the number of such tiles there.
  __HG_CG unsigned int meta_group_rank() const {
    constexpr unsigned int P = details::tile_size<ParentT>::value;
    return P ? (details::block_rank_linear() & (P - 1u)) / N
             : details::block_rank_linear() / N;
  }
  __HG_CG unsigned int meta_group_size() const {
    constexpr unsigned int P = details::tile_size<ParentT>::value;
    return P ? P / N : (details::block_size_linear() + N - 1) / N;
  }

  template <class T>
  __HG_CG typename warp_only<T>::type shfl(T var, int srcRank) const {
    return details::shfl(details::shfl_idx, mask(), var, srcRank, (int)N);
  }
  template <class T>
  __HG_CG typename warp_only<T>::type shfl_up(T var, unsigned int delta) const {
    return details::shfl(details::shfl_up, mask(), var, (int)delta, (int)N);
  }
  template <class T>
  __HG_CG typename warp_only<T>::type shfl_down(T var, unsigned int delta) const {
    return details::shfl(details::shfl_down, mask(), var, (int)delta, (int)N);
  }
  template <class T>
  __HG_CG typename warp_only<T>::type shfl_xor(T var, unsigned int laneMask) const {
    return details::shfl(details::shfl_xor, mask(), var, (int)laneMask, (int)N);
  }
  template <class P = int>
  __HG_CG int any(typename warp_only<P>::type pred) const {
    return __any_sync(mask(), pred);
  }
  template <class P = int>
  __HG_CG int all(typename warp_only<P>::type pred) const {
    return __all_sync(mask(), pred);
  }
  /// Bit i is thread i of the tile.
  template <class P = int>
  __HG_CG unsigned int ballot(typename warp_only<P>::type pred) const {
    unsigned int b = __ballot_sync(mask(), pred);
    return N == 32 ? b : (b >> (__lane_id() & ~(N - 1u))) & ((1u << N) - 1u);
  }
  template <class T>
  __HG_CG unsigned int match_any(typename warp_only<T>::type val) const {
    unsigned int m = __match_any_sync(mask(), val);
    return N == 32 ? m : (m >> (__lane_id() & ~(N - 1u))) & ((1u << N) - 1u);
  }
  template <class T> __HG_CG unsigned int match_all(T val, int &pred) const {
    unsigned int m = __match_all_sync(mask(), val, &pred);
    return N == 32 ? m : (m >> (__lane_id() & ~(N - 1u))) & ((1u << N) - 1u);
  }
};

/// tiled_partition<N>(g): the calling thread's tile of N threads of g (a
/// thread_block or a larger tile).
template <unsigned int N, class ParentT>
__HG_CG thread_block_tile<N, ParentT> tiled_partition(const ParentT &) {
  return thread_block_tile<N, ParentT>();
}

/// tiled_partition(g, n): a dynamically sized tile (n a power of two <= 32,
/// or the whole block), as a thread_group.
class __hg_dynamic_tile : public thread_group {
public:
  __HG_CG explicit __hg_dynamic_tile(unsigned int n)
      : thread_group(details::kind_tile, n, 0) {}
};
__HG_CG thread_group tiled_partition(const thread_group &parent,
                                     unsigned int tilesz) {
  if (tilesz >= parent.size())
    return parent;
  return __hg_dynamic_tile(tilesz);
}

/// The threads of the warp that are active at the call.
class coalesced_group : public thread_group {
  friend __device__ coalesced_group coalesced_threads();
  __HG_CG explicit coalesced_group(unsigned int mask)
      : thread_group(details::kind_coalesced, 0, mask) {}

public:
  __HG_CG unsigned int mask() const { return mask_; }
  __HG_CG unsigned int size() const { return (unsigned int)__popc(mask_); }
  __HG_CG unsigned int num_threads() const { return size(); }
  __HG_CG unsigned int thread_rank() const {
    return (unsigned int)__popc(mask_ & __lanemask_lt());
  }
  __HG_CG unsigned int meta_group_rank() const { return 0; }
  __HG_CG unsigned int meta_group_size() const { return 1; }
  __HG_CG void sync() const { __syncwarp(mask_); }

  template <class T> __HG_CG T shfl(T var, unsigned int srcRank) const {
    return details::shfl(details::shfl_idx, mask_, var,
                         details::lane_of_rank(mask_, srcRank), 32);
  }
  template <class T> __HG_CG T shfl_up(T var, unsigned int delta) const {
    unsigned int r = thread_rank();
    int src =
        r >= delta ? details::lane_of_rank(mask_, r - delta) : (int)__lane_id();
    return details::shfl(details::shfl_idx, mask_, var, src, 32);
  }
  template <class T> __HG_CG T shfl_down(T var, unsigned int delta) const {
    unsigned int r = thread_rank();
    int src = r + delta < size() ? details::lane_of_rank(mask_, r + delta)
                                 : (int)__lane_id();
    return details::shfl(details::shfl_idx, mask_, var, src, 32);
  }
  __HG_CG int any(int pred) const { return __any_sync(mask_, pred); }
  __HG_CG int all(int pred) const { return __all_sync(mask_, pred); }
  /// Bit i is thread (rank) i of the group.
  __HG_CG unsigned int ballot(int pred) const {
    return details::compact(__ballot_sync(mask_, pred), mask_);
  }
  template <class T> __HG_CG unsigned int match_any(T val) const {
    return details::compact(__match_any_sync(mask_, val), mask_);
  }
};

__HG_CG coalesced_group coalesced_threads() {
  return coalesced_group(__activemask());
}

/// The whole grid. sync() is a grid-wide barrier (__hetgpu_grid_sync,
/// which the translator expands per device: docs/Runtime.md "Cooperative
/// launches"). It holds in a cudaLaunchCooperativeKernel launch: where the
/// device runs every block at once (the runtime refuses larger grids with
/// cudaErrorCooperativeLaunchTooLarge) a spin barrier, on OpenCL the end of
/// a round of the launch. In an ordinary launch whose blocks do not all
/// run at once the spin barrier waits forever, as on CUDA. Cooperative
/// kernels of one module must not run concurrently (they share the spin
/// barrier's words).
class grid_group {
  friend __device__ grid_group this_grid();
  __HG_CG grid_group() {}

public:
  __HG_CG bool is_valid() const { return true; }
  __HG_CG void sync() const { __hetgpu_grid_sync(); }
  __HG_CG unsigned long long thread_rank() const {
    unsigned long long block =
        ((unsigned long long)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x +
        blockIdx.x;
    return block * details::block_size_linear() + details::block_rank_linear();
  }
  __HG_CG unsigned long long size() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z *
           details::block_size_linear();
  }
  __HG_CG unsigned long long num_threads() const { return size(); }
  __HG_CG unsigned long long num_blocks() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
  }
  __HG_CG unsigned long long block_rank() const {
    return ((unsigned long long)blockIdx.z * gridDim.y + blockIdx.y) *
               gridDim.x +
           blockIdx.x;
  }
  __HG_CG dim3 group_dim() const { return dim3(gridDim); }
  __HG_CG dim3 dim_blocks() const { return dim3(gridDim); }
  __HG_CG dim3 block_index() const { return dim3(blockIdx); }
};

__HG_CG grid_group this_grid() { return grid_group(); }

/// cg::sync(g) == g.sync().
template <class GroupT> __HG_CG void sync(const GroupT &g) { g.sync(); }
/// Rank and size as free functions.
template <class GroupT>
__HG_CG unsigned long long thread_rank(const GroupT &g) {
  return g.thread_rank();
}
template <class GroupT> __HG_CG unsigned long long group_size(const GroupT &g) {
  return g.size();
}

} // namespace cooperative_groups

#pragma pop_macro("__HG_CG")

#endif // __CUDA__

#endif // HETGPU_COOPERATIVE_GROUPS_H
