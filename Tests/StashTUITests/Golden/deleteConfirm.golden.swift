// Golden screen written by the test that checks it; rewrite with STASH_UPDATE_GOLDEN=1.
extension GoldenScreens {
  static let deleteConfirm = #"""
 stash 3 memos · 0:00+ DIR
    --:--      שלום עולם                │ 2026-03-14 09:30
    --:--      会議のメモ 🎉            │ 2026-03-14 09:30 · --:-- · untitled
›   --:-- T    2026-03-14 09:30         │ Files: audio, transcript
                                        │ Length unknown (this build has no MP4 reader yet): it
                                        │ still plays; the clock counts up.
                                        │ Missing speech: 0:08–0:12
                                        │ ‹ › words the speech engine never confirmed
                                        │ ──────────────────────────────────────────────────────────
                                        │    0:00 Hello there, this is a test memo.
                                        │    0:03 The second cue talks about the weather and the
                         ┌─ Move to the Trash? ───────────────────────────┐.
                         │ These 2 files will go to the Trash:            │s were never› confirmed.
                         │   2026-03-14T09-30-00Z_audio.m4a               │
                         │   2026-03-14T09-30-00Z_transcription.vtt       │
                         │                                                │
                         │ y moves them to the Trash · n keeps them       │
                         └────────────────────────────────────────────────┘
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
