// Golden screen written by the test that checks it; rewrite with STASH_UPDATE_GOLDEN=1.
extension GoldenScreens {
  static let playingFirstCue = #"""
 stash 3 memos · 0:00+ DIR
    --:--      שלום עולם                │ 2026-03-14 09:30
    --:--      会議のメモ 🎉            │ 2026-03-14 09:30 · --:-- · untitled
›▶  --:-- T    2026-03-14 09:30         │ Files: audio, transcript
                                        │ Length unknown (this build has no MP4 reader yet): it
                                        │ still plays; the clock counts up.
                                        │ Missing speech: 0:08–0:12
                                        │ ‹ › words the speech engine never confirmed
                                        │ ──────────────────────────────────────────────────────────
                                        │›▶  0:00 Hello there, this is a test memo.
                                        │    0:03 The second cue talks about the weather and the
                                        │         walk along the river bank.
                                        │    0:12 After the gap ‹these words were never› confirmed.
                                        │    0:15 The last cue ends here.
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
Enter plays from the cue · Esc back · ←/→ 5 s · [/] 1 min · g go to · f follow · ? keys
 ▶ 0:01 counting up; length unknown  2026-03-14 09:30

"""#
}
