// Rows that do not start on a pack boundary, read in three parts: the head (the values
// before the row's first address aligned to a whole pack), the body (whole packs), the
// tail (the values after them). An odd width in a contiguous tensor (GPT-2's 50257
// columns) starts each row at another offset from a 16-byte boundary, so no pack wider
// than one value fits every row whole; read this way, all but at most 2 (N - 1) values of
// each row move in full packs. One split serves x and y (and y, dy and dx, backward)
// where their rows all sit at the same offset from a pack boundary, which plans check
// (realigned_pack_elems, common/packs.cuh).
//
// The body has the same number of packs in every row (edge_body: the most that fit
// after any head of up to N - 1 values), so a kernel's split of the row over threads,
// shared memory and CTAs is the same for every row and only the head moves it: per-row
// splits kept a few more values live, and the register-bound kernels spilled. The tail
// takes what is left (up to 2 (N - 1) values).
//
// The kernels that read rows so are instances of their own (kEdges): the aligned
// instances, tuned to their register bounds, spilled with even the per-row head in them.
// Threads 0 .. count() - 1 of a row's thread group (of the cluster's first CTA) each
// take one edge value: they fold it into their part of the row's reduction, and after
// the row's barrier read it again (from L1/L2) to write its output, the row's pointers
// worked out again from the row's index (rematerialize) rather than kept live across
// the reduction.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "common/grad.cuh"
#include "common/online.cuh"
#include "common/packs.cuh"

namespace sk {

// The values of `row` before its first address aligned to a pack of N values (at most
// the row's width). Every pointer is aligned to T.
template <typename T, int N>
__device__ __forceinline__ int row_head(const T* row, int64_t cols) {
  constexpr unsigned kBytes = N * sizeof(T);
  const unsigned off = static_cast<unsigned>(reinterpret_cast<uintptr_t>(row)) % kBytes;
  const int h = off == 0 ? 0 : static_cast<int>((kBytes - off) / sizeof(T));
  return cols < h ? static_cast<int>(cols) : h;
}

// The most edge values a row has: 2 (N - 1) for packs of N values, at most 14 (16-byte
// packs of 16-bit values).
constexpr int kMaxRowEdges = 14;

// Whole packs in the body of every row of `cols` values (at least N - 1 of them left for
// the head and tail).
template <int N>
__host__ __device__ __forceinline__ int64_t edge_body(int64_t cols) {
  return cols >= N - 1 ? (cols - (N - 1)) / N : 0;
}

// row_head where kEdges, else 0 (the aligned instances' rows start on a pack).
template <bool kEdges, typename T, int N>
__device__ __forceinline__ int row_head_if(const T* row, int64_t cols) {
  if constexpr (kEdges) {
    return row_head<T, N>(row, cols);
  } else {
    return 0;
  }
}

template <typename T, int N>
struct RowEdges {
  int head;      // values before the first whole pack
  int64_t cols;  // the row's width

  __device__ __forceinline__ RowEdges(const T* row, int64_t width) : head(row_head<T, N>(row, width)), cols(width) {}
  __device__ __forceinline__ int64_t body() const { return edge_body<N>(cols); }
  __device__ __forceinline__ int count() const { return static_cast<int>(cols - body() * N); }
  // The column of edge value e (0 <= e < count()): the head's, then the tail's.
  __device__ __forceinline__ int64_t col(int e) const { return e < head ? e : e + body() * N; }
  // Edge value e of `row` (any tensor laid out as the row these edges are of), and its store.
  __device__ __forceinline__ float value(const T* row, int e) const { return to_float(row[col(e)]); }
  __device__ __forceinline__ void store(T* row, int e, float v) const { row[col(e)] = from_float<T>(v); }
};

// v itself, as a value the compiler cannot reuse from before: expressions of it are
// computed again rather than kept in registers.
__device__ __forceinline__ int64_t rematerialize(int64_t v) {
  asm volatile("" : "+l"(v));
  return v;
}

// Forward: edge value e of the row at x (-inf where e is not an edge), folded into a
// thread's online pair; its output.
template <typename T, int N>
__device__ __forceinline__ float edge_value(const T* x, const RowEdges<T, N>& edges, int e) {
  return e < edges.count() ? edges.value(x, e) : -INFINITY;
}

__device__ __forceinline__ OnlinePair online_fold(OnlinePair acc, float v) {
  return online_accumulate(acc, v, [&](float m) { return exp_term(v, m); });
}

// Reads edge e of row x again and writes its output to row y.
template <typename T, int N>
__device__ __forceinline__ void write_edge(const T* x, T* y, int64_t cols, int e, const RowNorm& n, bool log) {
  const RowEdges<T, N> edges(x, cols);
  if (e < edges.count()) edges.store(y, e, normalize(edges.value(x, e), n, log));
}

// Asks for edge e of the row at p ahead of its read (prefetch.global.L1: no register
// waits for it), where holding the value from an early load made the backward's
// register-bound instances spill.
template <typename T, int N>
__device__ __forceinline__ void prefetch_edge(const T* p, int64_t cols, int e) {
  const RowEdges<T, N> edges(p, cols);
  if (e < edges.count()) asm volatile("prefetch.global.L1 [%0];\n" ::"l"(p + edges.col(e)));
}

// Backward: edge e's term of the row's sum (0 where e is not an edge), and, read again,
// its dx.
template <typename T, int N>
__device__ __forceinline__ float edge_grad_term(const T* y, const T* g, int64_t cols, int e, bool log) {
  const RowEdges<T, N> edges(y, cols);
  return e < edges.count() ? grad_term(edges.value(y, e), edges.value(g, e), log) : 0.0f;
}

// The same as a call of its own (registers apart from the caller's): inlined, the
// reads and expf of a few edge values made the register-bound backward instances spill
// (bf16 cluster_regs at 64 bytes of each tensor per thread: 60-76 bytes; block_hybrid,
// which keeps the inlined form, spilled with a call there instead); a call costs a few
// instructions per row in at most 2 (N - 1) threads.
template <typename T, int N>
__device__ __noinline__ float edge_grad_term_apart(const T* y, const T* g, int64_t cols, int e, bool log) {
  return edge_grad_term<T, N>(y, g, cols, e, log);
}

// Edge e of rows y and dy, held in registers from a load made a row ahead (split's
// backward); 0 and 0 (a term of 0) where e is not an edge.
struct EdgeHeld {
  float y;
  float g;
};
template <typename T, int N>
__device__ __forceinline__ EdgeHeld held_edge(const T* y, const T* g, int64_t cols, int e) {
  const RowEdges<T, N> edges(y, cols);
  if (e < edges.count()) return {edges.value(y, e), edges.value(g, e)};
  return {0.0f, 0.0f};
}

// Edge e of the row at x, held in a register from a load made a row ahead (split's
// forward); -inf (nothing to fold) where e is not an edge.
template <typename T, int N>
__device__ __forceinline__ float held_edge_value(const T* x, int64_t cols, int e) {
  return edge_value(x, RowEdges<T, N>(x, cols), e);
}

// Reads edge e of rows y and dy again and writes its dx (a call of its own, as above:
// inlined, the bf16 block_hybrid backward spilled 16 bytes).
template <typename T, int N>
__device__ __noinline__ void write_edge_grad(const T* y, const T* g, T* dx, int64_t cols, int e, float s, bool log) {
  const RowEdges<T, N> edges(y, cols);
  if (e < edges.count()) edges.store(dx, e, grad_out<T>(edges.value(y, e), edges.value(g, e), s, log));
}

// ---------------------------------------------------------------------------------
// A row's edges over a group of G lanes (warp_per_row: G may be fewer than the edges):
// lane l takes edges l, l + G, ..., each read where it is used (its max, its term, its
// output) rather than held: the row's registers are the group's packs.
// ---------------------------------------------------------------------------------

template <typename T, int N>
__device__ __forceinline__ OnlinePair edges_pair(const T* x, int64_t cols, int lane, int G) {
  const RowEdges<T, N> edges(x, cols);
  OnlinePair acc = online_empty();
  for (int e = lane; e < edges.count(); e += G) acc = online_fold(acc, edges.value(x, e));
  return acc;
}

template <typename T, int N>
__device__ __forceinline__ float edges_max(const T* x, int64_t cols, int lane, int G) {
  const RowEdges<T, N> edges(x, cols);
  float m = -INFINITY;
  for (int e = lane; e < edges.count(); e += G) m = nan_max(m, edges.value(x, e));
  return m;
}

template <typename T, int N>
__device__ __forceinline__ float edges_sum_exp(const T* x, int64_t cols, int lane, int G, float m) {
  const RowEdges<T, N> edges(x, cols);
  float d = 0.0f;
  for (int e = lane; e < edges.count(); e += G) d += exp_term(edges.value(x, e), m);
  return d;
}

template <typename T, int N>
__device__ __forceinline__ void write_edges(const T* x, T* y, int64_t cols, int lane, int G, const RowNorm& n,
                                            bool log) {
  const RowEdges<T, N> edges(x, cols);
  for (int e = lane; e < edges.count(); e += G) edges.store(y, e, normalize(edges.value(x, e), n, log));
}

template <typename T, int N>
__device__ __forceinline__ float edges_grad_sum(const T* y, const T* g, int64_t cols, int lane, int G, bool log) {
  const RowEdges<T, N> edges(y, cols);
  float s = 0.0f;
  for (int e = lane; e < edges.count(); e += G) s += grad_term(edges.value(y, e), edges.value(g, e), log);
  return s;
}

template <typename T, int N>
__device__ __forceinline__ void write_edges_grad(const T* y, const T* g, T* dx, int64_t cols, int lane, int G,
                                                 float s, bool log) {
  const RowEdges<T, N> edges(y, cols);
  for (int e = lane; e < edges.count(); e += G) {
    edges.store(dx, e, grad_out<T>(edges.value(y, e), edges.value(g, e), s, log));
  }
}

}  // namespace sk
