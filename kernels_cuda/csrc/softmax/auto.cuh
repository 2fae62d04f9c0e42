// `auto`: which variant runs when the caller does not name one, and why.
//
// The rule, in order, tuned on an H200 (2026-11-21, 1 GiB inputs, % of device-to-device
// copy bandwidth; the tuning logs in benchmarks/ hold the runs):
// 0. warp_per_row up to kWarpRowMaxCols (1024) columns: the row in one warp's registers,
//    one read and one write, no shared memory, no barriers; 16-bit rows read in 16-byte
//    packs up to kWarpRowMaxCols16 (2048: 40-64 values a lane, kept packed), ahead of
//    one CTA's cluster_regs (a block reduction per row) there. 1 GiB, % of copy, softmax
//    forward bf16, cluster_regs -> warp_per_row (benchmarks/h200_2026-11-28/
//    warp16_fwd_h200_02c70c5.csv): H200 1040 / 1280 / 1536 / 2047 / 2048 65.8 / 78.5 /
//    87.2 / 86.0 / 98.4 -> 94.7 / 98.8 / 98.8 / 97.0 / 98.1 (log-softmax 71.3-97.7 ->
//    97.2-99.1); H100 (warp16_fwd_h100_c1db5e9.csv) 1040 88.2 -> 99.4, 1280-2048
//    99.6-100.4 -> 99.0-99.9: one rule for both (every cell >= 94 on the H200, >= 99 on
//    the H100).
// 0b. (sm_90) few rows: a row of more than kFewRowsMinRowBytes over a cluster of
//    cluster_regs CTAs of about kFewRowsCtaBytes each, halved until rows x CTAs are at
//    most the SMs (at least 2 CTAs; more where registers need them), ahead of the
//    one-CTA rules below: one CTA per row leaves most SMs idle and makes the call's
//    time one SM streaming its row. H100, us per call (benchmarks/h100_2026-11-24/):
//    do_bench (few_rows_experiment_*.csv): bf16 131072 1 / 16 / 64 rows 18.4 / 19.9 /
//    24.3 -> 8.4 / 11.1 / 21.7, fp32 65536 1 / 16 rows 13.4 / 15.4 -> 8.0 / 10.2 (CTAs
//    of 16 KB; 32 and 64 KB measured between); CUDA-graph time per call
//    (few_rows_min_row_m*.csv): rows over 32 KB gain (bf16 32768, 1 / 16 rows: 4.99 /
//    5.34 -> 4.24 / 4.42), rows of 32 KB lose (bf16 16384 over 2 CTAs: 3.63 -> 4.18).
//    With more CTAs than SMs it lost (128 rows, fp32 65536, do_bench: 30.5 -> 32.6-33.6).
//    At 1 GiB the rows outnumber the SMs: rules 1-6 are what that tuning chose.
// 0c. (sm_90, GPUs of 30 GB/s or more of DRAM bandwidth per SM) aligned 16-bit rows past
//    one 512-thread CTA's registers that 16 CTAs of kRegsUnpackThreads hold (64-512 KB),
//    their slices whole (or at least 29/32 full past 288 KB, 31/32 to 144 KB):
//    cluster_regs over the smallest cluster of CTAs of 128, 192, 256 or 384 threads (384:
//    whole slices only) that holds them, the width with the most clusters co-resident
//    (unpack_shape), each thread 64 values as fp32, each exp computed once
//    (cluster_regs.cuh), ahead of rules 1a, 2b and 2c, which took them before. H200,
//    1 GiB, % of copy, softmax / log-softmax, block_hybrid -> these clusters, two calls
//    alike (benchmarks/h200_2026-11-28/unpack{3,4}_compare_*): bf16 49152 / 65536 / 81920
//    / 98304 / 131072 / 196608 / 262144 94.4 / 94.0 / 83.4 / 89.5 / 93.9 / 84.3 / 90.6 ->
//    97.7 / 97.7 / 96.0 / 97.4 / 96.5 / 92.8 / 91.9 (log-softmax 96.9-87.6 -> 97.5-90.8;
//    262144 91.5 -> 90.8), bf16 / fp16 151936 75.1 / 76.3 -> 83.5 / 84.2, fp16 65536 /
//    98304 96.2 / 90.9 -> 98.3 / 98.5. CTAs of 192 and 128 threads (session 62, call 64):
//    bf16 73728 95.4 / 95.6 -> 98.1 / 97.8, 40000 87.6 / 93.3 -> 98.3 / 98.1; of 384
//    threads, whole slices only (session 63, call 68): 196608 92.8 / 91.3 -> 94.3 / 93.6.
//    Where that shape fills under 7/8 of the GPU's CTA slots (or none serves: rows to
//    960 KB), threads also hold up to 7 packs as fp32 in shared memory, in fewer CTAs a
//    row, if that fills more slots (session 63, calls 71-72, benchmarks/h200_2026-11-28/
//    smem{land,2}_compare_*): bf16 151936 / 163840 / 200000 / 229376 83.5 / 88.4 / 82.6 /
//    86.4 -> 93.7 / 95.1 / 92.4 / 95.2 (log-softmax 82.6-86.9 -> 92.7-95.9), 393216
//    (block_hybrid before) 81.2 -> 86.8; fp16 alike. Where no shape holds the row in
//    slices that full, shapes with shared memory in slices 29/32 full whose clusters fill
//    7/8 of the CTA slots (session 64, calls 74-76, nearly{,2,3}_compare_*): 119 of the 225
//    bf16 widths of 64-288 KB (1 KB apart) left block_hybrid, e.g. bf16 34304 / 74240 /
//    100000 / 128256 82.5 / 79.7 / 87.8 / 94.0 -> 97.8 / 97.9 / 97.7 / 97.0 (log-softmax
//    86.7 / 83.0 / 93.6 / 93.3 -> 98.0 / 97.9 / 98.0 / 97.4; cluster_regs.cuh,
//    unpack_slices_nearly_full). The H100 (25 GB/s per SM) is not measured: it keeps
//    rules 1-2c. Where these clusters are of kUnpackYieldMinCtas (9) CTAs or more (but
//    16 that hold shared memory too) and block_hybrid would serve the rows over clusters
//    of its two-per-SM CTAs, rule 2b takes them (kUnpackYieldMinCtas says why).
// 1. cluster_regs while ONE CTA holds the row in registers: 512 threads up to 64 KB, one
//    CTA of 1024 threads up to 128 KB (fp32 32768, bf16 65536). One read, one write, no
//    shared memory, no peers to wait for: fp32 2048-16384 96.5-96.8, fp32 32768 98.3 and
//    bf16 65536 95.2 (the same rows in 2-CTA clusters: 90.5 and 88.4).
// 1a. (sm_90, GPUs of 30 GB/s or more of DRAM bandwidth per SM) 16-bit rows past one
//    512-thread CTA's registers (over 64 KB) that one 512-thread block_hybrid CTA holds
//    (to 144 KB: bf16 65536): one such CTA per row, two per SM, rather than rule 1's one
//    1024-thread CTA per SM, whose phases (every load lands, the reductions, the exps and
//    stores) run one after another with nothing else on the SM; a 16-bit row has twice
//    the exps of an fp32 row of its bytes. H200 (37 GB/s per SM), 1 GiB, % of copy,
//    softmax / log-softmax: bf16 65536 93.0 / 94.4 -> 94.6 / 94.6, fp16 92.5 / 92.7 ->
//    96.0 / 95.8; the H100 (25) lost 0.2-1.0 (block_hybrid.cuh, kHybridSmallThreads).
// 2. block_hybrid (sm_90) while registers plus shared memory of one CTA hold it (about
//    290 KB: fp32 65536, bf16 131072): still one CTA per row, no cluster exchange; but on
//    GPUs of 30 GB/s or more of DRAM bandwidth per SM that CTA has 512 threads, two per
//    SM, and holds 144 KB, and rows past it take rule 2b's clusters of such CTAs
//    (block_hybrid.cuh, kHybridSmallThreads: H200 bf16 131072
//    89.9 -> 93.6, fp16 91.2 -> 96.3, fp32 65536 95.2 -> 96.3, 131072 93.9 -> 96.0).
// 2b. (sm_90) block_hybrid over a cluster of 2-16 CTAs, each its slice of the row in 64
//    KB of registers and up to the opt-in shared memory (227 KB on H100/H200: the
//    smallest cluster whose slices fit, one 1024-thread CTA per SM; rows up to ~4.6 MB;
//    16-bit rows, and on GPUs of 30 GB/s or more of DRAM bandwidth per SM fp32 rows too,
//    in 512-thread CTAs of at most 144 KB, two per SM, while 16 hold the row:
//    block_hybrid.cuh, kHybridSmallThreads),
//    for as many rows as the SMs or more (as rule 3a: fewer rows leave resident clusters
//    idle in the last wave, e.g. 9 rows of 16-CTA clusters where 7 fit an H100 at once;
//    rules 0b and 5 spread few rows wider): the whole slice in flight at once (TMA bulk
//    copies), as Quack's clusters of 128 KB slices do. H100, 1 GiB, % of copy, auto
//    before (cluster_regs to 512 KB rows, split_smem from 1 MB) -> block_hybrid over K
//    CTAs (benchmarks/tuning/hybrid_cluster_experiment.sh; benchmarks/h100_2026-11-25/
//    hybrid_cluster_*_853b3f7.md, hybrid_auto_fwd_h100_4fcf69a.md): fp32 131072 (K 2)
//    91.4 -> 96.6, 262144 (K 4) 90.8 -> 95.5, 524288 (K 8) 85.7 -> 92.3, 1048576 (K 16)
//    81.3 -> 84.2 (log-softmax the same); bf16 262144 (K 2) 91.3 -> 92.1 (log 89.9 ->
//    93.1), 524288 (K 4) 88.7 -> 88.4 (log 89.1 -> 90.2), 1048576 (K 8) 83.7 -> 87.1 (log
//    84.3 -> 88.2), and with the 16-bit shape 94.5 / 92.4 / 88.6 (log 94.8 / 92.9 / 89.0).
//    Smaller slices of one CTA per SM lost at every width (128 KB: fp32 131072 80.3, 64 KB:
//    66.4): a CTA alone on its SM needs its whole large slice in flight. From 67 to 132
//    rows (CUDA-graph us per call, hybrid_rows_latency_h100_4fcf69a.md) block_hybrid,
//    cluster_regs and split_smem are within 8% of each other. The backward's clusters
//    lost (fp32 131072 96.5 -> 92.4, bf16 262144 96.4 -> 86.8): its rules are unchanged.
// 2c. (sm_90, ahead of 2b) split_hybrid where 2b's clusters would be of one CTA per SM
//    and those co-scheduled at once hold fewer than kSplitHybridClusterBusyPercent of the
//    SMs (fp32 1048576: 16 CTAs, 7 clusters, 112 of 132 SMs), or where 16 CTAs do not hold
//    the row (fp32 past ~4.6 MB, which 3a and 5 took), or (16-bit rows, GPUs of 30 GB/s
//    or more of DRAM bandwidth per SM) where 2b's clusters of two CTAs per SM fill under
//    that percent of the CTA slots with slices under kSplitHybridThinSliceBytes (bf16
//    1.2-1.5 MB rows on the H200), when the rows' CTAs fill the GPU
//    kSplitHybridMinWaves times or more (not "as many rows as the SMs"): the same CTAs
//    without a cluster, exchanging through global memory (split_hybrid.cuh; figures at
//    the constants).
// 3a. split_smem for as many rows as the SMs or more, of kSplitSmemMinRowBytes (1 MB) or
//    more: 64 KB parts staged in shared memory, three CTAs per SM, each of another row
//    group. 1 GiB, % of copy, the variant auto chose before -> split_smem, one run per
//    GPU (benchmarks/h100_2026-11-24/wide_fwd_175c6d7.md, h200_2026-11-24/
//    wide_fwd_175c6d7.md), H100 / H200: fp32 262144 (cluster_regs) 83.2 -> 91.0 / 75.1
//    -> 80.7; fp32 524288 (split / online) 70.9 -> 85.5 / 62.9 -> 76.2; fp32 1048576
//    (online) 63.7 -> 80.7 / 62.6 -> 72.6; bf16 1048576 (split / online) 67.9 -> 83.0 /
//    59.7 -> 71.5. It loses a little at bf16 524288 (1 MB; cluster_regs 89.2 / 77.3
//    against 88.6 / 75.6) and more below 1 MB (bf16 262144: 90.9 / 80.1 against 90.6 /
//    78.2), hence the bound. Fewer rows keep rules 0b and 5, which spread each row over
//    more SMs.
// 3. cluster_regs over a 2-16 CTA cluster (sm_90, rows up to 1 MB): each CTA waits for
//    the slowest of its cluster, yet it beats cluster_smem at every width measured
//    (fp32 131072/262144: 84.1/74.5 vs 74.3/64.9; bf16 131072/262144: 85.3/84.0 vs
//    81.1/68.0).
// 4. block_smem (GPUs without clusters).
// 5. split, rows past a cluster's registers (over 1 MB), when the rows are fewer than
//    the SMs (one CTA per row would leave most SMs idle). H100, benchmarks/
//    h100_2026-11-24/wide_latency_e88a101.md: 1 x 1048576 fp32 10.2 us against online's
//    176, 64 x 1048576 bf16 137 against 266. (At many rows it also beat online on the
//    H100, not on the H200, where rule 3a now serves those rows.)
// 6. online (two reads, one write; the second read often hits L2): rows past 1 MB that
//    neither rule 3a nor 5 serves (misaligned rows whose parts do not fit at once),
//    rather than
//    block_uncached (three reads). Rows past a cluster's registers do not go to
//    cluster_smem, though its 16 x 227 KB would hold them: 16 CTAs per row each waiting
//    on the slowest, it measured below online on both GPUs (fp32 524288, 1 GiB: H200
//    46.8 vs 63.3, benchmarks/h200_2026-11-23/wide_variants_fwd_e97a5ac.md; H100 in
//    benchmarks/h100_2026-11-23d/).
// The trial plans are made for a 16-byte aligned input of the same width (two rows, row
// stride = width): the choice depends on the GPU, the dtype and the width (and, for rule
// 3a and 5, the row count), never on alignment, which only narrows the pack inside the
// chosen kernel.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "common/cluster.cuh"
#include "common/device.cuh"
#include "common/math.cuh"
#include "softmax/block_hybrid.cuh"
#include "softmax/block_smem.cuh"
#include "softmax/block_uncached.cuh"
#include "softmax/cluster_regs.cuh"
#include "softmax/geometry.cuh"
#include "softmax/split.cuh"
#include "softmax/split_hybrid.cuh"
#include "softmax/split_smem.cuh"
#include "softmax/warp_per_row.cuh"

namespace sk {
namespace softmax {

// The backward's rule 2 (plan_auto_backward): block_hybrid ahead of the clusters where
// each of its threads keeps at least this many bytes of y and of dy in registers (fp32:
// 64; 16-bit values keep 32, where 64 spill).
constexpr int kGradHybridFirstBytes = 64;

// The backward's rule 3: a cluster of one resident CTA per SM serves the row only on
// GPUs with less DRAM bandwidth per SM than this (bytes/s; the H100's 25 GB/s, not the
// H200's 37), and only with at least this many threads.
constexpr int64_t kGradClusterMaxSmBandwidth = int64_t{30} * 1000 * 1000 * 1000;
constexpr int64_t kGradClusterMinSmThreads = 384;

// The backward's rule 1b: split for as many rows as the SMs or more, with at least
// kSplitGradMinGroups row groups at once (one group's CTAs load while another's wait),
// rows of y of kSplitGradMinRowBytes or more, kSplitGradFastSmMinRowBytes or more on
// GPUs of kSplitGradFastSmBandwidth or more of DRAM bandwidth per SM. 1 GiB, % of copy,
// split against cluster_regs / split_smem (auto's choices before), softmax backward
// (log-softmax and fp16 alike):
//   H100 (25 GB/s per SM; benchmarks/h100_2026-11-25/split_backward_h100_ed52e32.md):
//     fp32 65536 / 131072 / 262144 / 524288 98.0 / 98.7 / 98.0 / 93.0 against 99.3 / 95.5
//     / 92.4 (split_smem) / 77.3 (split_smem); bf16 131072 / 262144 / 524288 / 1048576
//     97.8 / 98.0 / 96.0 / 90.6 against 98.3 / 95.7 / 89.8 / 76.4;
//   H200 (37 GB/s per SM; benchmarks/h200_2026-11-25/split_backward_h200_ce8e994.md):
//     fp32 65536 / 131072 / 262144 / 524288 97.0 / 96.1 / 90.0 / 83.7 against 91.2 /
//     81.4 / 83.4 / 71.1; bf16 65536 / 131072 / 262144 / 524288 / 1048576 93.9 / 92.4 /
//     90.7 / 85.2 / 80.1 against 93.4 / 89.8 / 81.3 / 79.4 / 70.2.
// Rows of 256 KB (fp32 65536, 16-bit 131072) gain on the H200 and lose a point on the
// H100, where one CTA's cluster of registers keeps its SM busy through the exchange; with
// one row group (fp32 1048576: 256 chunks, 396 CTAs resident) split lost on both (H100
// 72.9 against split_smem's 74.1, H200 65.0 against 67.3). (Its gather first polled one
// slot per lane at a time, which put the H200 behind from 1 MB rows: split_backward_
// h200_dba62a7.md.) Since session 45 such rows take chunks of kSplitWideThreads threads
// (split.cuh, kSplitGradWideGroups), half as many, and rule 1b takes them though they
// make one group: 1 GiB, % of copy, auto softmax / log-softmax fp32 1048576 split_smem
// -> split, H100 73.8-73.9 / 73.7-73.9 -> 79.3 / 76.8, H200 67.6-67.8 / 67.7 -> 71.2 /
// 67.5 (benchmarks/h*_2026-11-27b/wsplit_*, two rounds).
constexpr int64_t kSplitGradMinRowBytes = 512 * 1024;
constexpr int64_t kSplitGradFastSmMinRowBytes = 256 * 1024;
constexpr int64_t kSplitGradFastSmBandwidth = int64_t{30} * 1000 * 1000 * 1000;
constexpr int64_t kSplitGradMinGroups = 2;
// The backward's rule 1c (plan_auto_backward): rows read in three parts go to split from
// this many bytes of y on GPUs of fast SMs. H200, 1 GiB, % of copy, softmax backward,
// cluster_regs / split: bf16 1025 (2050 B) 83.2 / 79.7, bf16 1537 (3074 B) 80.2 / 95.3,
// fp32 1025 88.1 / 95.4 (benchmarks/h200_2026-11-26e/edges_rule_h200_e6b0d22_*).
constexpr int64_t kSplitEdgesFastSmMinRowBytes = 3 * 1024;

// The forward's rule 3a and the backward's rule 2b: rows (of y, backward) of this many
// bytes or more go to split_smem (forward: when the rows are as many as the SMs).
constexpr int64_t kSplitSmemMinRowBytes = int64_t{1} << 20;

// The forward's rule 2c and the backward's rule 1a': block_hybrid's clusters of one CTA per
// SM give way to split_hybrid (the same CTAs, no cluster, the exchange through global
// memory) where the clusters co-scheduled at once hold fewer than this percent of the
// SMs (a cluster's CTAs share one GPC, so 16-CTA clusters fit 7 to a 132-SM H100 or
// H200: 112 SMs busy, 20 idle); rows past 16 CTAs, which block_hybrid cannot hold, take
// split_hybrid too. Clusters of two 512-thread CTAs per SM keep every SM busy though as
// many of their CTAs idle (a cluster's CTAs may share SMs with another's), and stay; so
// do clusters of one CTA per SM that fill the GPU (fp32 524288 on the H100: 8 CTAs, 15
// clusters, 120 SMs; GPUs of fast SMs take 16 pair CTAs there, kHybridSmallThreads).
// 1 GiB, % of copy, one round, block_hybrid (or auto's choice before) -> split_hybrid
// (benchmarks/h200_2026-11-27c/sh_h200_*, h100_2026-11-27c/sh_h100_*):
//   forward fp32 1048576 (16 x 1024, 7 clusters): H200 81.2 -> 86.6, H100 91.4 -> 95.2;
//   forward fp32 2097152 (split_smem before): H100 73.9 -> 92.1;
//   backward fp32 1048576 (split, 256-thread chunks before): H200 70.9 -> 82.4, H100
//     79.2 -> 92.0; fp32 524288 (16 x 1024): H200 84.5 -> 86.5, H100 95.6 -> 96.1; bf16
//     1048576 (16 x 1024): H200 83.4 -> 85.3, H100 95.1 -> 95.8;
//   where the rule keeps the clusters: forward bf16 1048576 (16 x 512, 14 clusters) H200
//     82.0 -> 79.5, H100 94.2 -> 91.0; fp32 524288 (8 x 1024) H200 89.1 -> 85.3, H100 96.0
//     -> 93.0; backward bf16 524288 (8 x 512 on the H200) 99.2 -> 87.1.
constexpr int64_t kSplitHybridClusterBusyPercent = 90;
// The forward's rule 2c asks no row count of the SMs (as rule 2b does) but that the rows'
// CTAs fill the GPU at least this many times: rows past 16 CTAs' slices are few per GiB
// (fp32 2097152: 128 rows, fewer than the 132 SMs, where rules 3a and 2b stop), yet their
// 58 CTAs each make 28 waves of 264. 1 GiB, % of copy, fp32 2097152, auto before (rule
// 5's split for fewer rows than SMs, or online) -> split_hybrid: H100 55.4 -> 92.1, H200
// 47.1 -> 81.9 (benchmarks/h*_2026-11-27c/sh_h100_fwd2m_*, sh2_h200_fwd_*). Fewer rows
// keep rule 0b and split, which spread each row over more SMs.
constexpr int64_t kSplitHybridMinWaves = 2;
// Whether `rows` rows of split_hybrid's plan `global` (its `split` CTAs a row) fill the
// GPU's `sms` SMs kSplitHybridMinWaves times (the forward's rule 2c, the backward's 1a'
// for fewer rows than the SMs).
inline bool split_hybrid_rows_fill_gpu(const Plan& global, int64_t rows, int64_t sms) {
  return rows * global.split >= kSplitHybridMinWaves * global.resident_per_sm * sms;
}

// Whether block_hybrid's plan `hybrid` is a cluster of CTAs of `threads` whose clusters at
// once fill fewer than kSplitHybridClusterBusyPercent of the GPU's `slots` for them.
inline bool hybrid_clusters_fill_under(const Plan& hybrid, int threads, int64_t slots) {
  return hybrid.status == PlanStatus::ok && hybrid.cluster_size > 1 && hybrid.threads == threads &&
         hybrid.cluster_size * hybrid.active_clusters * 100 < kSplitHybridClusterBusyPercent * slots;
}
// Whether block_hybrid's plan `hybrid` is a cluster of one CTA per SM whose clusters at
// once leave SMs idle.
inline bool hybrid_clusters_leave_sms_idle(const Plan& hybrid, int64_t sms) {
  return hybrid_clusters_fill_under(hybrid, kHybridThreads, sms);
}
// The forward's rule 2c for 16-bit rows in clusters of block_hybrid's 512-thread CTAs,
// two per SM, on GPUs of kHybridPairMinSmBandwidth or more of DRAM bandwidth per SM:
// those clusters give way to split_hybrid where they fill under
// kSplitHybridClusterBusyPercent of the GPU's CTA slots (two per SM) with slices under
// kSplitHybridThinSliceBytes. Sixteen such CTAs fit 14 clusters on the H200 (224 of 264
// slots), and a CTA needs a large slice in flight when so many slots idle: its % of copy
// follows the slice, where split_hybrid's CTAs fill every slot and hold 82-87 at each
// width. Clusters of fewer CTAs with larger slices put fewer rows in flight and lost too
// (tuning/hybrid_most_rows_experiment.patch: 655360 over 9 CTAs 76.4, 786432 over 12
// 73.9). H200, 1 GiB, % of copy, softmax / log-softmax, one round, since 16-bit packs are
// held as words (benchmarks/h200_2026-11-28/rule2c_h200_bc429b8.txt), block_hybrid
// against split_hybrid, bf16 (fp16 alike), slices of 16 CTAs:
//   606208 (74 KB) 76.9 / 80.8 against 85.2 / 86.5;  655360 (80 KB) 79.8 / 84.4 against
//   84.5 / 85.5;  720896 (88 KB) 83.0 / 88.5 against 85.3 / 86.6;  786432 (96 KB) 86.3 /
//   91.5 against 83.9 / 84.9;  851968 (104 KB) 89.0 / 93.0 against 84.1 / 85.2.
// (Before the words, session 65, the clusters trailed to 112 KB: 786432 75.9 / 80.7
// against 80.8 / 82.1, benchmarks/h200_2026-11-28/wide16_variants_h200_e357988.txt.)
// 524288's 8 CTAs of 128 KB fill 240 slots and keep the clusters.
constexpr int64_t kSplitHybridThinSliceBytes = 96 * 1024;

// The CTA slots of block_hybrid's 512-thread CTAs, two per SM.
inline int64_t hybrid_pair_slots(int64_t sms) { return sms * (kHybridThreads / kHybridSmallThreads); }

// Whether block_hybrid's forward plan `hybrid` for 16-bit rows of `cols` is such a
// cluster (above).
template <typename T>
bool hybrid_pair_slices_thin(const Plan& hybrid, int64_t cols, const DeviceProperties& device) {
  if (sizeof(T) != 2 || device.dram_bytes_per_sm_s() < kHybridPairMinSmBandwidth ||
      !hybrid_clusters_fill_under(hybrid, kHybridSmallThreads, hybrid_pair_slots(device.sm_count))) {
    return false;
  }
  return ceil_div(cols / hybrid.pack, hybrid.cluster_size) * hybrid.pack * static_cast<int64_t>(sizeof(T)) <
         kSplitHybridThinSliceBytes;
}

// Why rules 2c and 1a' passed block_hybrid's plan `hybrid` by, in words.
inline std::string hybrid_clusters_words(const Plan& hybrid, int64_t sms) {
  const auto n = [](int64_t v) { return std::to_string(v); };
  if (hybrid.status != PlanStatus::ok) return ", past 16 CTAs' slices";
  const int64_t busy = hybrid.cluster_size * hybrid.active_clusters;
  return hybrid.threads == kHybridSmallThreads
             ? ", where clusters of " + n(hybrid.cluster_size) + " CTAs of " + n(hybrid.threads) +
                   " threads would fill " + n(busy) + " of " + n(hybrid_pair_slots(sms)) + " CTA slots, slices under " +
                   n(kSplitHybridThinSliceBytes / 1024) + " KB"
             : ", where clusters of " + n(hybrid.cluster_size) + " would keep " + n(busy) + " of " + n(sms) +
                   " SMs busy";
}

// Rule 0c gives way to rule 2b where its clusters have this many CTAs or more (past the
// portable 8) and block_hybrid's plan is a cluster of its 512-thread CTAs, two per SM, for
// as many rows as the SMs; but clusters of kMaxClusterSize CTAs that also hold shared
// memory keep it. Since block_hybrid's 16-bit scans hold their packs as words (session
// 66), its clusters beat those of rule 0c there, and only there: H200, 1 GiB, % of copy,
// bf16 softmax / log-softmax (fp16 alike), rule 0c's clusters of n CTAs -> block_hybrid's
// of k (benchmarks/h200_2026-11-28/zone0c_h200_c1687a9.txt, rewide16_h200_89e00d6.txt;
// the plans of every 8192 columns in zone0c_plans_h200_c96aae7.txt):
//   200000 (n 9, k 4) 92.4 / 92.5 -> 93.7 / 97.0;  262144 (n 16, registers only, k 4)
//   92.0 / 91.4 -> 95.7 / 95.5;  294912 (n 10, k 4) 86.0 / 86.3 -> 94.3 / 94.1;  327680
//   (n 11, k 8) 86.2 / 86.5 -> 85.2 / 89.7;  360448 (n 12) 86.6 / 87.0 -> 88.7 / 93.3;
//   393216 (n 13) 86.7 / 86.4 -> 92.0 / 95.3;  425984 (n 14) 87.8 / 87.6 -> 93.8 / 95.6;
//   458752 (n 15) 88.9 / 89.1 -> 94.9 / 95.2;
// where they keep rule 0c: clusters of 16 holding shared memory, 491520 94.5 / 95.4 against
// 94.3 / 94.4 and 589824 94.5 / 95.2 against 92.1 / 92.9; of 8 or fewer, 131072 (n 8)
// 96.6 / 96.1 against 96.1 / 96.0, 163840 (n 6) 95.4 / 95.7 against 88.3 / 92.8, 245760
// (n 8) 96.4 / 96.7 against 95.5 / 95.2 (139264's 7 and 196608's 8 trail by 0.4-4.6 on
// one side, not the other, and stay). The share of the CTA slots rule 0c's clusters fill
// does not separate them (200000's fill 87% and lose, 491520's 85% and win).
constexpr int kUnpackYieldMinCtas = 9;

// Whether rule 0c's plan `regs` gives way to block_hybrid's clusters (above) for `rows`.
template <typename T>
bool unpacked_clusters_yield(const Plan& regs, const Problem& aligned, int64_t rows, int64_t sms) {
  const bool widest_with_smem = regs.cluster_size >= kMaxClusterSize && regs.smem_bytes > 0;
  if (regs.cluster_size < kUnpackYieldMinCtas || widest_with_smem || rows < sms) return false;
  const Plan hybrid = plan_block_hybrid<T>(aligned);
  return hybrid.status == PlanStatus::ok && hybrid.cluster_size > 1 && hybrid.threads == kHybridSmallThreads;
}

// Rule 0b: with few rows, rows of more than kFewRowsMinRowBytes are spread over a
// cluster of CTAs of about kFewRowsCtaBytes each, at most one CTA per SM in all.
constexpr int64_t kFewRowsMinRowBytes = 32 * 1024;
constexpr int64_t kFewRowsCtaBytes = 16 * 1024;

// `plan`, marked as auto's choice: the rule that chose it and the rule in words.
inline Plan auto_choice(Plan plan, int64_t rule, std::string why) {
  plan.reason_code = rule;
  plan.reason = std::move(why);
  return plan;
}

// The plan of the variant `auto` picks for p, with its rule and the rule in words.
template <typename T>
Plan plan_auto(const Problem& p) {
  const auto n = [](int64_t v) { return std::to_string(v); };
  if (p.cols <= kWarpRowMaxCols) {
    return auto_choice(plan_warp_per_row<T>(p), AutoReason::narrow_row,
                  "cols " + n(p.cols) + " <= WARP_PER_ROW_MAX_COLS " + n(kWarpRowMaxCols) + ": row in registers");
  }
  if (sizeof(T) == 2 && p.cols <= kWarpRowMaxCols16) {
    if (Plan warp = plan_warp_per_row<T>(p); warp.status == PlanStatus::ok) {
      return auto_choice(std::move(warp), AutoReason::narrow_row,
                         "16-bit cols " + n(p.cols) + " <= WARP_PER_ROW_MAX_COLS_16BIT " + n(kWarpRowMaxCols16) +
                             " in 16-byte packs: row in registers");
    }
  }
  const DeviceProperties device = device_properties(p.device);
  const int64_t sms = device.sm_count;
  const bool hopper = device.major >= kClusterMinMajor;
  const int64_t row_bytes = p.cols * static_cast<int64_t>(sizeof(T));
  if (hopper && row_bytes > kFewRowsMinRowBytes) {
    int64_t k = std::min<int64_t>(next_pow2(ceil_div(row_bytes, kFewRowsCtaBytes)), kMaxClusterSize);
    while (k > 1 && p.rows * k > sms) k /= 2;
    if (k >= 2) {
      Plan spread = plan_cluster_regs<T>(p, static_cast<int>(k));
      if (spread.status == PlanStatus::ok) {
        const int64_t cluster = spread.cluster_size;
        return auto_choice(std::move(spread), AutoReason::few_rows_cluster,
                           n(p.rows) + " rows for " + n(sms) + " SMs: each row of " + n(row_bytes) +
                               " B over a cluster of " + n(cluster) + " CTAs");
      }
    }
  }
  const Problem aligned{0, 0, 2, p.cols, p.cols, p.device};
  const Plan regs = plan_cluster_regs<T>(aligned);
  if (regs.status == PlanStatus::ok && regs.unpacked && !unpacked_clusters_yield<T>(regs, aligned, p.rows, sms)) {
    // Rule 0c, decided on the aligned row's plan, as rule 2 is: a misaligned view's own
    // plan (narrower packs) keeps its values packed, and the words are the aligned row's.
    if (Plan own = plan_cluster_regs<T>(p); own.status == PlanStatus::ok) {
      const std::string held =
          regs.smem_bytes > 0 ? "registers and " + n(regs.smem_bytes) + " B of shared memory per CTA" : "registers";
      return auto_choice(std::move(own), AutoReason::unpacked_clusters,
                         "16-bit row of " + n(row_bytes) + " B over a cluster of " + n(regs.cluster_size) + " " +
                             n(regs.threads) + "-thread CTAs, its values as fp32 in " + held);
    }
  }
  if (regs.status == PlanStatus::ok && regs.cluster_size == 1) {
    if (hopper && sizeof(T) == 2 && regs.threads > kRegsMaxThreads) {
      // Rule 1a, decided on the aligned row's plan as rule 2 is.
      const Plan pair = plan_block_hybrid<T>(aligned);
      if (pair.status == PlanStatus::ok && pair.cluster_size == 1 && pair.threads == kHybridSmallThreads) {
        Plan chosen = plan_block_hybrid<T>(p);
        if (chosen.status == PlanStatus::ok) {
          return auto_choice(std::move(chosen), AutoReason::pair_hybrid,
                             "16-bit row of " + n(row_bytes) + " B in one of two " + n(pair.threads) +
                                 "-thread CTAs per SM, registers and " + n(pair.smem_bytes) + " B of shared memory");
        }
      }
    }
    if (Plan own = plan_cluster_regs<T>(p); own.status == PlanStatus::ok) {
      return auto_choice(std::move(own), AutoReason::one_cta_registers,
                         "row in the registers of one CTA of " + n(regs.threads) + " threads");
    }
  }
  if (hopper) {
    // Rules 2 and 2b from the aligned row's plan (one CTA where it holds the row, else
    // the smallest cluster). A misaligned row keeps fewer bytes per thread in registers
    // (narrower packs): its own plan may need a cluster (or a larger one) where the
    // aligned row's does not; the rule and its words are the aligned row's.
    const Plan hybrid = plan_block_hybrid<T>(aligned);
    const bool one_cta = hybrid.status == PlanStatus::ok && hybrid.cluster_size == 1;
    if (hybrid.status == PlanStatus::row_exceeds_smem || hybrid_clusters_leave_sms_idle(hybrid, sms) ||
        hybrid_pair_slices_thin<T>(hybrid, p.cols, device)) {
      // Rule 2c: where the aligned row's clusters would leave SMs (or, 16-bit, CTA slots
      // with thin slices) idle, or 16 CTAs do not hold it, and the rows' CTAs fill the
      // GPU kSplitHybridMinWaves times.
      const Plan trial = plan_split_hybrid<T>(aligned);
      if (trial.status == PlanStatus::ok && split_hybrid_rows_fill_gpu(trial, p.rows, sms)) {
        if (Plan chosen = plan_split_hybrid<T>(p); chosen.status == PlanStatus::ok) {
          return auto_choice(std::move(chosen), AutoReason::split_hybrid_rows,
                             "row over " + n(trial.split) + " CTAs exchanging through global memory, each its slice "
                             "in registers and " + n(trial.smem_bytes) + " B of shared memory" +
                                 hybrid_clusters_words(hybrid, sms));
        }
      }
    }
    if (one_cta || (hybrid.status == PlanStatus::ok && p.rows >= sms)) {
      Plan chosen = plan_block_hybrid<T>(p);
      if (chosen.status == PlanStatus::ok && one_cta) {
        return auto_choice(std::move(chosen), AutoReason::one_cta_hybrid,
                           "row in the registers and " + n(hybrid.smem_bytes) + " B of shared memory of one CTA");
      }
      if (chosen.status == PlanStatus::ok) {
        return auto_choice(std::move(chosen), AutoReason::cluster_hybrid,
                           "row over a cluster of " + n(hybrid.cluster_size) + " CTAs, each its slice in registers and " +
                               n(hybrid.smem_bytes) + " B of shared memory");
      }
    }
  }
  if (p.rows >= sms && row_bytes >= kSplitSmemMinRowBytes) {
    // A misaligned row loads narrower packs, hence more parts: where they no longer
    // fit the GPU at once, the rules below serve it.
    Plan parts = plan_split_smem<T>(p);
    if (parts.status == PlanStatus::ok) {
      const int64_t split = parts.split;
      return auto_choice(std::move(parts), AutoReason::split_smem_rows,
                         n(p.rows) + " rows of " + n(row_bytes) + " B, each in " + n(split) +
                             " parts staged in shared memory over CTAs exchanging through global memory");
    }
  }
  if (regs.status == PlanStatus::ok) {
    if (Plan own = plan_cluster_regs<T>(p); own.status == PlanStatus::ok) {
      return auto_choice(std::move(own), AutoReason::cluster_registers,
                         "row in the registers of a cluster of " + n(regs.cluster_size) + " CTAs");
    }
  }
  const Plan smem = plan_block_smem<T>(aligned);
  if (smem.status == PlanStatus::ok) {
    if (Plan own = plan_block_smem<T>(p); own.status == PlanStatus::ok) {
      return auto_choice(std::move(own), AutoReason::block_smem,
                         "row of " + n(smem.smem_bytes) + " B in one block's shared memory");
    }
  }
  if (p.rows < sms) {
    // A misaligned row loads narrower packs, hence more chunks: where they no longer
    // fit the GPU at once, online serves it.
    Plan chosen = plan_split<T>(p);
    if (chosen.status == PlanStatus::ok) {
      std::string why = "row in " + n(chosen.split) + " chunks over CTAs exchanging through global memory (" +
                        n(p.rows) + " rows, fewer than the SMs)";
      return auto_choice(std::move(chosen), AutoReason::split_rows, std::move(why));
    }
  }
  return auto_choice(plan_block_uncached<T>(p, Variant::online), AutoReason::fallback_online,
                "row too wide for shared memory and registers on this GPU: two reads, one write");
}

// The backward's `auto` (softmax_backward, log_softmax_backward): the forward's order
// with y and dy both on chip, so every on-chip limit holds half the width. Tuned on an
// H100 and an H200 (1 GiB inputs, % of copy; benchmarks/tuning/
// hybrid_backward_experiment.sh and cluster_backward_experiment.sh, results in
// benchmarks/h100_2026-11-24/ and benchmarks/h200_2026-11-24/):
// 0. warp_per_row up to kWarpRowMaxCols columns (both rows in one warp's registers);
// 0b. block_smem for 16-bit rows of y of up to kGradSmem16MaxRowBytes in whole 16-byte
//    packs (kGradSmem16MaxRowBytes says why);
// 1. cluster_regs while ONE CTA holds both rows in registers (fp32 16384, 16-bit 32768);
// 1a. (sm_90) rows that rule 1b would give to split, but rows read in three parts:
//    block_hybrid over a cluster of 2-16 CTAs (its plan picks their size and shape), where
//    it holds them (rows of y to ~2 MB). Since the clusters exchange their
//    sums without a cluster
//    barrier (ClusterSlots, session 43), its CTAs' whole slices in flight beat split's
//    exchange through global memory. 1 GiB, % of copy, split (auto's choice before) ->
//    block_hybrid, softmax backward (log-softmax and fp16 alike, within a point):
//      H100 (25 GB/s per SM; split from 512 KB; benchmarks/h100_2026-11-27/hb_*, two
//        rounds): bf16 262144 / 524288 / 1048576 98.3-98.5 / 95.3-96.1 / 91.5-91.6 ->
//        101.0 / 100.0 / 91.5-91.7 (log-softmax 1048576 87.0-87.3 -> 90.7; fp16 softmax
//        1048576 92.0-92.5 -> 91.8, the one loss); at 196608 (384 KB, no split there)
//        cluster_regs holds 102.7 against block_hybrid's 101.4;
//      H200 (37 GB/s per SM; split from 256 KB; benchmarks/h200_2026-11-27/): bf16
//        131072 / 262144 / 524288 / 1048576 92.9 / 91.1 / 85.4 / 79.7 -> 101.1 / 100.8 /
//        99.2 / 81.6.
//    Two rounds on the H200 (the second, h200_2026-11-27/r1a_*, softmax / log-softmax,
//    bf16 and fp16): 131072-524288 85.8-95.0 -> 99.1-101.7 (bf16 log-softmax 78.8-87.7 ->
//    91.0-100.3), 1048576 75.1-82.1 -> 73.2-83.3.
//    Rows read in three parts (odd widths) stay with split: block_hybrid's (16 bytes of
//    each per thread in registers) lost there (H200, bf16 / fp16 151937 and 262145,
//    softmax and log-softmax: 78.6-90.4 -> 76.1-87.4, one exception at +0.6).
//    fp32 rows joined them in session 45: block_hybrid's fp32 clusters had lost (H200
//    131072 82.7 against split's 96.7, H100 262144 96.3 against 97.4) until their plan
//    took the cluster size that keeps the most CTAs resident and, first, clusters of two
//    512-thread CTAs per SM (block_hybrid.cuh). 1 GiB, % of copy, softmax backward, two
//    rounds, split (auto's choice before) -> block_hybrid (benchmarks/h*_2026-11-27b/
//    bp512_*): H200 131072 / 262144 97.2 / 91.1 -> 101.3 / 98.4, 524288 83.9 -> 84.5 (16
//    1024-thread CTAs); H100 131072 / 262144 / 524288 99.0 / 97.4 / 92.8 -> 101.7 / 101.3 /
//    96.0 (log-softmax 98.9 / 96.5 / 91.7 -> 101.6 / 101.3 / 95.8). fp32 1048576 (8 MB of
//    y and dy) is past 16 CTAs: rule 1b or 2b.
// 1a'. (ahead of 1a) split_hybrid for those rows where 1a's clusters would be of one CTA
//    per SM and leave SMs idle (kSplitHybridClusterBusyPercent), or where 16 CTAs do not
//    hold them (fp32 1048576), not odd rows read in three parts; and, as the forward's
//    rule 2c, for fewer rows than the SMs that 16 CTAs do not hold where the rows' CTAs
//    fill the GPU kSplitHybridMinWaves times (8 MB rows and wider: 128 rows per GiB or
//    fewer, which split_smem took). H200, 1 GiB, % of copy, softmax / log-softmax, auto
//    before -> after (benchmarks/h200_2026-11-28/few_compare_h200_a294352.txt): fp32
//    2097152 48.9 / 49.0 -> 76.1 / 77.2, fp32 4194304 43.1 / 41.7 -> 63.4 / 62.8, bf16
//    4194304 48.8 / 48.8 -> 74.5 / 73.9 (bf16 2097152, 256 rows, already took it: 81.8).
//    Aligned fp32 rows of up to 128 register slices (1048576 columns) run split_hybrid's
//    register-slice kernel since session 71 (softmax_backward_split_hybrid_regs_kernel:
//    H200 393216 / 524288 95.2 / 93.4 -> 99.6 / 98.5, split_hybrid.cuh has the figures),
//    and those rows whose register slices would leave fewer than 7 rows' CTAs resident
//    take the same kernel with up to 48 KB of y and dy a CTA in shared memory since
//    session 73 (fp32 1048576 softmax / log-softmax 90.8 / 94.3 -> 96.4 / 95.9);
// 1b. split for as many rows as the SMs or more, rows of y from 512 KB (256 KB on GPUs of
//    30 GB/s or more of DRAM bandwidth per SM), two row groups or more resident at once
//    (kSplitGradMinRowBytes above says why and what was measured);
// 1c. (over every rule here, plan_auto_backward) odd rows read in three parts that these
//    rules give to cluster_regs go to split where it serves them (see there);
// 2. (sm_90) block_hybrid while one CTA's registers and shared memory hold both rows
//    and its threads keep kGradHybridFirstBytes of each in registers (fp32 to ~45 K
//    columns): one CTA per SM, no peer to wait for. fp32 24576 / 32768: H100 101.0 /
//    99.2, H200 97.8 / 97.5, against the clusters of small CTAs' 100.6 / 100.3 and
//    98.3 / 95.1;
// 2b. split_smem for the other rows of y of kSplitSmemMinRowBytes (1 MB) or more (fewer
//    rows than SMs, or one row group of split's chunks): parts of y and dy staged in shared memory, rows of up to 2 MB of both
//    pipelined by one row (split_smem.cuh). 1 GiB, % of copy, before -> split_smem, one
//    run per GPU: rows past 1 MB (benchmarks/h100_2026-11-24/wide_bwd_175c6d7.md,
//    h200_2026-11-24/wide_bwd_175c6d7.md), H100 / H200: fp32 524288 (block_uncached)
//    57.0 -> 77.0 / 54.6 -> 70.9; fp32 1048576 58.2 -> 73.8 / 58.0 -> 67.3; bf16
//    1048576 58.0 -> 76.4 / 57.3 -> 70.4; rows of 1 MB, pipelined
//    (h*_2026-11-24/bwd_pipelined_9b0368f.md), cluster_regs -> split_smem: fp32 262144
//    83.1 -> 92.2 / 68.8 -> 83.5, bf16 524288 83.9 -> 90.1 / 68.1 -> 79.3 (log-softmax
//    82.5 -> 91.1 / 68.5 -> 81.2, 80.2 -> 85.1 / 66.4 -> 68.9). Below 1 MB the clusters
//    stay ahead on one GPU or the other (fp32 131072: H100 96.1 against 92.9, bf16
//    262144: H200 81.1 against 80.4). Few rows gain most: 1 x 1048576 fp32 in a CUDA
//    graph, 205.9 us (block_uncached) -> 9.9 on the H200 (latency_bwd_175c6d7.md);
// 3. (sm_90) cluster_regs over a 2-16 CTA cluster when two or more of its CTAs are
//    resident per SM (its plan tries four 256-thread CTAs per SM first: fp32 to 65536,
//    16-bit to 131072 at 90-100 on both GPUs), but on a GPU with
//    kGradClusterMaxSmBandwidth or more of DRAM bandwidth per SM a 16-CTA cluster only
//    where block_hybrid cannot hold the rows (bf16 73728, 16 CTAs of 160 threads against
//    block_hybrid: H200 87.4 against 90.2, H100 96.8 against 93.3), or when one is
//    resident, of at least kGradClusterMinSmThreads threads, on a GPU with less than
//    kGradClusterMaxSmBandwidth of DRAM bandwidth per SM: with one CTA per SM nothing
//    overlaps a CTA's wait for its peers, and the more bytes per second an SM must
//    move, the more that wait costs (session 25: H100, 25 GB/s per SM, 96.8-99.2 at
//    fp32 24576-32768; H200, 37 GB/s per SM, 79.9-89.3 where block_hybrid gave
//    91.2-93.4);
// 4. (sm_90) block_hybrid while one CTA holds both rows (16-bit to ~74 K columns:
//    where the clusters of step 3 are not resident);
// 5. block_smem while one block's shared memory holds both (GPUs without clusters: on
//    sm_90 the paths above measured better, block_smem 73-84 on the H200);
// 6. cluster_regs over a 2-16 CTA cluster (sm_90: rows up to 1 MB of each tensor);
// 7. block_uncached: two passes, the second from L2 where the rows in flight fit.
// As forward, the trial plans are for an aligned input of the same width.
// Rule 0b: 16-bit rows of y of at most this many bytes past warp_per_row (1025-2048
// columns) take block_smem where its plan reads them in whole 16-byte packs. cluster_regs'
// one CTA of such a row is 3-4 warps at 32 bytes of y and of dy a thread, and where the
// row leaves part of its last warp's lanes idle it trails block_smem, whose threads each
// stage several packs of both rows. 1 GiB, % of copy, H200, softmax / log-softmax
// backward, bf16, cluster_regs (auto's choice before) -> block_smem, one run
// (benchmarks/h200_2026-11-28/smem_bwd16_sweep_h200_e51b020.csv): 1040 87.3 / 85.3 ->
// 92.1 / 92.7, 1152 92.0 / 90.4 -> 97.6 / 98.6, 1280 96.2 / 94.5 -> 102.7 / 103.4, 1408
// 100.7 / 97.9 -> 103.7 / 104.3, 1536 104.0 / 102.6 -> 104.8 / 104.7, 1664 88.5 / 85.6 ->
// 104.6 / 104.6, 1792 91.4 / 89.0 -> 104.5 / 104.5, 2048 104.1 / 104.1 -> 104.3 / 104.3;
// past it cluster_regs keeps the lead or ties (2080 99.7 / 97.5 against 95.0 / 96.2, 2304
// 104.3 against 102.7, 4096 104.0 against 97.4); fp16 1040 / 1280 86.8 / 95.7 -> 94.3 /
// 104.1 (smem_bwd_sweep_fp32_fp16_h200_e51b020.csv). fp32 rows stay with cluster_regs
// (1040 103.2 against 82.9). H100 (call 17 of benchmarks/h200_2026-11-28/device_calls.sh,
// bf16 1040): 101.4 / 100.3 -> 102.0 / 102.1. The rule against the code before it, H200,
// two rounds alike (smem16_bwd_compare_h200_d43b67d.txt): the gains above at 1040-1792 in
// bf16 and fp16, 2048-2304 within 0.2.
constexpr int64_t kGradSmem16MaxRowBytes = 4096;

template <typename T>
Plan plan_auto_backward_by_width(const Problem& p) {
  const auto n = [](int64_t v) { return std::to_string(v); };
  if (p.cols <= kWarpRowMaxCols) {
    return auto_choice(plan_warp_per_row_backward<T>(p), AutoReason::narrow_row,
                  "cols " + n(p.cols) + " <= WARP_PER_ROW_MAX_COLS " + n(kWarpRowMaxCols) +
                      ": rows of y and dy in registers");
  }
  if (sizeof(T) == 2 && p.cols * static_cast<int64_t>(sizeof(T)) <= kGradSmem16MaxRowBytes) {
    if (Plan own = plan_block_smem_backward<T>(p); own.status == PlanStatus::ok && own.realigned == 0 &&
                                                   own.pack * static_cast<int64_t>(sizeof(T)) == 16) {
      const int64_t smem_bytes = own.smem_bytes;
      return auto_choice(std::move(own), AutoReason::grad_smem_16bit,
                         "16-bit rows of y of " + n(p.cols * static_cast<int64_t>(sizeof(T))) + " B <= " +
                             n(kGradSmem16MaxRowBytes) + " B in whole 16-byte packs: y and dy, " + n(smem_bytes) +
                             " B, in one block's shared memory");
    }
  }
  const Problem aligned{0, 0, 2, p.cols, p.cols, p.device, 0, p.cols};
  const Plan regs = plan_cluster_regs_backward<T>(aligned);
  if (regs.status == PlanStatus::ok && regs.cluster_size == 1) {
    if (Plan own = plan_cluster_regs_backward<T>(p); own.status == PlanStatus::ok) {
      return auto_choice(std::move(own), AutoReason::one_cta_registers,
                         "rows of y and dy in the registers of one CTA of " + n(regs.threads) + " threads");
    }
  }
  const int64_t row_bytes = p.cols * static_cast<int64_t>(sizeof(T));
  const DeviceProperties device = device_properties(p.device);
  const int64_t sm_bandwidth = device.dram_bytes_per_sm_s();
  const int64_t split_min_row_bytes =
      sm_bandwidth >= kSplitGradFastSmBandwidth ? kSplitGradFastSmMinRowBytes : kSplitGradMinRowBytes;
  // The rows rules 1a and 1b take by their width and count.
  const bool split_width = p.rows >= device.sm_count && row_bytes >= split_min_row_bytes;
  // Rows of that width but fewer than the SMs take rule 1a' alone: rows that 16 CTAs do
  // not hold and whose CTAs fill the GPU kSplitHybridMinWaves times, as the forward's
  // rule 2c (fp32 2097152: 128 rows per GiB).
  if (device.major >= kClusterMinMajor && row_bytes >= split_min_row_bytes) {
    // Rule 1a, decided on the aligned row's plan as rule 1b is.
    const Plan trial = plan_block_hybrid_backward<T>(aligned);
    if (trial.status == PlanStatus::row_exceeds_smem ||
        (split_width && hybrid_clusters_leave_sms_idle(trial, device.sm_count))) {
      // Rule 1a': where the aligned rows' clusters would leave SMs idle, or 16 CTAs do
      // not hold them.
      const Plan global = plan_split_hybrid_backward<T>(aligned);
      const bool fills = split_width || split_hybrid_rows_fill_gpu(global, p.rows, device.sm_count);
      Plan own = global.status == PlanStatus::ok && fills ? plan_split_hybrid_backward<T>(p) : global;
      if (fills && own.status == PlanStatus::ok && own.realigned == 0) {
        return auto_choice(std::move(own), AutoReason::split_hybrid_rows,
                           "rows of y and dy of " + n(row_bytes) + " B each over " + n(global.split) +
                               " CTAs exchanging their sums through global memory, each its slices in registers and " +
                               n(global.smem_bytes) + " B of shared memory" +
                               hybrid_clusters_words(trial, device.sm_count));
      }
    }
    if (split_width) {
      Plan chosen = trial.status == PlanStatus::ok ? plan_block_hybrid_backward<T>(p) : trial;
      if (chosen.status == PlanStatus::ok && chosen.realigned == 0) {
        return auto_choice(std::move(chosen), AutoReason::grad_cluster_hybrid,
                           "rows of y and dy of " + n(row_bytes) + " B each over a cluster of " +
                               n(trial.cluster_size) + " CTAs, each its slices in registers and " +
                               n(trial.smem_bytes) + " B of shared memory, " + n(sm_bandwidth / 1000000) +
                               " MB/s of DRAM bandwidth per SM");
      }
    }
  }
  if (split_width) {
    // Decided on the aligned row's plan, the input's own launched (a misaligned view's
    // narrower packs may cut more chunks; where they no longer fit, the rules below).
    const Plan trial = plan_split_backward<T>(aligned);
    const int64_t groups = trial.status == PlanStatus::ok ? resident_row_groups(trial, p.device) : 0;
    // One group in chunks of kSplitWideThreads (split.cuh: kSplitGradWideGroups).
    if (groups >= kSplitGradMinGroups || (groups >= 1 && trial.threads == kSplitWideThreads)) {
      Plan chunks = plan_split_backward<T>(p);
      if (chunks.status == PlanStatus::ok) {
        return auto_choice(std::move(chunks), AutoReason::split_grad_rows,
                           "rows of y and dy of " + n(row_bytes) + " B each in " + n(trial.split) +
                               " chunks in the registers of persistent CTAs exchanging their sums through global "
                               "memory, " + n(sm_bandwidth / 1000000) + " MB/s of DRAM bandwidth per SM");
      }
    }
  }
  if (row_bytes >= kSplitSmemMinRowBytes) {
    Plan parts = plan_split_smem_backward<T>(p);
    if (parts.status == PlanStatus::ok) {
      const int64_t split = parts.split;
      return auto_choice(std::move(parts), AutoReason::split_smem_rows,
                         "rows of y and dy of " + n(row_bytes) + " B each, in " + n(split) +
                             " parts staged in shared memory over CTAs exchanging through global memory");
    }
  }
  if (device.major >= kClusterMinMajor) {
    const Plan hybrid = plan_block_hybrid_backward<T>(aligned, 1);
    // The input's own one-CTA plan: a misaligned view keeps fewer bytes per thread in
    // registers (narrower packs), so one CTA may not hold rows that it holds aligned;
    // the rules below serve those.
    Plan own = hybrid.status == PlanStatus::ok ? plan_block_hybrid_backward<T>(p, 1) : hybrid;
    const bool one_cta = own.status == PlanStatus::ok;
    const auto hybrid_choice = [&] {
      return auto_choice(std::move(own), AutoReason::one_cta_hybrid,
                         "rows of y and dy in the registers (" + n(hybrid.cols_per_thread * sizeof(T)) +
                             " B of each per thread) and " + n(hybrid.smem_bytes) + " B of shared memory of one CTA");
    };
    if (one_cta && hybrid.cols_per_thread * static_cast<int64_t>(sizeof(T)) >= kGradHybridFirstBytes) {
      return hybrid_choice();
    }
    const int64_t sm_threads = regs.resident_per_sm * regs.threads;
    // A cluster of kMaxClusterSize CTAs (every CTA of the row waits on the slowest of up
    // to 16 SMs) on a GPU with kGradClusterMaxSmBandwidth or more of DRAM bandwidth per
    // SM only where block_hybrid cannot hold the rows.
    const bool widest_cluster =
        regs.cluster_size >= kMaxClusterSize && one_cta && sm_bandwidth >= kGradClusterMaxSmBandwidth;
    if (regs.status == PlanStatus::ok && !widest_cluster &&
        (regs.resident_per_sm >= 2 ||
         (sm_bandwidth < kGradClusterMaxSmBandwidth && sm_threads >= kGradClusterMinSmThreads))) {
      if (Plan own = plan_cluster_regs_backward<T>(p); own.status == PlanStatus::ok) {
        return auto_choice(std::move(own), AutoReason::cluster_registers,
                           "rows of y and dy in the registers of a cluster of " + n(regs.cluster_size) + " CTAs, " +
                               n(regs.resident_per_sm) + " x " + n(regs.threads) + " threads resident per SM, " +
                               n(sm_bandwidth / 1000000) + " MB/s of DRAM bandwidth per SM");
      }
    }
    if (one_cta) return hybrid_choice();
  }
  const Plan smem = plan_block_smem_backward<T>(aligned);
  if (smem.status == PlanStatus::ok) {
    if (Plan own = plan_block_smem_backward<T>(p); own.status == PlanStatus::ok) {
      return auto_choice(std::move(own), AutoReason::block_smem,
                         "rows of y and dy, " + n(smem.smem_bytes) + " B, in one block's shared memory");
    }
  }
  if (regs.status == PlanStatus::ok) {
    if (Plan own = plan_cluster_regs_backward<T>(p); own.status == PlanStatus::ok) {
      return auto_choice(std::move(own), AutoReason::cluster_registers,
                         "rows of y and dy in the registers of a cluster of " + n(regs.cluster_size) + " CTAs");
    }
  }
  // A misaligned view's narrower packs may leave the rules above without a plan that
  // holds it (its aligned twin's did): split's chunks where they fit the GPU at once.
  if (Plan chunks = plan_split_backward<T>(p); chunks.status == PlanStatus::ok) {
    const int64_t split = chunks.split;
    return auto_choice(std::move(chunks), AutoReason::split_grad_rows,
                       "rows of y and dy of " + n(row_bytes) + " B each in " + n(split) +
                           " chunks in the registers of persistent CTAs exchanging their sums through global memory "
                           "(no on-chip plan above holds this view's rows)");
  }
  return auto_choice(plan_block_uncached_backward<T>(p), AutoReason::fallback_uncached,
                "rows of y and dy too wide for registers and shared memory on this GPU: two passes");
}

// The backward's rule 1c, over the rules above: rows read in three parts (a realigned
// plan: odd widths, common/row_edges.cuh) that those rules give to cluster_regs go to
// split, for as many rows as the SMs or more with kSplitGradMinGroups row groups at once,
// on GPUs of kSplitGradFastSmBandwidth or more of DRAM bandwidth per SM from
// kSplitEdgesFastSmMinRowBytes rows of y, elsewhere where cluster_regs' plan is a
// cluster of 2-16 CTAs. In three parts cluster_regs' first CTA of a row reads the edges
// on the row's path, which every CTA of the row's cluster then waits for; split's threads
// hold theirs from a load a row ahead (split.cuh). 1 GiB, % of copy, softmax backward,
// auto's choice before -> split (benchmarks/h*_2026-11-26e/odd_split_rows_*_ef100dd_*;
// the H200's fp32 1025-2561 81.5-88.1 -> 95.3-95.9 in edges_rule_h200_e6b0d22_*):
//   H200 (37 GB/s per SM): fp32 3001 / 8193 / 16385 / 50257 84.9 / 88.8 / 81.1 / 76.5 ->
//     94.5 / 94.6 / 94.2 / 92.0; bf16 3001 / 8193 / 16385 / 20001 / 32769 / 50257 /
//     70001 / 100001 83.3 / 90.4 / 88.1 / 70.3 / 79.3 / 80.0 / 75.1 / 73.2 -> 85.6 / 93.2
//     / 91.3 / 84.1 / 91.2 / 85.5 / 88.3 / 86.5 (block_hybrid's fp32 32769 stays: 99.7
//     against 95.9);
//   H100 (25 GB/s per SM), clusters of 512-thread CTAs: fp32 50257 / 70001 / 100001
//     90.1 / 88.9 / 82.5 -> 97.2 / 97.2 / 97.1, bf16 92.5 / 89.6 / 87.5 -> 95.9 / 96.3 /
//     96.3; its one-CTA plans stay (fp32 8193 / 16385 101.3 / 101.3 against 96.5 / 96.4;
//     bf16 32769 101.7 against 96.6, though bf16 20001's one 1024-thread CTA, 85.0, loses
//     to split's 95.4).
template <typename T>
Plan plan_auto_backward(const Problem& p) {
  Plan chosen = plan_auto_backward_by_width<T>(p);
  if (chosen.variant != Variant::cluster_regs || chosen.realigned == 0) return chosen;
  const DeviceProperties device = device_properties(p.device);
  const int64_t row_bytes = p.cols * static_cast<int64_t>(sizeof(T));
  const int64_t sm_bandwidth = device.dram_bytes_per_sm_s();
  const bool fast_sm_row = sm_bandwidth >= kSplitGradFastSmBandwidth && row_bytes >= kSplitEdgesFastSmMinRowBytes;
  if (p.rows < device.sm_count || !(fast_sm_row || chosen.cluster_size > 1)) return chosen;
  Plan chunks = plan_split_backward<T>(p);
  if (chunks.status != PlanStatus::ok) return chosen;
  const int64_t split = chunks.split;
  const int64_t groups = chunks.blocks / split;
  if (groups < kSplitGradMinGroups) return chosen;
  const auto n = [](int64_t v) { return std::to_string(v); };
  return auto_choice(std::move(chunks), AutoReason::split_edges_rows,
                     "rows of y and dy of " + n(row_bytes) + " B read in three parts, each in " + n(split) +
                         " chunks, " + n(groups) + " row groups at once, in the registers of persistent CTAs "
                         "exchanging their sums through global memory, instead of cluster_regs' " +
                         n(chosen.cluster_size) + " x " + n(chosen.threads) + " threads (" +
                         n(chosen.resident_per_sm) + " per SM), " + n(sm_bandwidth / 1000000) +
                         " MB/s of DRAM bandwidth per SM");
}

}  // namespace softmax
}  // namespace sk
