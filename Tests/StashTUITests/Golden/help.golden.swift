// Golden screen written by the test that checks it; rewrite with STASH_UPDATE_GOLDEN=1.
extension GoldenScreens {
  static let help = #"""
     stash 3 memos · 1:00 DIR
    › 2026-07-20    0:20      ⁅שלום עולם⁆          │ ⁅שלום עולם⁆
      2026-05-01    0:20      会議のメモ 🎉      │ 2026-07-20 07:45 · 0:20
      2026-03-14┌─ Keys ──────────────────────────────────────────────────────────────────┐
                │ Moving                                                                  │─────────────
                │   ↑ k               previous memo or cue                                │
                │   ↓ j               next memo or cue                                    │
                │   PgUp              a page up                                           │
                │   PgDn              a page down                                         │
                │   Home              first memo or cue                                   │
                │   End               last memo or cue                                    │
                │   Enter             open the memo; on a cue, play from its first word   │
                │   Tab Shift-Tab     switch between list and transcript                  │
                │   Esc Backspace     back to the list; cancel                            │
                │                                                                         │
                │ Playing                                                                 │
                │   space             play or pause the open memo                         │
                │   ←                 back 5 seconds                                      │
                │   →                 forward 5 seconds                                   │
                │   [                 back 1 minute                                       │
                │   ]                 forward 1 minute                                    │
                │   Ctrl-← ,          previous cue                                        │
                │   Ctrl-→ .          next cue                                            │
                │   g                 go to a typed time (1:30, 90, 1:02:03)              │
                │   f                 follow the spoken cue again                         │
                │                                                                         │
                │ Memos                                                                   │
                │   r                 rename (an empty name removes the title)            │
                │   d Delete          delete, after naming every file                     │
                │   R                 recover killed recordings: plan, ask, report        │
                │   I                 import from --import-from DIR: plan, ask, report    │
                │   /                 filter by title and transcript text                 │
                │   n                 next match in the transcript                        │
                │   N                 previous match in the transcript                    │
                │   Ctrl-L F5         read the folder again and redraw                    │
                │   ? F1              this help                                           │
                │   q Ctrl-C          quit (stops playback)                               │
                │                                                                         │
                │ List marks                                                              │
                │   T transcript  R route  ! problem  P parts to recover                  │
                │ Transcript marks                                                        │
                │   ▶ being spoken  ‹ › words the speech engine never confirmed           │
                │ Mouse                                                                   │
                │   click a memo, a cue (plays it) or the scrubber (seeks); wheel scrolls │
                │                                                                         │
                │ ↑/↓ scroll · any other key closes                                       │
                └─────────────────────────────────────────────────────────────────────────┘
                                                 │
    Enter opens · space plays · / filters · r renames · d deletes · R recovers · ? keys · q quits
     ■ Stopped. Space plays the open memo; Enter on a cue plays from it.

    """#
}
