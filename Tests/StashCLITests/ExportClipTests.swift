import Foundation
import StashTestSupport
import Testing

/// `stash export --clip`: a span of a memo as m4a audio (opened by ffprobe) or its transcript,
/// and what it refuses.
@Suite struct ExportClipTests {
  let stash = Fixtures.product("stash").path
  let base = "2026-03-14T08-05-12"

  /// A memo folder holding a 20-second memo with a transcript, and a folder for clips.
  struct Folder {
    let root: ScratchFolder
    var memos: String { root.path + "/memos" }
    var out: String { root.path + "/out" }

    init(base: String) throws {
      root = try ScratchFolder("stash-export-clip")
      for folder in [memos, out] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      }
      try TestTone.mp4(seconds: 20).write(to: URL(fileURLWithPath: "\(memos)/\(base)_audio.m4a"))
      let vtt = """
        WEBVTT

        00:00:01.000 --> 00:00:04.000
        Before the clip.

        00:00:05.000 --> 00:00:09.000
        Across its start.

        00:00:10.000 --> 00:00:11.500
        Inside it.

        00:00:13.000 --> 00:00:16.000
        Across its end.

        """
      try Data(vtt.utf8).write(to: URL(fileURLWithPath: "\(memos)/\(base)_transcription.vtt"))
    }
  }

  func run(_ arguments: [String]) throws -> ProcessResult {
    try runProcess(stash, arguments, environment: ["TZ": "UTC", "LC_ALL": "C.UTF-8"])
  }

  /// ffprobe's duration of `path`, in seconds.
  func probedDuration(_ path: String) throws -> Double? {
    let probed = try runProcess(
      "ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
    return Double(probed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  static let spans: [(text: String, seconds: Double)] = [
    ("3.5-8", 4.5), ("0:02-0:12.25", 10.25), ("bookmark:1", 4), ("bookmark:2", 20 - 11),
  ]

  @Test func spansAreGiven() { #expect(!Self.spans.isEmpty) }

  @Test(arguments: spans)
  func clipOpensInFFprobeWithTheSpansLength(_ span: (text: String, seconds: Double)) throws {
    let folder = try Folder(base: base)
    defer { folder.root.remove() }
    for (at, note) in [("7", "budget"), ("0:11", "the end of it")] {
      #expect(try run(["bookmark", "\(folder.memos)/\(base)", at, note]).status == 0)
    }
    let clip = folder.out + "/clip.m4a"
    let result = try run([
      "export", "\(folder.memos)/\(base)", "--clip", span.text, "--to", "m4a", "-o", clip,
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let duration = try #require(try probedDuration(clip))
    #expect(abs(duration - span.seconds) <= 1024.0 / 48000, "ffprobe says \(duration) s for \(span.text)")
  }

  /// `--to wav`: the span decoded (by stash-tui, beside stash) as 16-bit PCM: exactly the span's
  /// frames, and sample for sample what ffmpeg decodes of the `--to m4a` clip of the same span
  /// (whose start at FROM the clip tests check to the sample), which runs on to the end of its
  /// last AAC frame.
  @Test func aWavClipIsTheSpanDecodedToTheSample() throws {
    let folder = try Folder(base: base)
    defer { folder.root.remove() }
    let memo = "\(folder.memos)/\(base)"
    let wav = folder.out + "/clip.wav"
    let result = try run(["export", memo, "--clip", "3.5-8.25", "--to", "wav", "-o", wav])
    #expect(result.status == 0, "\(result.standardError)")
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: wav)))
    try #require(bytes.count > 44 && Array(bytes[0..<4]) == Array("RIFF".utf8))
    let rate = Int(bytes[24]) | Int(bytes[25]) << 8 | Int(bytes[26]) << 16
    #expect(rate == 48_000 && bytes[22] == 1 && bytes[34] == 16, "a header of \(Array(bytes[20..<36]))")
    func samples(_ bytes: ArraySlice<UInt8>) -> [Int] {
      stride(from: bytes.startIndex, to: bytes.endIndex - 1, by: 2).map {
        Int(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8))
      }
    }
    let ours = samples(bytes[44...])
    #expect(ours.count == 228_000, "\(ours.count) frames for 4.75 s")
    let m4a = folder.out + "/clip.m4a"
    #expect(try run(["export", memo, "--clip", "3.5-8.25", "--to", "m4a", "-o", m4a]).status == 0)
    let reference = folder.out + "/reference.raw"
    let decoded = try runProcess(
      "ffmpeg", ["-v", "error", "-i", m4a, "-f", "s16le", "-ac", "1", "-ar", "48000", reference])
    try #require(decoded.status == 0, "\(decoded.standardError)")
    let theirs = samples([UInt8](try Data(contentsOf: URL(fileURLWithPath: reference)))[...])
    #expect(theirs.count >= ours.count && theirs.count - ours.count < 1024, "ffmpeg gives \(theirs.count)")
    let worst = zip(ours, theirs).map { abs($0 - $1) }.max() ?? .max
    #expect(worst <= 2, "a sample differs from ffmpeg's by \(worst)")
    #expect(ours.contains { abs($0) > 1000 }, "the span is silent")
    // Nothing is written beside the memo, and an existing file is kept without --force.
    let again = try run(["export", memo, "--clip", "1-2", "--to", "wav", "-o", wav])
    #expect(again.status != 0 && again.standardError.contains("exists"), "\(again.standardError)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.memos).count == 2)
  }

  @Test func transcriptOfTheSpanIsTimedFromItsStart() throws {
    let folder = try Folder(base: base)
    defer { folder.root.remove() }
    let vtt = try run(["export", "\(folder.memos)/\(base)", "--clip", "7-14", "--to", "vtt"])
    #expect(vtt.status == 0, "\(vtt.standardError)")
    #expect(
      vtt.standardOutput
        == "WEBVTT\n\n00:00.000 --> 00:02.000\nAcross its start.\n\n00:03.000 --> 00:04.500\nInside it.\n\n"
        + "00:06.000 --> 00:07.000\nAcross its end.\n\n")
    let srt = try run(["export", "\(folder.memos)/\(base)", "--clip", "7-14", "--to", "srt"])
    #expect(srt.standardOutput.hasPrefix("1\n00:00:00,000 --> 00:00:02,000\nAcross its start.\n"))
    let txt = try run(["export", "\(folder.memos)/\(base)", "--clip", "7-14", "--to", "txt"])
    #expect(txt.standardOutput == "Across its start.\nInside it.\nAcross its end.\n")
  }

  @Test func refusals() throws {
    let folder = try Folder(base: base)
    defer { folder.root.remove() }
    let memo = "\(folder.memos)/\(base)"
    let outside = try run(["export", memo, "--clip", "5-25", "--to", "m4a", "-o", folder.out + "/a.m4a"])
    #expect(outside.status == 2)
    #expect(
      outside.standardError.contains("ends past the audio, which is 0:20.0"), "\(outside.standardError)")
    #expect(!FileManager.default.fileExists(atPath: folder.out + "/a.m4a"))

    try Data("mine".utf8).write(to: URL(fileURLWithPath: folder.out + "/b.m4a"))
    let existing = try run(["export", memo, "--clip", "1-2", "--to", "m4a", "-o", folder.out + "/b.m4a"])
    #expect(existing.status == 2)
    #expect(existing.standardError.contains("b.m4a exists; add --force"), "\(existing.standardError)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder.out + "/b.m4a")) == Data("mine".utf8))

    let inMemoFolder = try run([
      "export", memo, "--clip", "1-2", "--to", "m4a", "-o", folder.memos + "/c.m4a",
    ])
    #expect(inMemoFolder.status == 2)
    #expect(inMemoFolder.standardError.contains("never written there"), "\(inMemoFolder.standardError)")
    #expect(!FileManager.default.fileExists(atPath: folder.memos + "/c.m4a"))

    let noClip = try run(["export", memo, "--to", "m4a", "-o", folder.out + "/d.m4a"])
    #expect(noClip.status == 2)
    #expect(noClip.standardError.contains("add --clip FROM-TO"), "\(noClip.standardError)")
    let badSpan = try run(["export", memo, "--clip", "9-3", "--to", "m4a", "-o", folder.out + "/e.m4a"])
    #expect(badSpan.status == 2)
    #expect(badSpan.standardError.contains("ends before it starts"), "\(badSpan.standardError)")
    let noBookmark = try run(["export", memo, "--clip", "bookmark:1", "--to", "txt"])
    #expect(noBookmark.status == 2)
    #expect(noBookmark.standardError.contains("there is no bookmark 1"), "\(noBookmark.standardError)")
  }
}
