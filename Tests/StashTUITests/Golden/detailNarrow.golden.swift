// Golden screen written by the test that checks it; rewrite with STASH_UPDATE_GOLDEN=1.
extension GoldenScreens {
  static let detailNarrow = #"""
     stash 3 memos · 1:00 DIR
     2026-03-14 09:30
     2026-03-14 09:30 · 0:20 · untitled
     Files: audio, transcript
     2026-03-14T09-30-00Z_transcription.vtt: inline timestamp
     00:00:00.500 is not inside its cue (00:00.500 to 00:03.000)
     Missing speech: 0:08–0:12
     ‹ › words the speech engine never confirmed
     ───────────────────────────────────────────────────────────
    ›   0:00 Hello there, this is a test memo.
        0:03 The second cue talks about the weather and the walk
             along the river bank.
        0:12 After the gap ‹these words were never› confirmed.
        0:15 The last cue ends here.







    Enter plays from the cue · Esc back · ←/→ 5 s · [/] 1 min ·…
            ▆▆▆▆▆▆▆▆▆▆▆▆▆▆▆▆▆▆▆▆▆▆▆
     ■ 0:00 ●┴─┴─────────┴───┴───── -0:20  Stopped: Space plays.

    """#
}
