#ifndef STASH_CNCURSESW_SHIM_H
#define STASH_CNCURSESW_SHIM_H
/* SwiftPM drops pkg-config's cflags for system libraries, so ask for the wide API here. */
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <ncursesw/curses.h>

/* stdscr, LINES and COLS are mutable globals, which Swift 6 will not read; these read them. */
static inline WINDOW *stash_stdscr(void) { return stdscr; }
static inline int stash_lines(void) { return LINES; }
static inline int stash_cols(void) { return COLS; }
#endif
