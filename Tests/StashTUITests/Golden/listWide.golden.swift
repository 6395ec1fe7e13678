// Golden screen written by the test that checks it; rewrite with STASH_UPDATE_GOLDEN=1.
extension GoldenScreens {
  static let listWide = #"""
     stash 3 memos · 1:00 DIR
    › 2026-07-20    0:20      ⁅שלום עולם⁆          │ ⁅שלום עולם⁆
      2026-05-01    0:20      会議のメモ 🎉      │ 2026-07-20 07:45 · 0:20
      2026-03-14    0:20 T !  2026-03-14 09:30   │ Files: audio, title
                                                 │ ─────────────────────────────────────────────────────
                                                 │ No transcript: the memo has no transcript file.
                                                 │
                                                 │
                                                 │
                                                 │
                                                 │
                                                 │
                                                 │
                                                 │
                                                 │
                                                 │
                                                 │
                                                 │
                                                 │
                                                 │
                                                 │
                                                 │
                                                 │
                                                 │
                                                 │
                                                 │
                                                 │
                                                 │
    Enter opens · space plays · / filters · r renames · d deletes · R recovers · ? keys · q quits
     ■ Stopped. Space plays the open memo; Enter on a cue plays from it.

    """#
}
