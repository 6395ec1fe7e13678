#ifndef STASH_CAVFILTER_SHIM_H
#define STASH_CAVFILTER_SHIM_H
/* libavfilter's atempo (tempo change with the pitch kept) as four calls on interleaved float:
 * a graph abuffer -> atempo -> abuffersink. Built in C because the graph calls take option
 * strings and AVERROR macros, which Swift cannot import. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/samplefmt.h>

typedef struct stash_tempo {
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
  avfilter_graph_free(&t->graph);
  av_free(t);
}

/* A stretcher for `channels` x `rate` interleaved float at `tempo` (0.5 ... 100); NULL on failure. */
static inline stash_tempo *stash_tempo_open(int rate, int channels, double tempo) {
  av_log_set_level(AV_LOG_QUIET);
  stash_tempo *t = av_mallocz(sizeof *t);
  if (!t) return NULL;
  t->channels = channels;
  t->rate = rate;
  t->graph = avfilter_graph_alloc();
  if (!t->graph) goto fail;
  AVChannelLayout layout;
  av_channel_layout_default(&layout, channels);
  char layoutName[64] = {0};
  av_channel_layout_describe(&layout, layoutName, sizeof layoutName);
  av_channel_layout_uninit(&layout);
  char args[256];
  snprintf(args, sizeof args, "time_base=1/%d:sample_rate=%d:sample_fmt=flt:channel_layout=%s", rate, rate,
           layoutName);
  char tempoArgs[64];
  snprintf(tempoArgs, sizeof tempoArgs, "tempo=%.6f", tempo);
  if (avfilter_graph_create_filter(&t->source, avfilter_get_by_name("abuffer"), "in", args, NULL, t->graph) < 0)
    goto fail;
  if (avfilter_graph_create_filter(&t->tempo, avfilter_get_by_name("atempo"), "tempo", tempoArgs, NULL,
                                   t->graph) < 0)
    goto fail;
  if (avfilter_graph_create_filter(&t->sink, avfilter_get_by_name("abuffersink"), "out", NULL, NULL, t->graph) < 0)
    goto fail;
  if (avfilter_link(t->source, 0, t->tempo, 0) < 0 || avfilter_link(t->tempo, 0, t->sink, 0) < 0) goto fail;
  if (avfilter_graph_config(t->graph, NULL) < 0) goto fail;
  return t;
fail:
  stash_tempo_close(t);
  return NULL;
}

/* Changes the tempo of what comes out from now on, keeping the filter's state (no click). */
static inline int stash_tempo_set(stash_tempo *t, double tempo) {
  char arg[64];
  snprintf(arg, sizeof arg, "%.6f", tempo);
  return avfilter_graph_send_command(t->graph, "tempo", "tempo", arg, NULL, 0, 0);
}

/* Hands `frames` interleaved frames in; frames == 0 marks the end (the filter lets out its tail).
 * 0 or a negative AVERROR. */
static inline int stash_tempo_push(stash_tempo *t, const float *samples, int frames) {
  if (frames <= 0) return av_buffersrc_add_frame_flags(t->source, NULL, 0);
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
    result = av_buffersrc_add_frame_flags(t->source, frame, 0);
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
      int result = av_buffersink_get_frame(t->sink, frame);
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
