import Foundation
import StashFormat
import Testing

@testable import StashFormat

/// The listing's shortcuts give what the long way gives: a plain title read without the Unicode
/// checks, files opened by name in the held folder, and lint's index check that keeps no samples.
@Suite struct ListingShortcutTests {
  @Test func kindsCompareInTheirDeclaredOrder() {
    let kinds = MemoFileKind.allCases
    for (i, a) in kinds.enumerated() {
      for (j, b) in kinds.enumerated() { #expect((a < b) == (i < j)) }
    }
  }

  /// Titles built from pieces that the quick way takes and that it must leave to the full
  /// reading (tabs, runs of spaces, line breaks, controls, NUL, DEL, non-ASCII white space and
  /// letters, a leading blank, the length limit), each read both ways.
  @Test func aPlainTitleReadsAsTheFullReadingReadsIt() {
    let pieces: [[UInt8]] = [
      Array("Walk".utf8), Array("number 12".utf8), [0x20], [0x20, 0x20], [0x09], [0x0A], [0x0D, 0x0A], [0x0B],
      [0x00], [0x07], [0x7F], [0x1F], Array("散歩".utf8), Array("\u{00A0}".utf8), Array("\u{3000}".utf8),
      Array("\u{2028}".utf8), Array("~!@#$%^&*()_+{}|:\"<>?`-=[]\\;',./".utf8),
      Array(repeating: UInt8(ascii: "x"), count: 199),
      // Letters the quick way takes (Latin-1, a combining accent, Greek, Cyrillic, Hebrew, kana,
      // ideographs), and what lies beside them that it must not: NEL and C1 controls, other
      // white space, a Prepend mark that joins the space after it, an ideograph past the range,
      // a cut and an overlong sequence.
      Array("café".utf8), Array("e\u{301}".utf8), Array("\u{301}".utf8), Array("Ωμέγα".utf8),
      Array("прогулка".utf8), Array("\u{05D0}\u{05FF}".utf8), Array("さんぽカ".utf8),
      Array("\u{9FFF}\u{4E00}".utf8),
      Array("\u{0085}".utf8), Array("\u{0080}\u{009F}".utf8), Array("\u{00BF}".utf8), Array("\u{1680}".utf8),
      Array("\u{2000}\u{200A}".utf8), Array("\u{202F}\u{205F}".utf8), Array("\u{0600}".utf8),
      Array("\u{A000}".utf8), Array("\u{3000}\u{303F}".utf8), [0xE6, 0x95], [0xC1, 0x81], [0xE0, 0x81, 0x81],
    ]
    var generator = SystemRandomNumberGenerator()
    var inputs: [[UInt8]] = [
      [], Array("A".utf8), Array("Walk number 7\n".utf8), Array(" Walk".utf8), Array("Walk \n\n".utf8),
      Array(repeating: UInt8(ascii: "y"), count: 200), Array(repeating: UInt8(ascii: "y"), count: 201),
      Array(repeating: UInt8(ascii: "y"), count: 200) + [0x0A],
    ]
    for _ in 0..<3_000 {
      var input: [UInt8] = []
      for _ in 0..<Int.random(in: 1...5, using: &generator) {
        input += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
      }
      inputs.append(input)
    }
    var quick = 0
    for input in inputs {
      let full = Title.parse(input, totalSize: nil, plainLines: false)
      #expect(Title.parse(input) == full, "\(input)")
      if full.problems.isEmpty, full.text != nil { quick += 1 }
    }
    // The quick way was taken often enough to be tested (a plain line has no problem).
    #expect(quick > 100)
    // Titles in the scripts it knows are taken the quick way, not only ASCII ones.
    for plain in ["散歩 to the station", "Café au lait", "Прогулка 3", "さんぽ"] {
      #expect(Title.plainLine(Array(plain.utf8)[...]) == plain)
    }
    #expect(Title.plainLine(Array("x\u{0600} ".utf8)[...]) == nil)
    // A title larger than the limit is cut and reported, never taken the quick way.
    let long = Array(repeating: UInt8(ascii: "z"), count: 16)
    #expect(Title.parse(long, totalSize: 20_000) == Title.parse(long, totalSize: 20_000, plainLines: false))
    #expect(Title.parse(long, totalSize: 20_000).problems.map(\.code) == [.titleTooLong])
  }

  /// Every memo of a folder with links, a folder and a FIFO where files belong, read with its
  /// files opened by name in the held folder and by path.
  @Test func openingByNameInTheHeldFolderReadsWhatPathsRead() throws {
    let scratch = try FolderScratch()
    defer { scratch.remove() }
    let audio = try ListingShortcutTests.audioBytes()
    for base in ["2026-03-14T08-05-12Z", "2026-03-15T09-00-00", "notes from the train"] {
      try Data(audio).write(to: try scratch.write(base + "_audio.m4a"))
      try scratch.write(base + "_transcription.vtt", "WEBVTT\n\n00:00.000 --> 00:01.000\nhello\n")
      try scratch.write(base + "_track.gpx", "<gpx></gpx>\n")
      try scratch.write(base + "_title.txt", "Walk number 1\n")
    }
    try scratch.write("2026-03-16T10-00-00_audio.m4a", "not an mp4 at all")
    try scratch.write("2026-03-16T10-00-00_transcription.vtt", "no signature")
    try scratch.write("2026-03-16T10-00-00_track.gpx", "<gpx><trk>")
    try scratch.write("2026-03-16T10-00-00_title.txt", "\u{FEFF}  散歩\tand  more \n")
    let linked = scratch.url.path + "/2026-03-17T11-00-00"
    try FileManager.default.createSymbolicLink(
      atPath: linked + "_audio.m4a", withDestinationPath: scratch.url.path + "/2026-03-15T09-00-00_audio.m4a")
    try FileManager.default.createSymbolicLink(atPath: linked + "_title.txt", withDestinationPath: "missing")
    try FileManager.default.createSymbolicLink(
      atPath: linked + "_transcription.vtt",
      withDestinationPath: scratch.url.path + "/2026-03-16T10-00-00_transcription.vtt")
    _ = try scratch.folder("2026-03-18T12-00-00_title.txt")
    try scratch.write("2026-03-18T12-00-00_audio.m4a", "")
    #expect(mkfifo(scratch.url.path + "/2026-03-18T12-00-00_track.gpx", 0o600) == 0)
    let path = scratch.url.path
    let grouping = try FolderGrouping(path: path)
    #expect(grouping.candidates.count == 6)
    let opened = OpenFolder(path: path)
    let now = RecordingDate.currentTime()
    for candidate in grouping.candidates {
      let byPath = Memo.read(candidate, folder: path, now: now)
      let byName = Memo.read(candidate, folder: path, now: now, opened: opened)
      #expect(byName == byPath, "\(candidate.base)")
    }
    // A folder that cannot be held open still reads, its files by path (here, each one missing).
    let missing = path + "/no-such-folder"
    let unopened = OpenFolder(path: missing)
    #expect(unopened.file("a_title.txt").path == missing + "/a_title.txt")
    for candidate in grouping.candidates {
      let byName = Memo.read(candidate, folder: missing, now: now, opened: unopened)
      #expect(byName == Memo.read(candidate, folder: missing, now: now))
      #expect(byName.audio?.code == .lintFileUnreadable)
    }
  }

  /// Lint's check of the full index reports exactly what the full reading reports, on whole
  /// files and on each cut short at many points.
  @Test func theIndexCheckKeepsNoSamplesAndFindsTheSame() throws {
    let files = try MP4TestFiles.shared.get()
    for name in [
      "finished.m4a", "fragmented.m4a", "faststart.m4a", "speech-finished.m4a", "with-video-finished.mp4",
    ] {
      let bytes = try files.bytes(name)
      var paths = [files.path(name)]
      for n in 1...12 {
        paths.append(try files.write(Array(bytes.prefix(bytes.count * n / 13)), as: "cut-\(n)-" + name))
      }
      for path in paths {
        let full = try MP4Audio.read(path: path)
        #expect(try MP4Audio.diagnostics(ReadOnlyFile(path: path)) == full.diagnostics, "\(path)")
      }
      #expect(try !MP4Audio.read(path: files.path(name)).samples.isEmpty)
    }
  }

  static func audioBytes() throws -> [UInt8] {
    try MP4TestFiles.shared.get().bytes("finished.m4a")
  }
}
