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

/* The `type` of the PCM `name` as ALSA's configuration defines it (`hw`, `pulse`, `rate`, ...),
   copied into `out` (`size` bytes, NUL-terminated); returns 0, or a negative error code when the
   name has no definition or no type. snd_config_search_definition expands the definition's
   arguments; the copy it returns is freed here. */
static inline int stash_alsa_pcm_type(const char *name, char *out, size_t size) {
  int err = snd_config_update();
  if (err < 0) return err;
  snd_config_t *definition = NULL;
  err = snd_config_search_definition(snd_config, "pcm", name, &definition);
  if (err < 0) return err;
  snd_config_t *type = NULL;
  const char *text = NULL;
  err = snd_config_search(definition, "type", &type);
  if (err >= 0) err = snd_config_get_string(type, &text);
  if (err >= 0) snprintf(out, size, "%s", text);
  snd_config_delete(definition);
  return err < 0 ? err : 0;
}
#endif
