import Foundation
import StashFormat
import StashRecover
import StashTestSupport
import Testing

@Suite struct NameTests {
  /// Names inside a parts folder and what Stash makes of them (FORMAT.md §6.1): nil is a stranger's.
  static let partsNames: [(String, PartName?)] = [
    ("transcription.0001.vtt", .transcript(1)),
    ("transcription.0042.vtt", .transcript(42)),
    ("transcription.10000.vtt", .transcript(10_000)),
    ("transcription.999999999.vtt", .transcript(999_999_999)),
    ("track.0001.gpx", .route(1)),
    ("track.9999.gpx", .route(9_999)),
    ("track.12345.gpx", .route(12_345)),
    ("track.withdrawn", .withdrawn),
    ("transcription.1.vtt", nil),
    ("transcription.001.vtt", nil),
    ("transcription.0000.vtt", nil),
    ("transcription.00001.vtt", nil),
    ("transcription.01234.vtt", nil),
    ("transcription.1234567890.vtt", nil),
    ("track.00000.gpx", nil),
    ("transcription.0001.VTT", nil),
    ("Transcription.0001.vtt", nil),
    ("TRACK.0001.GPX", nil),
    ("track.0001.Gpx", nil),
    ("Track.withdrawn", nil),
    ("track.WITHDRAWN", nil),
    ("track.withdrawn ", nil),
    (" track.0001.gpx", nil),
    ("track.0001.gpx.bak", nil),
    ("track..gpx", nil),
    ("track.-001.gpx", nil),
    ("track.+001.gpx", nil),
    ("track. 001.gpx", nil),
    ("track.0001.vtt", nil),
    ("transcription.0001.gpx", nil),
    ("track.０００１.gpx", nil),
    (".track.0001.gpx", nil),
    ("transcription.0001.vtt.stash-tmp-abc123", nil),
    ("notes.txt", nil),
  ]

  @Test func partNamesFollowTheStrictRule() {
    for (name, expected) in Self.partsNames {
      #expect(PartName(name) == expected, "\(name)")
      // A name Stash accepts prints back exactly as it was read.
      if let part = PartName(name) { #expect(part.fileName == name) }
    }
    for part in [PartName.transcript(7), .transcript(1234), .route(9999), .route(10_000), .withdrawn] {
      #expect(PartName(part.fileName) == part)
    }
    #expect(PartName.transcript(7).fileName == "transcription.0007.vtt")
    #expect(PartName.route(42).fileName == "track.0042.gpx")
    #expect(PartName.route(123_456).fileName == "track.123456.gpx")
  }

  /// One printer for every number: zero-padded to four digits, as many more as the number needs.
  @Test func partNamesPrintEveryNumber() {
    #expect(PartName.transcript(1).fileName == "transcription.0001.vtt")
    #expect(PartName.route(9_999).fileName == "track.9999.gpx")
    #expect(PartName.route(10_000).fileName == "track.10000.gpx")
    #expect(PartName.transcript(999_999_999).fileName == "transcription.999999999.vtt")
    #expect(PartName.route(Int.max).fileName == "track.\(Int.max).gpx")
    #expect(PartName.route(0).fileName == "track.0000.gpx")
    // Never Stash's numbers, and never read back as parts.
    #expect(PartName(PartName.route(0).fileName) == nil)
    #expect(PartName(PartName.route(-3).fileName) == nil)
  }

  /// Each name alone in a capture's parts folder: the folder reader's classification and the sweep's
  /// plan must agree on whether it is a part, of which kind and number, or a stranger's file.
  @Test func folderReaderAndSweepAgreeOnEveryName() throws {
    let root = try ScratchFolder("stash-names")
    defer { root.remove() }
    for (index, (name, _)) in Self.partsNames.enumerated() {
      let base = String(format: "2026-03-01_09-%02d-00", index % 60) + "-\(index)"
      try put("audio", base + "_audio.m4a", in: root)
      try put("x", base + ".parts/" + name, in: root)
    }
    let folder = try MemoFolder.read(path: root.path)
    let snapshot = try FolderSnapshot.read(root.path, fileSystem: SystemFileSystem())
    let plan = SweepPlanner.plan(snapshot, options: SweepOptions(now: 0, includeRecent: true))
    for (index, (name, expected)) in Self.partsNames.enumerated() {
      let base = String(format: "2026-03-01_09-%02d-00", index % 60) + "-\(index)"
      let parts = try #require(folder.memos.first { $0.base == base }?.parts, "\(name)")
      let capture = try #require(plan.captures.first { $0.base == base }, "\(name)")
      let readerSays: PartName? =
        if let number = parts.transcriptParts.first {
          .transcript(number)
        } else if let number = parts.routeParts.first { .route(number) } else if parts.routeWithdrawn {
          .withdrawn
        } else { nil }
      let sweepSays: PartName? =
        switch capture.steps.first {
        case .assemble(.transcript, let numbers)?: .transcript(numbers[0])
        case .assemble(.route, let numbers)?: .route(numbers[0])
        case .withdraw?: .withdrawn
        default: nil
        }
      #expect(readerSays == expected, "reader on \(name)")
      #expect(sweepSays == expected, "sweep on \(name)")
      #expect(parts.strangers == (expected == nil ? [name] : []), "reader's strangers for \(name)")
      #expect(capture.strangers == (expected == nil ? [name] : []), "sweep's strangers for \(name)")
    }
  }

  /// A symbolic link named like a part is not one, for the reader as for the sweep (§6.1).
  @Test func aLinkNamedLikeAPartIsAStrangerToBoth() throws {
    let root = try ScratchFolder("stash-names")
    defer { root.remove() }
    try put("audio", "m_audio.m4a", in: root)
    try put("x", "elsewhere.vtt", in: root)
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("m.parts"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("m.parts/transcription.0001.vtt").path,
      withDestinationPath: "../elsewhere.vtt")
    let parts = try #require(try MemoFolder.read(path: root.path).memos.first?.parts)
    #expect(parts.transcriptParts.isEmpty)
    #expect(parts.strangers == ["transcription.0001.vtt"])
    let snapshot = try FolderSnapshot.read(root.path, fileSystem: SystemFileSystem())
    let plan = SweepPlanner.plan(snapshot, options: SweepOptions(now: 0, includeRecent: true))
    #expect(plan.captures.first?.strangers == ["transcription.0001.vtt"])
    #expect(plan.captures.first?.steps == [.removePartsFolderIfEmpty])
  }

  /// Top-level names: the sweep takes a parts folder or audio as a capture exactly when the folder
  /// reader calls the name a memo's (case variants, blanks around the base and hidden names are not).
  @Test func memoNamesAreTheFolderReadersNames() throws {
    let names = [
      "a_audio.m4a", "a.parts", "b_Audio.m4a", "b.Parts", "c_audio.M4A", "c_parts", " d.parts", "d .parts",
      ".e.parts", "f_audio.m4a ", "_audio.m4a", ".parts", "g_transcription.vtt.parts",
    ]
    for name in names {
      let split = MemoFileKind.split(name)
      let sweepTakes: Bool
      do {
        let root = try ScratchFolder("stash-names")
        defer { root.remove() }
        if name.hasSuffix("parts") {
          try put("t", name + "/transcription.0001.vtt", in: root)
        } else {
          try put("audio", name, in: root)
        }
        let snapshot = try FolderSnapshot.read(
          root.path, includeAllAudio: true, fileSystem: SystemFileSystem())
        sweepTakes = !snapshot.captures.isEmpty
      }
      let readerTakes: Bool =
        if case .memoFile(_, let kind) = FolderName.classify(name) { kind == .parts || kind == .audio } else {
          false
        }
      #expect(sweepTakes == readerTakes, "\(name)")
      #expect(
        readerTakes == ["a_audio.m4a", "a.parts", "g_transcription.vtt.parts"].contains(name), "\(name)")
      if readerTakes { #expect(split != nil) }
    }
    #expect(MemoFileKind.split("2026-03-01_09-00-00_audio.m4a")?.base == "2026-03-01_09-00-00")
    #expect(MemoFileKind.split("x_track.gpx")?.kind == .route)
    #expect(MemoFileKind.split("_track.gpx") == nil)
    #expect(MemoFileKind.split("x.parts")?.base == "x")
    #expect(MemoFileKind.split(".parts") == nil)
    #expect(MemoFileKind.route.name(for: "x") == "x_track.gpx")
  }

  @Test func temporaryNamesAreRecognised() {
    let name = TemporaryName.make(for: "a_title.txt")
    #expect(name.hasPrefix(".a_title.txt.stash-tmp-"))
    #expect(TemporaryName.finalName(of: name) == "a_title.txt")
    #expect(TemporaryName.make(for: "a_title.txt") != name)
    for other in [
      ".a_title.txt.stash-tmp-abc12", "a_title.txt.stash-tmp-abc123", ".a.stash-tmp-ab-123",
      ".stash-tmp-abc123",
    ] {
      #expect(TemporaryName.finalName(of: other) == nil, "\(other)")
    }
  }
}
