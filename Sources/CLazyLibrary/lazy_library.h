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

/* dlerror()'s text (it names the file, or the symbol missing) into `error`, else `otherwise`. */
static inline void stash_lazy_reason(char *error, size_t capacity, const char *otherwise) {
  const char *why = dlerror();
  snprintf(error, capacity, "%s", why ? why : otherwise);
}

/* Opens `soname` and has `resolve` fill `table` from it. RTLD_NOW | RTLD_LOCAL: every symbol is
 * bound now and nothing of the library joins the global namespace. On success the library stays
 * open for the life of the process; on failure it is closed again, `table` is freed and NULL
 * comes back, with dlerror()'s text in `error`. */
static inline void *stash_lazy_open(const char *soname, void *table, int (*resolve)(void *library, void *table),
                                    char *error, size_t capacity) {
  if (!table) {
    snprintf(error, capacity, "out of memory");
    return NULL;
  }
  void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    stash_lazy_reason(error, capacity, "dlopen failed");
    free(table);
    return NULL;
  }
  if (!resolve(library, table)) {
    stash_lazy_reason(error, capacity, "a symbol is missing");
    free(table);
    dlclose(library);
    return NULL;
  }
  return table;
}

/* One field of a table: a pointer typed from the call's own declaration, named as the call. */
#define STASH_LAZY_FIELD(symbol) __typeof__(symbol) *symbol;
/* One look-up: false from the enclosing resolver when the library lacks the symbol. */
#define STASH_LAZY_RESOLVE(symbol) \
  if (!(*(void **)&calls->symbol = dlsym(library, #symbol))) return 0;

/* Declares, for the calls CALLS lists (CALLS(X) expands to X(call) for each):
 *   typedef struct NAME { <one typed pointer per call> } NAME;
 *   const char *NAME_soname(void);  SONAME, the library these headers are from;
 *   const NAME *NAME_open(const char *soname, char *error, size_t capacity);
 * NAME_open opens `soname` (NAME_soname() but for tests) and resolves every call: the table, never
 * freed, or NULL with the loader's reason in `error`. */
#define STASH_LAZY_LIBRARY(NAME, SONAME, CALLS)                                                      \
  typedef struct NAME {                                                                              \
    CALLS(STASH_LAZY_FIELD)                                                                          \
  } NAME;                                                                                            \
  static inline const char *NAME##_soname(void) { return SONAME; }                                   \
  static inline int NAME##_resolve(void *library, void *table) {                                     \
    NAME *calls = (NAME *)table;                                                                     \
    CALLS(STASH_LAZY_RESOLVE)                                                                        \
    return 1;                                                                                        \
  }                                                                                                  \
  static inline const NAME *NAME##_open(const char *soname, char *error, size_t capacity) {          \
    return (const NAME *)stash_lazy_open(soname, calloc(1, sizeof(NAME)), NAME##_resolve, error, capacity); \
  }
#endif
