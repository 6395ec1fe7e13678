#ifndef STASH_CAVCODEC_SHIM_H
#define STASH_CAVCODEC_SHIM_H
/* libavcodec's AAC decoder. libavcodec is not linked: it is opened with dlopen when the first memo
 * is played (stash_avcodec_open). Linked, the dynamic loader would map it and the many libraries
 * it needs at every start, before the first screen, and the listing, showing and recovering memos
 * never use it. libavutil (frames, errors, logging) stays linked: it costs little. */
#include "../CLazyLibrary/lazy_library.h"
#include <libavcodec/avcodec.h>
#include <libavcodec/version.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/samplefmt.h>

/* The libavcodec calls StashPlayback makes, each typed from its declaration in the headers. */
#define STASH_AVCODEC_CALLS(X) \
  X(avcodec_version)           \
  X(avcodec_find_decoder)      \
  X(avcodec_alloc_context3)    \
  X(avcodec_open2)             \
  X(avcodec_free_context)      \
  X(avcodec_flush_buffers)     \
  X(avcodec_send_packet)       \
  X(avcodec_receive_frame)     \
  X(av_packet_alloc)           \
  X(av_packet_free)
/* stash_avcodec (the table), stash_avcodec_soname() (libavcodec.so.<the headers' major>) and
 * stash_avcodec_open(). */
STASH_LAZY_LIBRARY(stash_avcodec, "libavcodec.so." STASH_LAZY_STRING(LIBAVCODEC_VERSION_MAJOR), STASH_AVCODEC_CALLS)

/* The version of the libavcodec headers the program was built with (LIBAVCODEC_VERSION_INT):
 * known without opening the library. */
static inline unsigned stash_avcodec_header_version(void) { return LIBAVCODEC_VERSION_INT; }

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
