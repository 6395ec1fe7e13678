#ifndef STASH_LAZY_LIBRARY_H
#define STASH_LAZY_LIBRARY_H
/* A C library opened with dlopen on first use instead of linked, for the libraries the browser
 * needs only for some things (libavcodec to play, libavfilter to play at another speed): linked,
 * the dynamic loader maps them and everything they need at every start, before the first screen.
 * Only their headers are used at build time: they give the soname and the type of every call.
 *
 * A shim lists the calls it makes as an X-macro and declares the library with
 * STASH_LAZY_LIBRARY; see CAVCodec/shim.h and CAVFilter/shim.h. */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define STASH_LAZY_STRING_(x) #x
/* The text of a macro's value: "lib" "avcodec" ".so." STASH_LAZY_STRING(LIBAVCODEC_VERSION_MAJOR). */
#define STASH_LAZY_STRING(x) STASH_LAZY_STRING_(x)

/* Opens `soname` and has `resolve` fill `table` from it. RTLD_NOW | RTLD_LOCAL: every symbol is
 * bound now and nothing of the library joins the global namespace. On success the library stays
 * open for the life of the process; on failure it is closed again, `table` is freed and NULL
 * comes back, with in `error` what failed, for the user: "<soname> could not be loaded (<why>)"
 * when dlopen failed, "<soname> lacks <call> (<why>)" when it opened but a call is missing, `why`
 * being dlerror()'s text. The one place that words a lazy library's refusal. */
static inline void *stash_lazy_open(const char *soname, void *table,
                                    const char *(*resolve)(void *library, void *table), char *error,
                                    size_t capacity) {
  if (!table) {
    snprintf(error, capacity, "%s could not be loaded (out of memory)", soname);
    return NULL;
  }
  void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    snprintf(error, capacity, "%s could not be loaded (%s)", soname, why ? why : "dlopen failed");
    free(table);
    return NULL;
  }
  const char *missing = resolve(library, table);
  if (missing) {
    const char *why = dlerror();
    snprintf(error, capacity, "%s lacks %s (%s)", soname, missing, why ? why : "dlsym found nothing");
    free(table);
    dlclose(library);
    return NULL;
  }
  return table;
}

/* One field of a table: a pointer typed from the call's own declaration, named as the call. */
#define STASH_LAZY_FIELD(symbol) __typeof__(symbol) *symbol;
/* One look-up: the enclosing resolver returns the symbol's name when the library lacks it. */
#define STASH_LAZY_RESOLVE(symbol) \
  if (!(*(void **)&calls->symbol = dlsym(library, #symbol))) return #symbol;

/* Declares, for the calls CALLS lists (CALLS(X) expands to X(call) for each):
 *   typedef struct NAME { <one typed pointer per call> } NAME;
 *   const char *NAME_soname(void);  SONAME, the library these headers are from;
 *   const NAME *NAME_open(const char *soname, char *error, size_t capacity);
 * NAME_open opens `soname` (NAME_soname() but for tests) and resolves every call: the table, never
 * freed, or NULL with what failed in `error` (see stash_lazy_open). */
#define STASH_LAZY_LIBRARY(NAME, SONAME, CALLS)                                                      \
  typedef struct NAME {                                                                              \
    CALLS(STASH_LAZY_FIELD)                                                                          \
  } NAME;                                                                                            \
  static inline const char *NAME##_soname(void) { return SONAME; }                                   \
  static inline const char *NAME##_resolve(void *library, void *table) {                             \
    NAME *calls = (NAME *)table;                                                                     \
    CALLS(STASH_LAZY_RESOLVE)                                                                        \
    return NULL;                                                                                     \
  }                                                                                                  \
  static inline const NAME *NAME##_open(const char *soname, char *error, size_t capacity) {          \
    return (const NAME *)stash_lazy_open(soname, calloc(1, sizeof(NAME)), NAME##_resolve, error, capacity); \
  }
#endif
