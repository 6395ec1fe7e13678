// Golden screen written by the test that checks it; rewrite with STASH_UPDATE_GOLDEN=1.
extension GoldenScreens {
  static let help = #"""
     stash 3 memos · 1:00 DIR
    › 202┌─ Keys ────────────────────────────────────────────────────────────────────────────────┐
      202│ Moving                                                                                │
      202│   ↑ k               previous memo or cue                                              │
         │   ↓ j               next memo or cue                                                  │──────
         │   PgUp              a page up                                                         │
         │   PgDn              a page down                                                       │
         │   Home              first memo or cue                                                 │
         │   End               last memo or cue                                                  │
         │   Enter             open the memo; on a cue, play from its first word                 │
         │   Tab Shift-Tab     switch between list and transcript                                │
         │   Esc Backspace     back to the list; cancel                                          │
         │                                                                                       │
         │ Playing                                                                               │
         │   space             play or pause the open memo                                       │
         │   ←                 back 5 seconds                                                    │
         │   →                 forward 5 seconds                                                 │
         │   [                 back 1 minute                                                     │
         │   ]                 forward 1 minute                                                  │
         │   Ctrl-← ,          previous cue                                                      │
         │   Ctrl-→ .          next cue                                                          │
         │   g                 go to a typed time (1:30, 90, +30, -10)                           │
         │   f                 follow the spoken cue again                                       │
         │   B                 play from the beginning (a memo continues where it was left off)  │
         │   >                 play the next memo in the list                                    │
         │   <                 play the previous memo in the list                                │
         │                                                                                       │
         │ Bookmarks and clips                                                                   │
         │   b                 bookmark here, then type a note                                   │
         │   @                 play from the next bookmark                                       │
         │   !                 play from the previous bookmark                                   │
         │   e                 edit the note of the bookmark here                                │
         │   x                 remove the bookmark here (asks)                                   │
         │   c                 save the loop or bookmark as a clip                               │
         │                                                                                       │
         │ Memos                                                                                 │
         │   r                 rename (an empty name removes the title)                          │
         │   d Delete          delete, after naming every file                                   │
         │   R                 recover killed recordings: plan, ask, report, accept a loss       │
         │   I                 import from --import-from DIR: plan, ask, report                  │
         │   /                 filter by title, day or transcript                                │
         │   S                 search what was said, all memos (/ only filters the list)         │
         │   n                 next hit of S across memos; else next match in transcript         │
         │   N                 previous hit (or match), as n                                     │
         │   Ctrl-L F5         read the folder again and redraw                                  │
         │   ? F1              this help                                                         │
         │                                                                                       │
         │ lines 1–44 of 66 · ↑/↓ scroll · any other key closes                                  │
    Enter└───────────────────────────────────────────────────────────────────────────────────────┘
     ■ Stopped. Space plays the open memo; Enter on a cue plays from it.

    """#
}
