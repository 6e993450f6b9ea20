/* nw_cpu.h - the CPU aligner: exact Needleman-Wunsch with trace-back, many
 * pairs at once in SIMD lanes (inter-sequence vectorisation).
 *
 * One query (sequence i, the DP rows) is aligned against up to
 * mnw_cpu_lanes() targets (sequences j, the columns) per kernel call, one
 * target per lane: 16-bit lanes when mnw_fits16() proves no overflow is
 * possible, 32-bit lanes otherwise. The instruction set (AVX-512BW, AVX2 or
 * SSE4.1) is picked once at run time from cpuid; MNW_SIMD=avx512|avx2|sse41
 * in the environment forces one (tests compare them). A lane group whose
 * direction bits would pass 256 MB (sequences of several thousand bases)
 * runs on the next narrower instruction set. Results are exactly those of the
 * reference aligner (tests/ref) for every scoring mode: same score, same
 * alignment (the tie-break rule of docs/SCORING.md).
 *
 * Ownership: a workspace is owned by one thread; it grows to the largest
 * batch seen (about m * max(n) * 4 bytes of direction bits per 16 lanes,
 * twice that with affine gaps) and is released by mnw_cpu_ws_free.
 * Thread-safety: any number of threads may align at once, each with its own
 * workspace; mnw_cpu_isa() is safe to call from any thread.
 */
#ifndef MNW_NW_CPU_H
#define MNW_NW_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "lib/aln.h"
#include "lib/score.h"
#include "workers/tb/trace.h"

typedef struct mnw_cpu_ws mnw_cpu_ws;

mnw_cpu_ws *mnw_cpu_ws_new(void);
void mnw_cpu_ws_free(mnw_cpu_ws *ws);
/* Counts mode (issue 20): the aligning calls then give each pair's figures
 * (pathfig.h, eq by the table figs, which must outlive ws) and no runs;
 * NULL (the default): runs. */
void mnw_cpu_ws_figures(mnw_cpu_ws *ws, const mnw_eqtab *figs);

/* "avx512", "avx2" or "sse41": the instruction set in use (resolved on the
 * first call); NULL if the CPU has not even SSE4.1. */
const char *mnw_cpu_isa(void);
/* Lanes of the 16-bit kernel of the instruction set in use (32, 16 or 8). */
int mnw_cpu_lanes(void);

/* Aligns query q (length m) with each of the count targets t[k] (length
 * n[k]) and fills out[k]. Any count >= 0 (split into lane groups inside;
 * the caller groups targets of similar length for speed: lanes of one group
 * run to the longest target). Lengths 0 are allowed. out[k] gets the score
 * and the runs, or in counts mode (mnw_cpu_ws_figures) the figures only. */
void mnw_cpu_align(mnw_cpu_ws *ws, const mnw_scoring *sc, const uint8_t *q, int m,
                   const uint8_t *const *t, const int *n, int count, mnw_aln *out);

/* Matrices only (for the trace-back thread, workers/tb): the caller splits
 * its targets into lane groups itself. mnw_cpu_plan says how many of the
 * count >= 1 targets n[0 ..] the next kernel call takes (the split
 * mnw_cpu_align makes: widest instruction set under the direction budget,
 * 16-bit lanes when they fit) and how many bytes of direction bits it
 * writes. mnw_cpu_dirs computes that group: its direction bits go to dir (at
 * least g->dir_bytes bytes, 8-byte aligned; the caller owns it), and
 * ends[0 .. g->count) get, per target, the view into dir, the end cell and
 * the score, for mnw_tb_trace (workers/tb/trace.h). Results equal
 * mnw_cpu_align's. The views point into dir: it must outlive their use. */
typedef struct {
    int count;        /* targets in the group */
    size_t dir_bytes; /* bytes of direction bits it writes (0 for empty sequences) */
    int isa_, wide_;  /* private: the kernel */
} mnw_cpu_group;

void mnw_cpu_plan(const mnw_scoring *sc, int m, const int *n, int count, mnw_cpu_group *g);
void mnw_cpu_dirs(mnw_cpu_ws *ws, const mnw_cpu_group *g, const mnw_scoring *sc, const uint8_t *q, int m,
                  const uint8_t *const *t, const int *n, void *dir, mnw_tb_end *ends);

#endif
