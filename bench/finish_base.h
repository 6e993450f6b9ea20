/* finish_base.h - bench-finish's baseline: the path that turned a work
 * list's alignments into output bytes until issue 19 replaced it (frozen
 * 2026-11-25 at 79b1cee: lib/output.c's mnw_output_format, printf for the
 * identity and distance, zlib deflate for every gzip member). Kept so that
 * bench_finish measures the production path (lib/result.c) beside it in
 * one run; never used by mnw.
 * Ownership: the caller's buffers. Thread-safety: reentrant. */
#ifndef MNW_FINISH_BASE_H
#define MNW_FINISH_BASE_H

#include "lib/jobspec.h"
#include "lib/output.h"

/* The baseline of mnw_result_build: text of every enabled output of work
 * list r into text[], the gzip ones then compressed (zlib, one member each
 * at js->gzip_level) into out[] (the others copied). 0, or -1 when zlib
 * fails. */
int fb_build(const mnw_job_spec *js, mnw_range r, const mnw_aln *alns, mnw_buf text[MNW_NOUT], mnw_buf out[MNW_NOUT]);

#endif
