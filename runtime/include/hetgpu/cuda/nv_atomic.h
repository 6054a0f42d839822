//===- hetgpu/cuda/nv_atomic.h - CUDA 12.8 atomic builtins ------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// CUDA 12.8's scoped atomic builtins (`__nv_atomic_load_n`,
/// `__nv_atomic_fetch_add`, `__nv_atomic_compare_exchange`, ...,
/// `__nv_atomic_thread_fence`) with GNU `__atomic` signatures plus a thread
/// scope that defaults to `__NV_THREAD_SCOPE_SYSTEM`. nvcc implements them in
/// the compiler; here each is an always-inline template over one of clang's
/// generic `__atomic_*` builtins, so device IR holds plain LLVM atomics with
/// the requested ordering and no syncscope: every scope runs at system scope,
/// which is at least as strong as the one asked for. The `__NV_ATOMIC_*`
/// values equal `__ATOMIC_*`, CONSUME is ACQUIRE (as in nvcc), `weak` is
/// ignored (always strong, as in nvcc). Orders and scopes that CUDA rejects
/// (a release load, an acquire store, a scope out of range) are compile
/// errors when they are constants. Not provided: 16-byte types (sm_90).
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_CUDA_NV_ATOMIC_H
#define HETGPU_CUDA_NV_ATOMIC_H

// Memory orders and thread scopes: host and device code, as in CUDA.
enum {
  __NV_ATOMIC_RELAXED = __ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME = __ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE = __ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE = __ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL = __ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST = __ATOMIC_SEQ_CST
};
enum {
  __NV_THREAD_SCOPE_THREAD,
  __NV_THREAD_SCOPE_BLOCK,
  __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE,
  __NV_THREAD_SCOPE_SYSTEM
};
#define __CUDACC_DEVICE_ATOMIC_BUILTINS__ 1

#pragma push_macro("__HG_NVA")
#pragma push_macro("__HG_NVA_SCOPE")
#pragma push_macro("__HG_NVA_ORDER")
#define __HG_NVA static __inline__ __attribute__((always_inline)) __device__
// diagnose_if fires only for constant arguments, which CUDA requires anyway.
#define __HG_NVA_SCOPE                                                         \
  __attribute__((diagnose_if(__scope < 0 || __scope > 4,                      \
                             "invalid __nv_atomic thread scope", "error")))
#define __HG_NVA_ORDER(O)                                                      \
  __attribute__((diagnose_if(O < 0 || O > 5,                                 \
                             "invalid __nv_atomic memory order", "error")))

namespace __hg_nva {
template <typename T> struct id {
  typedef T type;
};
template <typename T> using val_t = typename id<__remove_cv(T)>::type;
template <typename T> constexpr bool lock_free_size() {
  return sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8;
}
template <typename T> constexpr bool int_4_8() {
  return __is_integral(T) && (sizeof(T) == 4 || sizeof(T) == 8);
}
template <typename T> constexpr bool add_type() {
  return int_4_8<val_t<T>>() || __is_same(val_t<T>, float) ||
         __is_same(val_t<T>, double);
}
} // namespace __hg_nva

// ---- Loads and stores: sizes 1, 2, 4 and 8.
#define __HG_NVA_LOAD_ORDER                                                    \
  __HG_NVA_SCOPE __HG_NVA_ORDER(__order)                                       \
  __attribute__((diagnose_if(__order == __ATOMIC_RELEASE ||                    \
                                 __order == __ATOMIC_ACQ_REL,                  \
                             "invalid memory order for an atomic load",        \
                             "error")))
#define __HG_NVA_STORE_ORDER                                                   \
  __HG_NVA_SCOPE __HG_NVA_ORDER(__order)                                       \
  __attribute__((diagnose_if(__order == __ATOMIC_CONSUME ||                    \
                                 __order == __ATOMIC_ACQUIRE ||                \
                                 __order == __ATOMIC_ACQ_REL,                  \
                             "invalid memory order for an atomic store",       \
                             "error")))
template <typename T>
__HG_NVA __hg_nva::val_t<T>
__nv_atomic_load_n(T *__p, int __order,
                   int __scope = __NV_THREAD_SCOPE_SYSTEM) __HG_NVA_LOAD_ORDER {
  static_assert(__hg_nva::lock_free_size<T>(),
                "__nv_atomic_load_n: T must be 1, 2, 4 or 8 bytes");
  return __atomic_load_n(__p, __order);
}
template <typename T>
__HG_NVA void
__nv_atomic_load(T *__p, __hg_nva::val_t<T> *__ret, int __order,
                 int __scope = __NV_THREAD_SCOPE_SYSTEM) __HG_NVA_LOAD_ORDER {
  static_assert(__hg_nva::lock_free_size<T>(),
                "__nv_atomic_load: T must be 1, 2, 4 or 8 bytes");
  __atomic_load(__p, __ret, __order);
}
template <typename T>
__HG_NVA void
__nv_atomic_store_n(T *__p, __hg_nva::val_t<T> __v, int __order,
                    int __scope = __NV_THREAD_SCOPE_SYSTEM)
    __HG_NVA_STORE_ORDER {
  static_assert(__hg_nva::lock_free_size<T>(),
                "__nv_atomic_store_n: T must be 1, 2, 4 or 8 bytes");
  __atomic_store_n(__p, __v, __order);
}
template <typename T>
__HG_NVA void
__nv_atomic_store(T *__p, __hg_nva::val_t<T> *__v, int __order,
                  int __scope = __NV_THREAD_SCOPE_SYSTEM) __HG_NVA_STORE_ORDER {
  static_assert(__hg_nva::lock_free_size<T>(),
                "__nv_atomic_store: T must be 1, 2, 4 or 8 bytes");
  __atomic_store(__p, __v, __order);
}
#undef __HG_NVA_LOAD_ORDER
#undef __HG_NVA_STORE_ORDER

// ---- Exchange (4 and 8 bytes) and compare-exchange (2, 4 and 8 bytes)
template <typename T>
__HG_NVA __hg_nva::val_t<T>
__nv_atomic_exchange_n(T *__p, __hg_nva::val_t<T> __v, int __order,
                       int __scope = __NV_THREAD_SCOPE_SYSTEM) __HG_NVA_SCOPE
    __HG_NVA_ORDER(__order) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8,
                "__nv_atomic_exchange_n: T must be 4 or 8 bytes");
  return __atomic_exchange_n(__p, __v, __order);
}
template <typename T>
__HG_NVA void __nv_atomic_exchange(T *__p, __hg_nva::val_t<T> *__v,
                                   __hg_nva::val_t<T> *__ret, int __order,
                                   int __scope = __NV_THREAD_SCOPE_SYSTEM)
    __HG_NVA_SCOPE __HG_NVA_ORDER(__order) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8,
                "__nv_atomic_exchange: T must be 4 or 8 bytes");
  __atomic_exchange(__p, __v, __ret, __order);
}

namespace __hg_nva {
/// nvcc runs a compare-exchange with the stronger of its two orders.
constexpr int cas_order(int __s, int __f) {
  if (__s == __ATOMIC_SEQ_CST || __f == __ATOMIC_SEQ_CST)
    return __ATOMIC_SEQ_CST;
  bool __acq = __s == __ATOMIC_CONSUME || __s == __ATOMIC_ACQUIRE ||
               __s == __ATOMIC_ACQ_REL || __f == __ATOMIC_CONSUME ||
               __f == __ATOMIC_ACQUIRE || __f == __ATOMIC_ACQ_REL;
  bool __rel = __s == __ATOMIC_RELEASE || __s == __ATOMIC_ACQ_REL ||
               __f == __ATOMIC_RELEASE || __f == __ATOMIC_ACQ_REL;
  return __acq && __rel ? __ATOMIC_ACQ_REL
         : __acq        ? __ATOMIC_ACQUIRE
         : __rel        ? __ATOMIC_RELEASE
                        : __ATOMIC_RELAXED;
}
/// The failure order LLVM accepts for a given success order.
constexpr int fail_order(int __o) {
  return __o == __ATOMIC_RELEASE   ? __ATOMIC_RELAXED
         : __o == __ATOMIC_ACQ_REL ? __ATOMIC_ACQUIRE
                                   : __o;
}
} // namespace __hg_nva

#define __HG_NVA_CAS_ATTRS                                                     \
  __HG_NVA_SCOPE __HG_NVA_ORDER(__success) __HG_NVA_ORDER(__failure)
template <typename T>
__HG_NVA bool
__nv_atomic_compare_exchange_n(T *__p, __hg_nva::val_t<T> *__expected,
                               __hg_nva::val_t<T> __desired, bool __weak,
                               int __success, int __failure,
                               int __scope = __NV_THREAD_SCOPE_SYSTEM)
    __HG_NVA_CAS_ATTRS {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "__nv_atomic_compare_exchange_n: T must be 2, 4 or 8 bytes");
  int __o = __hg_nva::cas_order(__success, __failure);
  return __atomic_compare_exchange_n(__p, __expected, __desired, false, __o,
                                     __hg_nva::fail_order(__o));
}
template <typename T>
__HG_NVA bool
__nv_atomic_compare_exchange(T *__p, __hg_nva::val_t<T> *__expected,
                             __hg_nva::val_t<T> *__desired, bool __weak,
                             int __success, int __failure,
                             int __scope = __NV_THREAD_SCOPE_SYSTEM)
    __HG_NVA_CAS_ATTRS {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "__nv_atomic_compare_exchange: T must be 2, 4 or 8 bytes");
  int __o = __hg_nva::cas_order(__success, __failure);
  return __atomic_compare_exchange(__p, __expected, __desired, false, __o,
                                   __hg_nva::fail_order(__o));
}
#undef __HG_NVA_CAS_ATTRS

// ---- Read-modify-write: __nv_atomic_fetch_<op> returns the old value,
// __nv_atomic_<op> returns nothing. Check is the type rule CUDA documents.
#define __HG_NVA_RMW(Op, Check, What)                                          \
  template <typename T>                                                        \
  __HG_NVA __hg_nva::val_t<T> __nv_atomic_fetch_##Op(                          \
      T *__p, __hg_nva::val_t<T> __v, int __order,                             \
      int __scope = __NV_THREAD_SCOPE_SYSTEM) __HG_NVA_SCOPE                   \
      __HG_NVA_ORDER(__order) {                                                \
    static_assert(__hg_nva::Check<T>(), "__nv_atomic_fetch_" #Op ": " What);   \
    return __atomic_fetch_##Op(__p, __v, __order);                             \
  }                                                                            \
  template <typename T>                                                        \
  __HG_NVA void __nv_atomic_##Op(T *__p, __hg_nva::val_t<T> __v, int __order,  \
                                 int __scope = __NV_THREAD_SCOPE_SYSTEM)       \
      __HG_NVA_SCOPE __HG_NVA_ORDER(__order) {                                 \
    static_assert(__hg_nva::Check<T>(), "__nv_atomic_" #Op ": " What);         \
    (void)__atomic_fetch_##Op(__p, __v, __order);                              \
  }
#define __HG_NVA_ARITH "T must be a 4- or 8-byte integer, float or double"
#define __HG_NVA_INT "T must be a 4- or 8-byte integer"
namespace __hg_nva {
template <typename T> constexpr bool int_rmw() { return int_4_8<val_t<T>>(); }
} // namespace __hg_nva
__HG_NVA_RMW(add, add_type, __HG_NVA_ARITH)
__HG_NVA_RMW(sub, add_type, __HG_NVA_ARITH)
__HG_NVA_RMW(and, int_rmw, __HG_NVA_INT)
__HG_NVA_RMW(or, int_rmw, __HG_NVA_INT)
__HG_NVA_RMW(xor, int_rmw, __HG_NVA_INT)
__HG_NVA_RMW(min, int_rmw, __HG_NVA_INT)
__HG_NVA_RMW(max, int_rmw, __HG_NVA_INT)
#undef __HG_NVA_ARITH
#undef __HG_NVA_INT
#undef __HG_NVA_RMW

// ---- Fence
__HG_NVA void __nv_atomic_thread_fence(int __order,
                                       int __scope = __NV_THREAD_SCOPE_SYSTEM)
    __HG_NVA_SCOPE __HG_NVA_ORDER(__order) {
  __atomic_thread_fence(__order);
}

#pragma pop_macro("__HG_NVA_ORDER")
#pragma pop_macro("__HG_NVA_SCOPE")
#pragma pop_macro("__HG_NVA")

#endif // HETGPU_CUDA_NV_ATOMIC_H
