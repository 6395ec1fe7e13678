#ifndef STASH_CAVCODEC_SHIM_H
#define STASH_CAVCODEC_SHIM_H
#include <libavcodec/avcodec.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/samplefmt.h>

/* AVERROR is a macro over errno values and tags, which Swift cannot import. */
static inline int stash_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int stash_averror_eof(void) { return AVERROR_EOF; }
static inline int stash_averror_enomem(void) { return AVERROR(ENOMEM); }
static inline int stash_averror_einval(void) { return AVERROR(EINVAL); }
/* The padding libavcodec requires after extradata and packet data (a macro). */
static inline int stash_av_input_padding(void) { return AV_INPUT_BUFFER_PADDING_SIZE; }
/* libavcodec logs decoding trouble to stderr itself; stash reports errors with av_strerror. */
static inline void stash_av_quiet(void) { av_log_set_level(AV_LOG_QUIET); }
/* Channel count of a decoded frame (FFmpeg 5.1's ch_layout is a struct holding a union). */
static inline int stash_frame_channels(const AVFrame *frame) { return frame->ch_layout.nb_channels; }
#endif
