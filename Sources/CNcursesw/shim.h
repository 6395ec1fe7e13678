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
#include <wchar.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>

/* stdscr, LINES and COLS are mutable globals, which Swift 6 will not read; these read them. */
static inline WINDOW *stash_stdscr(void) { return stdscr; }
static inline int stash_lines(void) { return LINES; }
static inline int stash_cols(void) { return COLS; }
static inline int stash_colors(void) { return COLORS; }

/* Attribute and mouse masks are macros built from NCURSES_BITS, which Swift cannot import. */
static inline attr_t stash_a_normal(void) { return A_NORMAL; }
static inline attr_t stash_a_bold(void) { return A_BOLD; }
static inline attr_t stash_a_dim(void) { return A_DIM; }
static inline attr_t stash_a_reverse(void) { return A_REVERSE; }
static inline attr_t stash_a_underline(void) { return A_UNDERLINE; }
static inline attr_t stash_a_italic(void) { return A_ITALIC; }
static inline mmask_t stash_mouse_mask(void) {
  return BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED;
}
static inline int stash_mouse_is_click(mmask_t m) { return (m & (BUTTON1_PRESSED | BUTTON1_CLICKED)) != 0; }
static inline int stash_mouse_is_wheel_up(mmask_t m) { return (m & BUTTON4_PRESSED) != 0; }
static inline int stash_mouse_is_wheel_down(mmask_t m) { return (m & BUTTON5_PRESSED) != 0; }

/* Writes one cell: a grapheme (NUL-terminated wide string) with attributes and a colour pair. */
static inline int stash_put_cell(int y, int x, const wchar_t *text, attr_t attrs, short pair) {
  cchar_t cell;
  if (setcchar(&cell, text, attrs, pair, NULL) != OK) return ERR;
  return mvwadd_wch(stdscr, y, x, &cell);
}

/* The key code a terminal's escape sequence (from terminfo, e.g. kLFT5) is bound to, or 0. */
static inline int stash_key_for_capability(const char *name) {
  char *seq = tigetstr(name);
  if (seq == NULL || seq == (char *)-1) return 0;
  int code = key_defined(seq);
  return code > 0 ? code : 0;
}
#endif
