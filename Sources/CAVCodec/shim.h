#ifndef STASH_CAVCODEC_SHIM_H
#define STASH_CAVCODEC_SHIM_H
#include <libavcodec/avcodec.h>
#include <libavutil/error.h>
#include <libavutil/mem.h>

/* AVERROR is a macro over errno values and tags, which Swift cannot import. */
static inline int stash_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int stash_averror_eof(void) { return AVERROR_EOF; }
#endif
