#ifndef STASH_CWCWIDTH_SHIM_H
#define STASH_CWCWIDTH_SHIM_H
/* The C library's wcwidth, on its own so the browser's pure code needs no curses. */
#include <wchar.h>

/* wcwidth is only declared under _XOPEN_SOURCE, which the Glibc module does not set. */
extern int wcwidth(wchar_t c);
static inline int stash_wcwidth(unsigned int c) { return wcwidth((wchar_t)c); }
#endif
