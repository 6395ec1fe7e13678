#ifndef STASH_CALSA_SHIM_H
#define STASH_CALSA_SHIM_H
#include <alsa/asoundlib.h>

/* ALSA prints its own errors to stderr from inside the library (for example "Unknown PCM" when a
   device is missing). stash reports every failure itself through snd_strerror, so that output is
   noise that would also tear a curses screen. The handler is variadic, which Swift cannot write,
   hence a static C function that ignores everything. */
static void stash_alsa_ignore_error(const char *file, int line, const char *function, int err,
                                    const char *fmt, ...) {
  (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/* Installs the ignoring handler; returns snd_lib_error_set_handler's result. */
static inline int stash_alsa_silence_errors(void) {
  return snd_lib_error_set_handler(stash_alsa_ignore_error);
}
#endif
