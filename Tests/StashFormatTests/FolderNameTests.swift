import StashFormat
import Testing

@Suite struct FolderNameTests {
  @Test func exactSuffixesMakeMemoFiles() {
    #expect(
      FolderName.classify("2026-03-14T08-05-12_audio.m4a")
        == .memoFile(base: "2026-03-14T08-05-12", kind: .audio))
    #expect(FolderName.classify("a_transcription.vtt") == .memoFile(base: "a", kind: .transcript))
    #expect(FolderName.classify("a_track.gpx") == .memoFile(base: "a", kind: .route))
    #expect(FolderName.classify("a_title.txt") == .memoFile(base: "a", kind: .title))
    #expect(FolderName.classify("a.parts") == .memoFile(base: "a", kind: .parts))
    // A base may itself contain a suffix-like word; the last suffix decides.
    #expect(FolderName.classify("x_audio.m4a_title.txt") == .memoFile(base: "x_audio.m4a", kind: .title))
  }

  @Test func hiddenAndPlainNames() {
    #expect(FolderName.classify(".DS_Store") == .hidden)
    #expect(FolderName.classify("._a_audio.m4a") == .hidden)
    #expect(FolderName.classify("notes.txt") == .unrecognised)
    #expect(FolderName.classify("_audio.m4a") == .unrecognised)
    #expect(FolderName.classify("a.m4a") == .unrecognised)
    #expect(FolderName.classify(nil) == .unrecognised)
  }

  func intended(_ name: String) -> String? {
    if case .nearMiss(let intended, _, _, _) = FolderName.classify(name) { return intended }
    return nil
  }

  @Test func nearMissesSayTheIntendedName() {
    #expect(intended("a_Audio.m4a") == "a_audio.m4a")
    #expect(intended("a_audio.M4A") == "a_audio.m4a")
    #expect(intended("a_transcript.vtt") == "a_transcription.vtt")
    #expect(intended("a-transcription.vtt") == "a_transcription.vtt")
    #expect(intended("a_route.gpx") == "a_track.gpx")
    #expect(intended("a_Title.TXT") == "a_title.txt")
    #expect(intended("a _audio.m4a") == "a_audio.m4a")
    #expect(intended(" a_audio.m4a") == "a_audio.m4a")
    #expect(intended("a\u{00A0}_title.txt") == "a_title.txt")
    #expect(intended("a_audio 2.m4a") == "a_audio.m4a")
    #expect(intended("a_audio (1).m4a") == "a_audio.m4a")
    #expect(intended("a_audio copy.m4a") == "a_audio.m4a")
    #expect(intended("a.Parts") == "a.parts")
    #expect(intended("a_parts") == "a.parts")
    #expect(intended("a.parts 2") == "a.parts")
    #expect(intended("a_audio.m4a ") == "a_audio.m4a")
    #expect(intended(" a_Audio.m4a ") == "a_audio.m4a")
    #expect(intended("\u{3000}a_title.txt") == "a_title.txt")
    // Not near enough: another extension, or no kind word at all.
    #expect(intended("a_audio.mp3") == nil)
    #expect(intended("a.vtt") == nil)
    #expect(intended("holiday 2.txt") == nil)
  }

  /// A correction that would hide the file, or still not make a memo name, is not offered: the
  /// fuzzer found `" .memo_audio.m4a"` suggesting the hidden `.memo_audio.m4a`.
  @Test func noSuggestionLeadsToAHiddenName() {
    #expect(FolderName.classify(" .memo_audio.m4a") == .unrecognised)
    #expect(FolderName.classify("\u{3000}.memo_Audio.m4a") == .unrecognised)
    #expect(FolderName.classify(" .memo .parts") == .unrecognised)
    #expect(FolderName.classify("\u{0C}\u{0C}.parTs\u{0C}7.-.l4a 0_Audio.m4a") == .unrecognised)
    // A blank then a name whose base merely contains a dot is still a near miss.
    #expect(intended(" memo.v2_audio.m4a") == "memo.v2_audio.m4a")
  }

  /// Every suggestion is itself a memo file name with the base and kind given.
  @Test func everySuggestionIsAMemoName() {
    let names = [
      " .a_audio.m4a", ".a_audio.m4a ", " a_Audio.m4a ", "a _title.txt", " .a.Parts", "\t._x_track.gpx",
      " . _audio.m4a", "a_audio 2.m4a", " ._audio.m4a",
    ]
    for name in names {
      if case .nearMiss(let intended, let base, let kind, _) = FolderName.classify(name) {
        #expect(
          FolderName.classify(intended) == .memoFile(base: base, kind: kind), "\(name.debugDescription)")
      }
    }
  }

  @Test func nearMissReasonsAreSpecific() {
    guard case .nearMiss(_, let base, let kind, let reason) = FolderName.classify("b_Audio.m4a") else {
      Issue.record("not a near miss")
      return
    }
    #expect(base == "b")
    #expect(kind == .audio)
    #expect(reason.contains("case-sensitive"))
  }
}
