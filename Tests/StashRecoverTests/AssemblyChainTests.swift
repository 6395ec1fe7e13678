import Foundation
import StashFormat
import StashRecover
import StashTestSupport
import Testing

/// A part that cannot be read in the middle of a chain, with the real assemblers: a gap where it
/// was, what the parts around it hold kept, the chain broken so its parts stay.
@Suite struct AssemblyChainTests {
  @Test func anUnreadableTranscriptPartIsAGapBetweenItsNeighbours() throws {
    var parts = try ReconcileTests.parts(.transcript)
    parts[1].bytes = Array("garbage\n".utf8)
    let assembly = TranscriptAssembler.assemble(parts)
    #expect(!assembly.unbroken)
    #expect(assembly.gaps.map(\.parts) == [[2]])
    #expect(assembly.damage.map(\.number) == [2])
    #expect(assembly.damage.first?.reason == "not a WebVTT file")
    let document = WebVTTParser.parse(assembly.bytes)
    #expect(document.missingSpeech.count == 1)
    let kept = [0, 2].reduce(0) { $0 + WebVTTParser.parse(parts[$1].bytes).cues.count }
    #expect(document.cues.count == kept && kept > 0)
  }

  @Test func anEmptyRoutePartStartsANewSegmentAfterIt() throws {
    var parts = try ReconcileTests.parts(.route)
    parts[1].bytes = []
    let assembly = RouteAssembler.assemble(parts)
    #expect(!assembly.unbroken)
    #expect(assembly.gaps.map(\.parts) == [[2]])
    #expect(assembly.damage.map(\.number) == [2])
    let document = GPXReader.read(assembly.bytes)
    #expect(!document.isDamaged)
    let counts = [0, 2].map {
      GPXReader.read(parts[$0].bytes).tracks.flatMap(\.segments).flatMap(\.points).count
    }
    #expect(document.tracks.flatMap(\.segments).map(\.points.count) == counts)
    #expect(assembly.segments == 2 && counts.allSatisfy { $0 > 0 })
  }

  @Test func theReportSaysWhatBecameOfEachPartOfAGap() throws {
    let root = try ScratchFolder("stash-chain")
    defer { root.remove() }
    let transcripts = try ReconcileTests.parts(.transcript)
    let routes = try ReconcileTests.parts(.route)
    // Transcript part 2 is not WebVTT; route part 2 is missing.
    try put(String(decoding: transcripts[0].bytes, as: UTF8.self), "M.parts/transcription.0001.vtt", in: root)
    try put("garbage\n", "M.parts/transcription.0002.vtt", in: root)
    try put(String(decoding: transcripts[2].bytes, as: UTF8.self), "M.parts/transcription.0003.vtt", in: root)
    try put(String(decoding: routes[0].bytes, as: UTF8.self), "M.parts/track.0001.gpx", in: root)
    try put(String(decoding: routes[2].bytes, as: UTF8.self), "M.parts/track.0003.gpx", in: root)
    let report = try Sweeper(fileSystem: SystemFileSystem(), assembler: FormatAssembler())
      .run(root.path, options: SweepOptions(now: Date().timeIntervalSince1970, includeRecent: true))
    let kept = report.captures.flatMap(\.events).filter { $0.action == .kept }.map(\.detail)
    #expect(
      kept.contains {
        $0.contains(
          "transcription.0002.vtt cannot be read (not a WebVTT file): a gap, the transcript from 0:04 to 0:")
      }, "\(kept)")
    #expect(kept.contains { $0.contains("track.0002.gpx never landed: a gap, the route from ") }, "\(kept)")
  }
}
