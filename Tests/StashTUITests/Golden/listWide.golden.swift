// Golden screen written by the test that checks it; rewrite with STASH_UPDATE_GOLDEN=1.
extension GoldenScreens {
  static let listWide = #"""
 stash 3 memos · 0:00+ DIR
›   --:--      שלום עולם                │ שלום עולם
    --:--      会議のメモ 🎉            │ 2026-07-20 07:45 · --:--
    --:-- T    2026-03-14 09:30         │ Files: audio, title
                                        │ Length unknown (this build has no MP4 reader yet): it
                                        │ still plays; the clock counts up.
                                        │ ──────────────────────────────────────────────────────────
                                        │ No transcript: no speech was recorded
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
