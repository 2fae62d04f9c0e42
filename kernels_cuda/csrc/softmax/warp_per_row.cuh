// warp_per_row (OneFlow's register path). A group of G lanes (G = 1..32, a power of
// two, known at run time but for the 16-bit instances of several rows of several packs)
// owns R rows (R = kWarpRowRows where a lane holds one pack of a row; on GPUs of high
// DRAM bandwidth per SM kWarpRowRows16Wide / kWarpRowRows16Narrow on 16-bit rows of
// three packs a lane (of four where whole and partly empty), kWarpRowRows32 on fp32 rows
// of two or three packs a lane on 32 lanes that leave enough empty, or of three packs on
// 16 lanes (kWarpRowNarrow32*): that many rows' loads in flight at once); each lane keeps C values per row in registers,
// loaded as C/N packs: lane l reads packs l, l+G, l+2G, ... so a group's accesses are
// contiguous. The forward's group is the fewest lanes that hold the row at
// kWarpRowLanePacks* packs each (but kWarpRowNarrow32*'s fp32 rows: 16 lanes of three;
// the backward's: one pack each up to 32 lanes).
// Slots past the row end hold -inf (exp gives 0). One read and one write of the row;
// reductions are log2(G) xor-shuffles, no shared memory, no barriers. 16-bit rows stay
// packed as loaded (RegSlice).
// Grid: one-shot, blocks of 128 threads, a warp per row group; the row loop (taken only
// past 2^30 blocks) is warp-uniform, so the full-mask shuffles never see a missing lane.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/grad.cuh"
#include "common/math.cuh"
#include "common/online.cuh"
#include "common/packs.cuh"
#include "common/reg_slice.cuh"
#include "common/row_edges.cuh"
#include "common/warp_reduce.cuh"
#include "softmax/geometry.cuh"

namespace sk {
namespace softmax {

// ---------------------------------------------------------------------------------
// Launch constants
// ---------------------------------------------------------------------------------

// 4 warps: small blocks keep every SM busy down to a few thousand rows and let the
// occupancy calculator pack as many as registers allow.
constexpr int kWarpRowThreads = 128;
// A row in one warp's registers: 32 lanes x 32 values (no spills with 128 threads). Up
// to this width a whole row is one read and one write with no shared memory and no
// barriers, the cheapest path there is (OneFlow's limit too); `auto` takes it up to here
// (and the forward's 16-bit rows in 16-byte packs up to kWarpRowMaxCols16, below).
constexpr int kWarpRowMaxColsPerThread = 32;
constexpr int64_t kWarpRowMaxCols = 32 * kWarpRowMaxColsPerThread;
// The forward's 16-bit rows read in 16-byte packs (contiguous rows, whole or realigned)
// stay packed two values per register as loaded (RegSlice): a lane holds 64 of them in
// the registers 32 fp32 values take (sm_90: 48-72 registers at 40-64 values, no
// spills). Narrower packs (strided or misaligned views) and the backward (y and dy:
// 80-128 registers there, and spills) keep kWarpRowMaxColsPerThread.
constexpr int kWarpRowMaxColsPerThread16 = 2 * kWarpRowMaxColsPerThread;
constexpr int64_t kWarpRowMaxCols16 = 32 * kWarpRowMaxColsPerThread16;
constexpr int warp_row_forward_max_values(int elem, int pack) {
  return elem == 2 && pack * elem == 16 ? kWarpRowMaxColsPerThread16 : kWarpRowMaxColsPerThread;
}
// Lanes that hold one pack of a row take kWarpRowRows rows at once (their loads all in
// flight together), so that each warp keeps enough bytes in flight on narrow rows: in
// the forward only rows of one pack since the lane packs below, in the backward every
// row of up to 32 packs. (On an H200, 4 beat 2: fp32/bf16 128 96.7/88.6% vs 91.9/81.5%;
// taking 2 or 4 rows on lanes of two packs lost: bf16 512 88.5/63.6% vs 89.7%.)
constexpr int kWarpRowRows = 4;
// Forward rows take this many packs per lane (16-bit, fp32) in a group of the fewest
// lanes (a power of two, at most 32) that holds the row, one row per group (but see
// kWarpRowRows16Wide), rather than one pack per lane on kWarpRowRows rows (a row of one
// pack keeps those; wider rows than 32 lanes hold take more packs per lane, fp32 1024
// eight); 16-bit rows halve their packs per lane (down to 2) while ceil(packs / packs
// per lane) packs, one per lane, would span fewer than kWarpRowMinGroupBytes (the lane
// count before its rounding to a power of two: bf16 96 takes 8 lanes of 2 packs, not 4
// of 3; widths 68-120 were not measured). H200, forward softmax, 1 GiB, % of copy
// (benchmarks/tuning/warp_rows_experiment.sh; benchmarks/h200_2026-11-26/
// warp_rows_*_{c211a15,1ce9370}.md), one pack per lane on 4 rows -> 2 packs per lane ->
// 4: fp32 32 / 64 / 128 96.1 / 98.8 / 95.9 -> 99.8 / 99.6 / 100.2; bf16 32 / 64 / 128 /
// 256 / 512 88.0 / 87.3 / 86.2 / 82.2 / (97.4 at 2) -> 97.7 / 96.3 / 95.1 / 94.0 -> 65.0 /
// 80.1 / 95.0 / 96.9 / 98.0; fp16 the same widths 87.2 / 86.2 / 84.5 / 80.3 / (92.4) ->
// 91.5 / 90.1 / 89.1 / 87.8 -> 65.9 / 83.9 / 96.9 / 98.2 / 98.8. At 4 packs per lane the
// 16-bit rows of 32 and 64 columns have groups of one or two lanes whose loads of a row
// are 16-32 bytes, hence kWarpRowMinGroupBytes. On the H100 the rule holds 98.7-100.8 at
// every width from 32 to 1024 in every dtype; two packs per lane for 16-bit rows
// measured 0.2-1.3 points more there at 128-512 (benchmarks/h100_2026-11-26/
// warp_rows_*_c1a4789.md) and up to 10 fewer on the H200 (fp16 256 87.8 against 98.2).
constexpr int kWarpRowLanePacks16 = 4;
constexpr int kWarpRowLanePacks32 = 2;
constexpr int kWarpRowMinGroupBytes = 64;
// 16-bit rows of three 16-byte packs per lane on 32 lanes (520-768 columns: ViT's 577)
// take this many rows per group, every row's loads issued before the first row's
// reductions, on GPUs of kWarpRowTwoRowsMinSmBandwidth or more of DRAM bandwidth per SM:
// one row per warp there keeps too few bytes in flight. Registers (sm_90): 40 for two
// aligned rows as for one, 56 against 40 for rows read in three parts. 1 GiB, % of copy,
// softmax forward, one row per group -> two (benchmarks/h200_2026-11-26g/wpr2_*,
// benchmarks/h100_2026-11-26g/wpr2_*):
//   H200 (37 GB/s per SM): bf16 576 / 577 85.8 / 77.7 -> 97.6 / 81.7, fp16 83.8 / 75.3 ->
//     97.9 / 82.4; with this rule bf16 520 / 700 79.6 / 89.0 -> 96.6 / 91.1 (fp16 77.4 /
//     87.2 -> 96.4 / 91.9), but 768 (every lane's three packs full) 99.7 -> 98.2 (fp16
//     98.4 even); four packs per lane (1023 / 1024) did not gain: bf16 95.9 / 98.5 ->
//     92.6 / 96.8, fp16 93.8 / 98.8 -> 96.0 / 96.9;
//   H100 (25 GB/s per SM): lost 0.4-1.5 (bf16 576 / 577 99.7 / 97.3 -> 98.3 / 96.9, 1024
//     99.9 -> 99.4), fp16 577 gained (95.9 -> 97.5).
// (kWarpRowRows' figures above: two rows on lanes of two packs lost at bf16 512, before
// the lane packs.) 1: one row per group everywhere, and no instance built for it.
constexpr int kWarpRowRows16Wide = 2;
constexpr int64_t kWarpRowTwoRowsMinSmBandwidth = int64_t{30} * 1000 * 1000 * 1000;
// The same rule on groups of 8 and 16 lanes, the only other groups whose lanes hold three
// packs (16-bit rows of 136-199 and 264-391 columns): a warp of such groups has the same
// bytes in flight per row step as one group of 32 lanes (32 lanes x three 16-byte packs),
// too few on the H200 at 520-768 columns above. Rows read in three parts keep one row on
// 8 lanes: their two-row instance took 64 registers against 40 and lost at 199. Full
// rows of four packs a lane keep one row, as on 32 lanes (two lost there, above; H200
// bf16 / fp16 128 and 256 at 97.8-99.8 with kWarpRow16Store below): partly empty ones,
// kWarpRowRows16FourPacksMaxFill. Registers (sm_90, bf16 and fp16,
// the group known at compile time as on 32 lanes): 48 for two aligned rows against 40
// for one, 64 against 40 for rows read in three parts (56 on 32 lanes). H200, 1 GiB, % of
// copy, softmax forward, bf16 / fp16, one row per group -> two (benchmarks/
// h200_2026-11-26h/call8_output.txt): 8 lanes, aligned: 136 80.9 / 77.8 -> 90.7 / 92.4;
// 16 lanes: 264 77.8 / 74.4 -> 96.9 / 96.7, 300 76.2 / 73.2 -> 84.8 / 85.6, 383 90.6 /
// 88.7 -> 94.2 / 94.4, 391 91.4 / 89.4 -> 94.2 / 94.6; 8 lanes in three parts: 197 80.2 /
// 77.9 -> 80.6 / 81.5, 199 91.2 / 88.5 -> 83.3 / 84.4 (hence one row there). The H100 (25
// GB/s per SM) keeps one row. 1: one row per group there, and no instance built for it.
constexpr int kWarpRowRows16Narrow = 2;
// Rows of four packs a lane (on 8, 16 and 32 lanes: 200-256, 392-512, 776-1024 columns)
// take the same rows, kWarpRowRows16Narrow / Wide, where whole (not read in three parts)
// and filling at most kWarpRowRows16FourPacksMaxFill of the lanes' packs; fuller rows
// already keep enough bytes in flight and lose to the second row (rows in three parts:
// kWarpRowRows16FourPacksEdgesMaxFill below). Registers (sm_90): 56 on 8 / 16 lanes, 48 on 32, against 46 for one row,
// no spills. H200, 1 GiB, % of copy, forward, one row per group -> two, bf16 / fp16
// softmax, log-softmax in the file, two rounds within 0.2 (tuning/
// rows16_four_packs_experiment.patch, two rows up to 15/16 full, in three parts too, against
// 5b9a8f2: benchmarks/h200_2026-11-28/four16_compare_h200_5b9a8f2.txt): 200 (0.78) 87.3
// / 86.7 -> 91.7 / 91.9 (log-softmax bf16 92.5 -> 91.8), 392 (0.77) 86.2 / 84.5 -> 96.3 /
// 96.2, 408 (0.80) 88.6 / 87.2 -> 96.1 / 96.2, 776 (0.76) 87.2 / 86.9 -> 96.6 / 96.8, 800
// (0.78) 89.1 / 88.5 -> 97.0 / 97.0; fuller, mixed or lost: 216 (0.84) +0.6 / +1.7
// (log-softmax bf16 -5.8), 232 -2.6 / -1.3, 440 (0.86) +3.3 / +4.4 (log-softmax bf16
// -2.1), 896 (0.88) +2.2 / +2.6 (log-softmax bf16 -1.8), 472-480 and 960 -0.1 to -3.9;
// in three parts bf16 401 / 457 / 801 -1.1 / -3.9 / -3.4 (fp16 +10.1 / +6.6 / +5.7).
constexpr int kWarpRowRows16FourPacksMaxFillNum = 4, kWarpRowRows16FourPacksMaxFillDen = 5;
// Rows of four packs read in three parts (on 16 and 32 lanes: 8 lanes keep one row,
// kWarpRowRows16Narrow) take two rows up to kWarpRowRows16FourPacksEdgesMaxFill of the
// lanes' packs. Their bf16 loss above was the output row's offset, which cicc rebuilt from
// the thread and block ids before every 16-byte store of the body in the bf16 instances
// alone (25-37 integer instructions a store, 72 registers against fp16's 64 on 32 lanes):
// held in a register (rematerialize), bf16 takes 64 and gains as fp16 does. H200, 1 GiB,
// % of copy, forward, one row per group -> two, softmax / log-softmax, two rounds within
// 0.2 (call 47's tuning/rows16_four_packs_edges_fill_experiment.patch, in git at b1723fd:
// benchmarks/h200_2026-11-28/four16_edges_compare_h200_b1723fd.txt, call 47): bf16 401 /
// 409 / 433 / 457 / 465 81.2 / 82.1 / 86.4 / 89.2 / 89.6 -> 87.9 / 89.0 / 91.5 / 92.9 /
// 93.3 (log-softmax 84.9-90.3 -> 92.9-94.9), 777 / 801 / 833 / 897 86.9 / 83.7 / 86.6 /
// 90.4 -> 89.8 / 86.8 / 88.9 / 92.2 (log-softmax 88.6-89.6 -> 91.8-93.9, but 897 92.3 ->
// 91.0); fp16 401-465 77.8-87.4 -> 87.7-93.7, 777-897 81.3-88.7 -> 87.0-92.5 (log-softmax
// 77.5-88.5 -> 88.6-94.7). Up to 4/5 full only (tuning/rows16_four_packs_edges_experiment
// .patch) gave the same at 401 / 409 / 777 / 801 and nothing at 433-465 / 833 / 897.
constexpr int kWarpRowRows16FourPacksEdgesMaxFillNum = 15, kWarpRowRows16FourPacksEdgesMaxFillDen = 16;
// The same on fp32 rows of two or three 16-byte packs per lane on 32 lanes (132-387
// columns) where the row fills at most kWarpRowRows32MaxFill of the lanes' packs: a
// warp's row step then moves 544-1232 bytes, too few in flight on the H200, while
// fuller rows already keep enough and lose to the second row's registers (sm_90: 48 /
// 61 for two rows of two / three packs against 39 / 48 for one, no spills). H200, 1
// GiB, % of copy, forward, one row per group -> two at every width, softmax /
// log-softmax (fill of the packs; benchmarks/h200_2026-11-28/
// rows32_{,rule_}compare_h200_*.txt, two rounds alike): 136 (0.53) 69.3 / 65.0 -> 78.7 /
// 73.3, 200 (0.78) 90.1 / 87.5 -> 98.5 / 95.8, 201 (0.78, three parts) 73.8 / 69.6 ->
// 80.4 / 75.8, 263 (0.68, three parts) 82.1 / 78.5 -> 82.5 / 80.4, 264 (0.69) 92.8 /
// 90.3 -> 97.6 / 95.5, 288 (0.75) 96.8 / 94.3 -> 99.6 / 99.0; but 320 (0.83) 100.7 /
// 99.3 -> 99.0 / 99.2, 352 (0.92) 99.6 / 100.1 -> 98.4 / 98.6, 256 and 384 (1.0) 100.9
// / 99.9 -> 97.9 / 98.1 and 99.5 / 99.6 -> 98.6 / 98.6. 128 (16 lanes) and 520 (five
// packs) unchanged. The rule against the code before any (rows32_fill_compare_h200_
// 48b09c7.txt): the gains above, 256 / 308 / 320 / 384 within 0.1, 307 (0.79, three
// parts) -0.5. The H100 (25 GB/s per SM) keeps one row. 1: one row per group, and no
// instance built for it.
constexpr int kWarpRowRows32 = 2;
constexpr int kWarpRowRows32MaxFillNum = 4, kWarpRowRows32MaxFillDen = 5;
// Rows of two packs a lane lose to the second row only when full (256 above, a warp's
// row step 1024 bytes either way), so they take two rows up to 15/16 of the packs, not
// 4/5: 208-240 columns, where one row a group moved 832-960 bytes a step. H200, 1 GiB,
// % of copy, forward, one row -> two, softmax / log-softmax, two rounds within 0.2
// (tuning/rows32_two_packs_fill_experiment.patch against 73c3cc8, benchmarks/
// h200_2026-11-28/fill2_compare_h200_73c3cc8.txt): 208 91.6 / 88.8 -> 99.7 / 97.5, 216
// 93.2 / 90.2 -> 99.6 / 99.0, 224 95.2 / 92.2 -> 99.1 / 99.8, 232 94.3 / 92.6 -> 98.7 /
// 99.2, 240 98.5 / 95.6 -> 98.4 / 98.6; 200, 248 and 256 unchanged.
constexpr int kWarpRowRows32TwoPacksMaxFillNum = 15, kWarpRowRows32TwoPacksMaxFillDen = 16;
// fp32 rows past 16 lanes' two packs that 16 lanes of three packs hold (33-48 16-byte
// packs: 132-192 columns whole, to 195 read in three parts) take those instead of 32
// lanes of two packs, still kWarpRowRows32 rows a group at any fill, on the same GPUs: a
// warp then has four rows' loads in flight (2176 bytes a row step at 136, against 1088
// for two rows on 32 lanes), where four rows on 32 lanes spill (sm_90: 64 registers, 12
// B of spill stores) and two rows of three packs take 61 registers, no spills (the
// instance 32 lanes of three packs use). H200, 1 GiB, % of copy, forward, two rows on 32
// lanes -> two on 16 lanes, softmax / log-softmax, two rounds within 0.1 (session 57's
// tuning/rows32_16lanes_experiment.patch at 33-38 packs against 10cae19, benchmarks/
// h200_2026-11-28/lanes16_compare_h200_10cae19.txt; then tuning/
// rows32_16lanes_wide_experiment.patch at 39-48 against 5a2d75b, wide32_compare_h200_
// 5a2d75b.txt): 132 76.8 / 72.0 -> 97.6 / 96.1, 136 79.3 / 73.8 -> 99.6 / 98.6, 152 85.5
// / 80.5 -> 99.0 / 99.4, 155 (three parts) 65.5 / 60.8 -> 86.9 / 86.0; 156 86.6 / 81.6 ->
// 97.8 / 98.0, 160 88.6 / 83.4 -> 98.4 / 98.5, 176 92.5 / 89.0 -> 98.0 / 98.0, 192 96.7
// / 94.1 -> 98.6 / 98.6, 195 (three parts) 79.1 / 74.4 -> 91.6 / 89.9; 128 (16 lanes of
// two packs) and 200 (50 packs: outside) unchanged.
constexpr int kWarpRowNarrow32LanePacks = 3;
constexpr int64_t kWarpRowNarrow32MaxPacks = 48;
// How 16-bit rows store their output (RegSlice::write): plain stores, which measured
// ahead of streaming ones on the H200 and even or ahead on the H100. Forward, 1 GiB, %
// of copy, streaming -> plain (warp_rows_experiment.sh's st2; benchmarks/
// h200_2026-11-26b/ and h100_2026-11-26b/warp_rows_*_b34a853.md), 32 / 64 / 128 / 256 /
// 512 / 1024 columns: H200 bf16 97.4 / 96.1 / 95.2 / 97.0 / 98.2 / 97.9 -> 98.2 / 97.0 /
// 98.4 / 97.8 / 98.8 / 98.5, fp16 91.5 / 90.0 / 97.1 / 98.3 / 99.0 / 98.4 -> 91.6 / 90.2
// / 99.8 / 98.8 / 99.3 / 98.8; H100 bf16 100.4 / 100.3 / 98.6 / 99.0 / 99.8 / 99.9 ->
// 100.5 / 100.5 / 99.4 / 99.3 / 99.9 / 99.9, fp16 alike (+0.0-0.3). Evict-first loads
// lost (H200 bf16 128 88.7; h200_2026-11-26/warp_rows_*_24fcae4.md).
constexpr Cache kWarpRow16Store = Cache::kNormal;
// ...except rows read in three parts (kEdges), whose body starts at the row's head: there
// ptxas split every plain 16-byte store of the body into four 4-byte ones (sm_90 SASS:
// STG.E, no STG.E.128, in each 16-bit kEdges forward instance and in no other kernel),
// four times the store requests and L2 write sectors of the aligned rows (Nsight Compute,
// H200, bf16 1023 / 1024 columns: 2.23 M / 0.52 M requests, 28.1 M / 12.6 M sectors;
// benchmarks/h200_2026-11-26f/ncu_narrow_*), and 64-66% of copy at bf16 577 / 1023
// against 98 at 1024. kPlainVector (inline assembly) keeps each pack one instruction.
template <bool kEdges>
constexpr Cache kWarpRow16StoreOf = kEdges ? Cache::kPlainVector : kWarpRow16Store;

// A warp's lanes in groups of G (a power of two), each group owning R consecutive rows
// per step of the row loop: rows base + offset .. + R - 1 for base = first, first + step,
// ... The loop is warp-uniform, so the shuffles inside it always see every lane.
struct WarpRowGroups {
  int group_lane;  // this lane within its group
  int64_t offset;  // this group's first row past the warp's base
  int64_t first;   // the warp's first base
  int64_t step;    // rows that all warps take per step
  __device__ __forceinline__ WarpRowGroups(int G, int R) {
    const int lane = threadIdx.x & 31;
    group_lane = lane & (G - 1);
    offset = static_cast<int64_t>(lane / G) * R;
    const int64_t rows_per_warp = static_cast<int64_t>(32 / G) * R;
    const int64_t warps_per_block = blockDim.x >> 5;
    const int64_t warp = static_cast<int64_t>(blockIdx.x) * warps_per_block + (threadIdx.x >> 5);
    first = warp * rows_per_warp;
    step = static_cast<int64_t>(gridDim.x) * warps_per_block * rows_per_warp;
  }
};

// ---------------------------------------------------------------------------------
// Forward kernel
// ---------------------------------------------------------------------------------

// kEdges: rows read as head, whole packs and tail (common/row_edges.cuh); a row's lanes
// take its edges in turn. kGroup: the group's lanes where known at compile time (16-bit
// rows of several packs on several rows, warp_row_rows16), else 0 (a.group_width).
template <typename T, int N, int C, int R, bool kEdges = false, int kGroup = 0>
__global__ void __launch_bounds__(kWarpRowThreads) softmax_warp_per_row_kernel(RowsArgs<T> a) {
  static_assert(C % N == 0, "cols_per_thread must be whole packs");
  static_assert((kGroup != 0) == (sizeof(T) == 2 && C > N && R > 1), "several rows of several packs: a fixed group");
  constexpr int P = C / N;
  if constexpr (sizeof(T) == 2) {
    // 16-bit rows: the values stay packed two per register as loaded (RegSlice, as in
    // cluster_regs), half the registers of fp32 copies, and the lanes merge their pairs
    // with one butterfly; every row's loads are issued before the first row's reduction.
    // Rows of one pack per lane (widths up to 8, since the lane packs) take kWarpRowRows
    // rows per group (bf16 at R = 4: 48 registers instead of 64 for fp32 copies; when
    // rows of 128 / 256 columns took this path on an H200, 85.6 / 81.8 -> 86.6 / 82.8% of
    // copy). Rows of several packs per lane take one row per group of G lanes, or
    // warp_row_rows16's in groups of kGroup lanes: known at compile time, the packs'
    // offsets are constants, and two rows take the registers of one or a few more (sm_90,
    // bf16 3 packs per lane on 32 lanes: 40 against 40 for one row, 56 with G at run time).
    const int G = kGroup != 0 ? kGroup : a.group_width;
    const WarpRowGroups g(G, R);
    const int group_lane = g.group_lane;
    const int packs = static_cast<int>(kEdges ? edge_body<N>(a.cols) : a.cols / N);
    for (int64_t base = g.first; base < a.rows; base += g.step) {
      const int64_t row0 = base + g.offset;
      RegSlice<T, N, C * static_cast<int>(sizeof(T))> s[R];
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const T* xr = a.x + (row0 + r) * a.x_stride;
        s[r].load(xr + row_head_if<kEdges, T, N>(xr, a.cols), group_lane, G, row0 + r < a.rows ? packs : 0);
      }
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const int64_t row = row0 + r;
        const T* xr = a.x + row * a.x_stride;
        OnlinePair part = s[r].reduce(a.log);
        if (kEdges && row < a.rows) part = online_merge(part, edges_pair<T, N>(xr, a.cols, group_lane, G));
        // Every lane: warp-uniform loop.
        const OnlinePair acc = C > N && G == 32 ? warp_merge_pairs(part) : group_merge_pairs(part, G);
        if (row < a.rows) {
          const RowNorm n = make_row_norm(acc.m, acc.d, a.log);
          // Rows read in three parts on several rows a group: the output row's offset held
          // in a register; cicc otherwise rebuilt it before every 16-byte store of the
          // body in bf16 (kWarpRowRows16FourPacksEdgesMaxFill).
          int64_t y_offset = row * a.cols + row_head_if<kEdges, T, N>(xr, a.cols);
          if constexpr (kEdges && kGroup != 0) y_offset = rematerialize(y_offset);
          T* yr = a.y + y_offset;
          s[r].template write<kWarpRow16StoreOf<kEdges>>(yr, group_lane, G, packs, n, a.log);
          if constexpr (kEdges) write_edges<T, N>(xr, a.y + row * a.cols, a.cols, group_lane, G, n, a.log);
        }
      }
    }
    return;
  }
  const int G = a.group_width;
  const WarpRowGroups g(G, R);
  const int group_lane = g.group_lane;
  // <= 32 lanes x warp_row_forward_max_values; kEdges: the whole packs' columns, from each row's head.
  const int cols = static_cast<int>(kEdges ? edge_body<N>(a.cols) * N : a.cols);

  for (int64_t base = g.first; base < a.rows; base += g.step) {
    const int64_t row0 = base + g.offset;
    float v[R][C];
    float m[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const bool row_ok = row0 + r < a.rows;
      const T* x0 = a.x + (row0 + r) * a.x_stride;
      const T* xr = x0 + row_head_if<kEdges, T, N>(x0, a.cols);
      m[r] = kEdges && row_ok ? edges_max<T, N>(x0, a.cols, group_lane, G) : -INFINITY;
#pragma unroll
      for (int p = 0; p < P; ++p) {
        const int col = (p * G + group_lane) * N;
        if (row_ok && col < cols) {
          float f[N];
          unpack(load_pack<Cache::kNormal, T, N>(xr + col), f);
#pragma unroll
          for (int k = 0; k < N; ++k) v[r][p * N + k] = f[k];
        } else {
#pragma unroll
          for (int k = 0; k < N; ++k) v[r][p * N + k] = -INFINITY;
        }
#pragma unroll
        for (int k = 0; k < N; ++k) m[r] = nan_max(m[r], v[r][p * N + k]);
      }
    }
    float d[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
      m[r] = warp_allreduce(m[r], MaxOp(), G);
      const T* x0 = a.x + (row0 + r) * a.x_stride;
      d[r] = kEdges && row0 + r < a.rows ? edges_sum_exp<T, N>(x0, a.cols, group_lane, G, m[r]) : 0.0f;
      if (a.log) {
#pragma unroll
        for (int k = 0; k < C; ++k) d[r] += exp_term(v[r][k], m[r]);
      } else {
        // Keep exp(x - m) in the registers: the output is then one multiply.
#pragma unroll
        for (int k = 0; k < C; ++k) {
          v[r][k] = exp_term(v[r][k], m[r]);
          d[r] += v[r][k];
        }
      }
    }
#pragma unroll
    for (int r = 0; r < R; ++r) {
      d[r] = warp_allreduce(d[r], SumOp(), G);
      if (row0 + r >= a.rows) continue;
      const RowNorm n = make_row_norm(m[r], d[r], a.log);
      const T* x0 = a.x + (row0 + r) * a.x_stride;
      T* yr = a.y + (row0 + r) * a.cols + row_head_if<kEdges, T, N>(x0, a.cols);
      if constexpr (kEdges) write_edges<T, N>(x0, a.y + (row0 + r) * a.cols, a.cols, group_lane, G, n, a.log);
#pragma unroll
      for (int p = 0; p < P; ++p) {
        const int col = (p * G + group_lane) * N;
        if (col < cols) {
          float f[N];
#pragma unroll
          for (int k = 0; k < N; ++k) {
            const float x = v[r][p * N + k];
            f[k] = a.log ? (x - n.m) - n.c : x * n.c;
          }
          store_pack<kOutputStore, T, N>(yr + col, pack_from_float<T, N>(f));
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------
// Forward plan
// ---------------------------------------------------------------------------------

// warp_per_row (forward and backward) instantiates cols_per_thread only from this list (multiples of the pack):
// padding a row up to the next entry wastes at most 3/8 of the lanes' arithmetic (5 -> 8),
// never memory traffic, and keeps the build small. Entries past kWarpRowMaxColsPerThread
// are the forward's 16-byte 16-bit packs' alone (Kernels::max_values).
template <int... Cs> struct IntList {};
using WarpRowColsPerThread = IntList<1, 2, 4, 8, 12, 16, 24, 32, 40, 48, 64>;

// Rows per group of a 16-bit forward row of three 16-byte packs per lane (every
// contiguous 16-bit row packs so, whole or realigned), or of four whole, in a group of
// `group` lanes, where plan_warp_per_row takes several (GPUs of
// kWarpRowTwoRowsMinSmBandwidth): kWarpRowRows16Wide on 32 lanes, kWarpRowRows16Narrow on
// 8 or 16 (the lane packs give three or four packs a lane on no other group); 1 for every
// other row. Only these rows have instances of several rows of several packs
// (warp_row_instance: the build grows by those alone), each for its group;
// warp_row_rows16_at says which rows of four packs take them.
template <typename T>
constexpr int warp_row_rows16(int pack, int values_per_lane, int group, bool edges) {
  if (!(sizeof(T) == 2 && pack * static_cast<int>(sizeof(T)) == 16)) return 1;
  if (!(values_per_lane == 3 * pack || values_per_lane == 4 * pack)) return 1;
  if (group == 8 && edges) return 1;  // kWarpRowRows16Narrow says why
  return group == 32 ? kWarpRowRows16Wide : group == 8 || group == 16 ? kWarpRowRows16Narrow : 1;
}

// warp_row_rows16's rows for a row of `packs` packs: rows of four packs a lane only while
// they fill at most kWarpRowRows16FourPacksMaxFill of the group's packs (whole rows) or
// kWarpRowRows16FourPacksEdgesMaxFill (rows read in three parts).
template <typename T>
constexpr int warp_row_rows16_at(int pack, int values_per_lane, int group, bool edges, int64_t packs) {
  const int64_t lane_packs = int64_t{group} * (values_per_lane / pack);
  const int num = edges ? kWarpRowRows16FourPacksEdgesMaxFillNum : kWarpRowRows16FourPacksMaxFillNum;
  const int den = edges ? kWarpRowRows16FourPacksEdgesMaxFillDen : kWarpRowRows16FourPacksMaxFillDen;
  const bool fuller = values_per_lane == 4 * pack && packs * den > lane_packs * num;
  return fuller ? 1 : warp_row_rows16<T>(pack, values_per_lane, group, edges);
}

// kWarpRowRows32 for fp32 rows of `packs` 16-byte packs held two a lane on 32 lanes,
// filling at most kWarpRowRows32TwoPacksMaxFill of them, or three a lane filling at most
// kWarpRowRows32MaxFill, or three a lane on 16 lanes (kWarpRowNarrow32*, at any fill),
// else 1 (GPUs of kWarpRowTwoRowsMinSmBandwidth).
template <typename T>
constexpr int warp_row_rows32(int pack, int values_per_lane, int group, int64_t packs) {
  if (!(sizeof(T) == 4 && pack == 4)) return 1;
  if (group == 16) return values_per_lane == kWarpRowNarrow32LanePacks * pack ? kWarpRowRows32 : 1;
  const bool two = values_per_lane == 2 * pack, three = values_per_lane == 3 * pack;
  const int64_t lane_packs = int64_t{group} * (values_per_lane / pack);
  const int num = two ? kWarpRowRows32TwoPacksMaxFillNum : kWarpRowRows32MaxFillNum;
  const int den = two ? kWarpRowRows32TwoPacksMaxFillDen : kWarpRowRows32MaxFillDen;
  return group == 32 && (two || three) && packs * den <= lane_packs * num ? kWarpRowRows32 : 1;
}

// The instance of warp_row_rows16's rows in groups of kGroup lanes where the plan asks
// for it, else nullptr.
template <typename Kernels, typename T, int N, int C, bool kEdges, int kGroup>
const void* warp_row_rows16_instance(int rows_per_access, int group) {
  constexpr int R = warp_row_rows16<T>(N, C, kGroup, kEdges);
  if constexpr (R > 1) {
    if (group == kGroup && rows_per_access == R) return Kernels::template get<T, N, C, R, kEdges, kGroup>();
  }
  return nullptr;
}

// The instances plan_warp_per_row and plan_warp_per_row_backward pick from, through
// `Kernels` (the forward's or the backward's kernel template: get<T, N, C, R, kEdges,
// kGroup>(), a name for errors, and kSeveralRows: whether it takes warp_row_rows16's and
// warp_row_rows32's rows).
template <typename Kernels, typename T, int N, int C, bool kEdges>
const void* warp_row_instance(int rows_per_access, int group) {
  if constexpr (C == N) {
    if (rows_per_access == kWarpRowRows) return Kernels::template get<T, N, C, kWarpRowRows, kEdges>();
  }
  if constexpr (Kernels::kSeveralRows && kWarpRowRows32 > 1 && sizeof(T) == 4 && N == 4 && (C == 2 * N || C == 3 * N)) {
    if (rows_per_access == kWarpRowRows32) return Kernels::template get<T, N, C, kWarpRowRows32, kEdges>();
  }
  if constexpr (Kernels::kSeveralRows) {
    for (const void* fn : {warp_row_rows16_instance<Kernels, T, N, C, kEdges, 8>(rows_per_access, group),
                           warp_row_rows16_instance<Kernels, T, N, C, kEdges, 16>(rows_per_access, group),
                           warp_row_rows16_instance<Kernels, T, N, C, kEdges, 32>(rows_per_access, group)}) {
      if (fn != nullptr) return fn;
    }
  }
  // A plan asking for rows that no instance takes would skip rows: refuse it here.
  if (rows_per_access != 1) {
    throw std::runtime_error(std::string(Kernels::kName) + ": no kernel for " + std::to_string(rows_per_access) +
                             " rows per group of " + std::to_string(group) + " lanes");
  }
  return Kernels::template get<T, N, C, 1, kEdges>();
}

// edges: rows read in three parts (realigned plans, whose packs are 16 bytes: the
// instances of kEdges).
template <typename Kernels, typename T, int N, int C>
const void* warp_row_kernel(int rows_per_access, int group, bool edges) {
  if constexpr (N * sizeof(T) == 16) {
    if (edges) return warp_row_instance<Kernels, T, N, C, true>(rows_per_access, group);
  }
  return warp_row_instance<Kernels, T, N, C, false>(rows_per_access, group);
}

// The first listed C >= needed that is a multiple of N; writes it to *chosen.
template <typename Kernels, typename T, int N, int C, int... Rest>
const void* pick_warp_row(int needed, int rows_per_access, int group, bool edges, int* chosen) {
  if constexpr (C % N == 0 && C <= Kernels::template max_values<T, N>()) {
    if (needed <= C) {
      *chosen = C;
      return warp_row_kernel<Kernels, T, N, C>(rows_per_access, group, edges);
    }
  }
  if constexpr (sizeof...(Rest) > 0) {
    return pick_warp_row<Kernels, T, N, Rest...>(needed, rows_per_access, group, edges, chosen);
  } else {
    throw std::runtime_error(std::string(Kernels::kName) + ": no kernel for " + std::to_string(needed) +
                             " values per thread");
  }
}

template <typename Kernels, typename T, int N, int... Cs>
const void* pick_warp_row_list(IntList<Cs...>, int needed, int rows_per_access, int group, bool edges, int* chosen) {
  return pick_warp_row<Kernels, T, N, Cs...>(needed, rows_per_access, group, edges, chosen);
}

// kernel_for_pack's family over `Kernels`.
template <typename Kernels>
struct WarpRowFamilyOf {
  template <typename T, int N>
  static const void* get(int needed, int rows_per_access, int group, bool edges, int* chosen) {
    return pick_warp_row_list<Kernels, T, N>(WarpRowColsPerThread{}, needed, rows_per_access, group, edges, chosen);
  }
};

struct WarpRowKernels {
  static constexpr const char* kName = "warp_per_row";
  static constexpr bool kSeveralRows = true;
  template <typename T, int N> static constexpr int max_values() {
    return warp_row_forward_max_values(static_cast<int>(sizeof(T)), N);
  }
  template <typename T, int N, int C, int R, bool kEdges, int kGroup = 0> static const void* get() {
    return reinterpret_cast<const void*>(&softmax_warp_per_row_kernel<T, N, C, R, kEdges, kGroup>);
  }
};
using WarpRowFamily = WarpRowFamilyOf<WarpRowKernels>;

// The forward's lanes per group, values per lane (before cols_per_thread rounds them up
// to an instance) and rows per group, for `rows` rows of `cols` values in packs of `pack`
// (fast_sm: a GPU of kWarpRowTwoRowsMinSmBandwidth or more of DRAM bandwidth per SM);
// host arithmetic only, so that tests/test_cuda_compile.py checks it without a GPU.
struct WarpRowShape {
  int group;
  int needed;
  int rows_per_access;
};
template <typename T>
WarpRowShape warp_row_shape(int64_t cols, int pack, int64_t rows, bool fast_sm, bool edges) {
  const int64_t packs = std::max<int64_t>(cols / pack, 1);
  int64_t lane_packs = sizeof(T) == 2 ? kWarpRowLanePacks16 : kWarpRowLanePacks32;
  while (lane_packs > 2 && ceil_div(packs, lane_packs) * pack * static_cast<int64_t>(sizeof(T)) < kWarpRowMinGroupBytes) {
    lane_packs /= 2;
  }
  if (sizeof(T) == 4 && pack == 4 && fast_sm && packs > 16 * kWarpRowLanePacks32 && packs <= kWarpRowNarrow32MaxPacks) {
    lane_packs = kWarpRowNarrow32LanePacks;  // 16 lanes of three packs
  }
  const int group = static_cast<int>(std::min<int64_t>(32, next_pow2(ceil_div(packs, lane_packs))));
  const int needed = static_cast<int>(ceil_div(packs, group)) * pack;
  const int several = !fast_sm           ? 1
                      : sizeof(T) == 2 ? warp_row_rows16_at<T>(pack, needed, group, edges, packs)
                                       : warp_row_rows32<T>(pack, needed, group, packs);
  return {group, needed, rows <= 1 ? 1 : needed == pack ? kWarpRowRows : several};
}

template <typename T>
Plan plan_warp_per_row(const Problem& p) {
  Plan plan = new_plan(Variant::warp_per_row);
  const int pack = realigned_pack<T>(p, plan.realigned);
  if (p.cols > 32 * int64_t{warp_row_forward_max_values(static_cast<int>(sizeof(T)), pack)}) {
    plan.status = PlanStatus::too_wide_for_warp;
    return plan;
  }
  const int64_t rows = plan_rows(p);
  const bool fast_sm = device_properties(p.device).dram_bytes_per_sm_s() >= kWarpRowTwoRowsMinSmBandwidth;
  const WarpRowShape shape = warp_row_shape<T>(p.cols, pack, rows, fast_sm, plan.realigned != 0);
  const int group = shape.group;
  const int rows_per_access = shape.rows_per_access;
  int cols_per_thread = 0;
  const void* fn = kernel_for_pack<WarpRowFamily, T>(pack, shape.needed, rows_per_access, group, plan.realigned != 0,
                                                     &cols_per_thread);
  plan.pack = pack;
  plan.cols_per_thread = cols_per_thread;
  plan.group_width = group;
  plan.rows_per_access = rows_per_access;
  const int64_t rows_per_block = (kWarpRowThreads / group) * rows_per_access;
  one_shot_grid(plan, p.device, fn, kWarpRowThreads, ceil_div(rows, rows_per_block), 0);
  return plan;
}

// ---------------------------------------------------------------------------------
// Backward kernel: groups of G lanes (one pack per lane up to 32 lanes, kWarpRowRows rows
// per access; wider rows 32 lanes of several packs: plan_warp_per_row_backward, not the
// forward's lane packs), each lane holding its packs of y AND dy (GradSlice, as loaded;
// twice the forward's registers, so up to 95 per thread at 32 values of each). One read
// of y and dy and one write of dx; the row's sum is log2(G) xor-shuffles.
// ---------------------------------------------------------------------------------

// kEdges: as forward.
template <typename T, int N, int C, int R, bool kEdges = false>
__global__ void __launch_bounds__(kWarpRowThreads) softmax_backward_warp_per_row_kernel(GradArgs<T> a) {
  // Lanes that hold several packs of a row come in groups of 32 (plan_warp_per_row_backward
  // gives them no other group; a change there must change this): known at compile time,
  // the packs' offsets are constants off one address.
  // (The lane groups as WarpRowGroups would give them, spelled out: through the helper
  // this kernel's SASS changed and fp16 rows of 32 columns lost a point on an H200,
  // benchmarks/h200_2026-11-26b/warp_groups_*.md.)
  const int G = C > N ? 32 : a.group_width;
  const int lane = threadIdx.x & 31;
  const int group_lane = lane & (G - 1);
  const int group = lane / G;
  const int64_t rows_per_warp = static_cast<int64_t>(32 / G) * R;
  const int64_t warps_per_block = blockDim.x >> 5;
  const int64_t warp = static_cast<int64_t>(blockIdx.x) * warps_per_block + (threadIdx.x >> 5);
  const int64_t n_warps = static_cast<int64_t>(gridDim.x) * warps_per_block;
  // <= kWarpRowMaxCols; kEdges: every row's whole packs (as many in each) from its head.
  const int packs = static_cast<int>(kEdges ? edge_body<N>(a.cols) : a.cols / N);
  for (int64_t base = warp * rows_per_warp; base < a.rows; base += n_warps * rows_per_warp) {
    const int64_t row0 = base + static_cast<int64_t>(group) * R;
    GradSlice<T, N, C * static_cast<int>(sizeof(T))> s[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int64_t row = row0 + r;
      const int head = row_head_if<kEdges, T, N>(a.y + row * a.y_stride, a.cols);
      s[r].load(a.y + row * a.y_stride + head, a.dy + row * a.dy_stride + head, group_lane, G,
                row < a.rows ? packs : 0);
    }
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int64_t row = row0 + r;
      const T* yr = a.y + row * a.y_stride;
      const T* gr = a.dy + row * a.dy_stride;
      float part = s[r].sum(a.log);
      if (kEdges && row < a.rows) part += edges_grad_sum<T, N>(yr, gr, a.cols, group_lane, G, a.log);
      const float total = warp_allreduce(part, SumOp(), G);  // every lane: warp-uniform loop
      if (row < a.rows) {
        s[r].write(a.dx + row * a.cols + row_head_if<kEdges, T, N>(yr, a.cols), group_lane, G, packs, total, a.log);
        if constexpr (kEdges) write_edges_grad<T, N>(yr, gr, a.dx + row * a.cols, a.cols, group_lane, G, total, a.log);
      }
    }
  }
}

// ---------------------------------------------------------------------------------
// Backward plan: one pack per lane up to 32 lanes (kWarpRowRows rows per access), else 32
// lanes; the forward's cols_per_thread list. Eight rows a group where one pack a lane
// leaves some of 32 lanes idle (17-32 packs) lost on the H200 (sm_90: 96 registers
// against 64; 1 GiB, % of copy, backward softmax, bf16 136 / 160 87.5 / 97.3 -> 82.8 /
// 93.0, fp32 68 93.7 -> 93.4, 192-256 within 0.7; tuning/grad_rows8_experiment.patch,
// benchmarks/h200_2026-11-28/grad_rows8_compare_h200_fa20fea.txt).
// ---------------------------------------------------------------------------------

struct WarpRowBackwardKernels {
  static constexpr const char* kName = "warp_per_row backward";
  static constexpr bool kSeveralRows = false;  // rows of several packs: one per group
  template <typename T, int N> static constexpr int max_values() { return kWarpRowMaxColsPerThread; }
  template <typename T, int N, int C, int R, bool kEdges, int kGroup = 0> static const void* get() {
    static_assert(kGroup == 0, "the backward's groups are known at run time");
    return reinterpret_cast<const void*>(&softmax_backward_warp_per_row_kernel<T, N, C, R, kEdges>);
  }
};
using WarpRowBackwardFamily = WarpRowFamilyOf<WarpRowBackwardKernels>;

// 16-bit rows of one 16-byte pack per lane (at most 32 packs) keep their whole-row
// pack where they are read in three parts would be (realigned): the edges cost that
// shape more than the wider packs gain. H200, backward softmax, 1 GiB, % of copy, before
// -> in three parts (benchmarks/h200_2026-11-26d/warp_edges_*_5fd3633, warp_edges2_*):
// bf16 197 80.5 -> 71.6 with the edges read after the sum, 56.2 with them held from the
// loads; rows of several packs per lane gained (bf16 577 / 1023 71 -> 102).
template <typename T>
int warp_row_backward_pack(const Problem& p, int64_t& realigned) {
  const int pack = realigned_pack<T>(p, realigned);
  if (realigned == 0 || !(sizeof(T) == 2 && p.cols / pack <= 32)) return pack;
  realigned = 0;
  return widest_pack<T>(p);
}

template <typename T>
Plan plan_warp_per_row_backward(const Problem& p) {
  Plan plan = new_plan(Variant::warp_per_row);
  if (p.cols > kWarpRowMaxCols) {
    plan.status = PlanStatus::too_wide_for_warp;
    return plan;
  }
  const int pack = warp_row_backward_pack<T>(p, plan.realigned);
  const int64_t rows = plan_rows(p);
  const int64_t packs = std::max<int64_t>(p.cols / pack, 1);
  const int group = packs <= 32 ? static_cast<int>(next_pow2(packs)) : 32;
  const int needed = packs <= 32 ? pack : static_cast<int>(ceil_div(packs, 32)) * pack;
  const int rows_per_access = needed == pack && rows > 1 ? kWarpRowRows : 1;
  int cols_per_thread = 0;
  const void* fn = kernel_for_pack<WarpRowBackwardFamily, T>(pack, needed, rows_per_access, group,
                                                             plan.realigned != 0, &cols_per_thread);
  plan.pack = pack;
  plan.cols_per_thread = cols_per_thread;
  plan.group_width = group;
  plan.rows_per_access = rows_per_access;
  one_shot_grid(plan, p.device, fn, kWarpRowThreads, ceil_div(rows, (kWarpRowThreads / group) * rows_per_access), 0);
  return plan;
}

}  // namespace softmax
}  // namespace sk
