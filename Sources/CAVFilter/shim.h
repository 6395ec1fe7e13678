#ifndef STASH_CAVFILTER_SHIM_H
#define STASH_CAVFILTER_SHIM_H
/* libavfilter's atempo (tempo change with the pitch kept) as four calls on interleaved float:
 * a graph abuffer -> atempo -> abuffersink. Built in C because the graph calls take option
 * strings and AVERROR macros, which Swift cannot import.
 *
 * libavfilter is not linked: it is opened with dlopen on the first speed other than 1x
 * (stash_avfilter_open). Linked, the dynamic loader would map it and the many libraries it needs
 * at every start, before the first screen, for a feature most runs never use. The loading is
 * CLazyLibrary's, shared with CAVCodec. */
#include "../CLazyLibrary/lazy_library.h"
#include <errno.h>
#include <string.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/version.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/samplefmt.h>

/* The libavfilter calls the shim makes, each typed from its declaration in the headers. */
#define STASH_AVFILTER_CALLS(X)   \
  X(avfilter_get_by_name)         \
  X(avfilter_graph_alloc)         \
  X(avfilter_graph_config)        \
  X(avfilter_graph_create_filter) \
  X(avfilter_graph_free)          \
  X(avfilter_graph_send_command)  \
  X(avfilter_link)                \
  X(av_buffersrc_add_frame_flags) \
  X(av_buffersink_get_frame)
/* stash_avfilter (the table), stash_avfilter_soname() (libavfilter.so.<the headers' major>) and
 * stash_avfilter_open(). */
STASH_LAZY_LIBRARY(stash_avfilter, "libavfilter.so." STASH_LAZY_STRING(LIBAVFILTER_VERSION_MAJOR),
                   STASH_AVFILTER_CALLS)

typedef struct stash_tempo {
  const stash_avfilter *av;
  AVFilterGraph *graph;
  AVFilterContext *source;
  AVFilterContext *tempo;
  AVFilterContext *sink;
  AVFrame *held;   /* an output frame not wholly pulled yet */
  int heldOffset;  /* frames of it already pulled */
  int channels;
  int rate;
  long long pts;
} stash_tempo;

static inline void stash_tempo_close(stash_tempo *t) {
  if (!t) return;
  av_frame_free(&t->held);
  if (t->graph) t->av->avfilter_graph_free(&t->graph);
  av_free(t);
}

/* A graph abuffer -> filters[0] -> ... -> filters[count - 1] -> abuffersink on `channels` x `rate`
 * interleaved float, each filter given by its name and option string and named "f0", "f1", ...
 * (for stash_chain_command); pushed and pulled with the stash_tempo calls. NULL on failure. */
static inline stash_tempo *stash_chain_open(const stash_avfilter *av, int rate, int channels, int count,
                                            const char *const *names, const char *const *options) {
  av_log_set_level(AV_LOG_QUIET);
  if (count < 1 || count > 8) return NULL;
  stash_tempo *t = av_mallocz(sizeof *t);
  if (!t) return NULL;
  t->av = av;
  t->channels = channels;
  t->rate = rate;
  t->graph = av->avfilter_graph_alloc();
  if (!t->graph) goto fail;
  AVChannelLayout layout;
  av_channel_layout_default(&layout, channels);
  char layoutName[64] = {0};
  av_channel_layout_describe(&layout, layoutName, sizeof layoutName);
  av_channel_layout_uninit(&layout);
  char args[256];
  snprintf(args, sizeof args, "time_base=1/%d:sample_rate=%d:sample_fmt=flt:channel_layout=%s", rate, rate,
           layoutName);
  if (av->avfilter_graph_create_filter(&t->source, av->avfilter_get_by_name("abuffer"), "in", args, NULL,
                                       t->graph) < 0)
    goto fail;
  AVFilterContext *previous = t->source;
  for (int i = 0; i < count; i++) {
    const AVFilter *filter = av->avfilter_get_by_name(names[i]);
    AVFilterContext *context = NULL;
    char name[16];
    snprintf(name, sizeof name, "f%d", i);
    if (!filter || av->avfilter_graph_create_filter(&context, filter, name, options[i], NULL, t->graph) < 0)
      goto fail;
    if (av->avfilter_link(previous, 0, context, 0) < 0) goto fail;
    if (i == 0) t->tempo = context;
    previous = context;
  }
  if (av->avfilter_graph_create_filter(&t->sink, av->avfilter_get_by_name("abuffersink"), "out", NULL, NULL,
                                       t->graph) < 0)
    goto fail;
  if (av->avfilter_link(previous, 0, t->sink, 0) < 0) goto fail;
  if (av->avfilter_graph_config(t->graph, NULL) < 0) goto fail;
  return t;
fail:
  stash_tempo_close(t);
  return NULL;
}

/* Sends `command` with `argument` to filter number `index` of a chain while it runs (its state
 * kept). 0 or a negative AVERROR. */
static inline int stash_chain_command(stash_tempo *t, int index, const char *command, const char *argument) {
  char name[16];
  snprintf(name, sizeof name, "f%d", index);
  return t->av->avfilter_graph_send_command(t->graph, name, command, argument, NULL, 0, 0);
}

/* A stretcher for `channels` x `rate` interleaved float at `tempo` (0.5 ... 100), through `av`
 * (from stash_avfilter_open): a chain of one atempo filter. NULL on failure. */
static inline stash_tempo *stash_tempo_open(const stash_avfilter *av, int rate, int channels, double tempo) {
  char tempoArgs[64];
  snprintf(tempoArgs, sizeof tempoArgs, "tempo=%.6f", tempo);
  const char *const names[1] = {"atempo"};
  const char *const options[1] = {tempoArgs};
  return stash_chain_open(av, rate, channels, 1, names, options);
}

/* Changes the tempo of what comes out from now on, keeping the filter's state (no click). */
static inline int stash_tempo_set(stash_tempo *t, double tempo) {
  char arg[64];
  snprintf(arg, sizeof arg, "%.6f", tempo);
  return stash_chain_command(t, 0, "tempo", arg);
}

/* Hands `frames` interleaved frames in; frames == 0 marks the end (the filter lets out its tail).
 * 0 or a negative AVERROR. */
static inline int stash_tempo_push(stash_tempo *t, const float *samples, int frames) {
  if (frames <= 0) return t->av->av_buffersrc_add_frame_flags(t->source, NULL, 0);
  AVFrame *frame = av_frame_alloc();
  if (!frame) return AVERROR(ENOMEM);
  frame->format = AV_SAMPLE_FMT_FLT;
  frame->sample_rate = t->rate;
  frame->nb_samples = frames;
  av_channel_layout_default(&frame->ch_layout, t->channels);
  int result = av_frame_get_buffer(frame, 0);
  if (result >= 0) {
    memcpy(frame->data[0], samples, (size_t)frames * (size_t)t->channels * sizeof(float));
    frame->pts = t->pts;
    t->pts += frames;
    result = t->av->av_buffersrc_add_frame_flags(t->source, frame, 0);
  }
  av_frame_free(&frame);
  return result;
}

/* Takes up to `capacity` stretched frames into `out`: the count (0: none ready now), or -1 once
 * the tail after the end has all come out, or another negative AVERROR. */
static inline int stash_tempo_pull(stash_tempo *t, float *out, int capacity) {
  int taken = 0;
  while (taken < capacity) {
    if (!t->held) {
      AVFrame *frame = av_frame_alloc();
      if (!frame) return AVERROR(ENOMEM);
      int result = t->av->av_buffersink_get_frame(t->sink, frame);
      if (result < 0) {
        av_frame_free(&frame);
        if (result == AVERROR(EAGAIN)) return taken;
        if (result == AVERROR_EOF) return taken > 0 ? taken : -1;
        return result;
      }
      if (frame->format != AV_SAMPLE_FMT_FLT || frame->ch_layout.nb_channels != t->channels) {
        av_frame_free(&frame);
        return AVERROR(EINVAL);
      }
      t->held = frame;
      t->heldOffset = 0;
    }
    int left = t->held->nb_samples - t->heldOffset;
    int n = left < capacity - taken ? left : capacity - taken;
    memcpy(out + (size_t)taken * (size_t)t->channels,
           (const float *)t->held->data[0] + (size_t)t->heldOffset * (size_t)t->channels,
           (size_t)n * (size_t)t->channels * sizeof(float));
    taken += n;
    t->heldOffset += n;
    if (t->heldOffset >= t->held->nb_samples) av_frame_free(&t->held);
  }
  return taken;
}
#endif
