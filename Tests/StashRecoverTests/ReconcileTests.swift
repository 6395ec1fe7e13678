import Foundation
import StashTestSupport
import Testing

@testable import StashRecover

/// Parts beside a finished file go only when they are whole copies of what it holds: the real
/// assemblers' `finished(_:holdsAllOf:)` on the crash fixtures' clean capture, whole and torn.
@Suite struct ReconcileTests {
  /// The clean capture's parts of `kind`, numbered from 1.
  static func parts(_ kind: PartsKind) throws -> [Part] {
    let folder = Fixtures.folder("crash").appendingPathComponent("2026-04-01T09-00-00.parts")
    return try (1...3).map { number in
      let name = kind.partName(number).fileName
      return Part(number: number, bytes: Array(try Data(contentsOf: folder.appendingPathComponent(name))))
    }
  }

  /// `parts` with the last one cut after `keep` of its bytes, as a kill during its write leaves it.
  static func tearingTheLast(_ parts: [Part], keeping keep: (Int) -> Int) -> [Part] {
    var torn = parts
    let bytes = torn[torn.count - 1].bytes
    torn[torn.count - 1].bytes = Array(bytes.prefix(keep(bytes.count)))
    return torn
  }

  @Test(arguments: [PartsKind.transcript, .route])
  func wholePartsThatTheFileHoldsMayGo(kind: PartsKind) throws {
    let parts = try Self.parts(kind)
    let assembler = FormatAssembler()
    let assembly = assembler.assemble(kind, parts: parts)
    #expect(assembly.unbroken)
    let holds = assembler.finished(kind, assembly.bytes, holdsAllOf: parts)
    #expect(holds)
  }

  @Test(arguments: [PartsKind.transcript, .route])
  func aTornPartStaysEvenWhenTheFileHoldsEverythingItStillHas(kind: PartsKind) throws {
    let parts = try Self.parts(kind)
    let assembler = FormatAssembler()
    let finished = assembler.assemble(kind, parts: parts).bytes
    // Torn at its very end (a transcript part loses only its last line break, a route part its
    // closing tag): every cue or point left in it is in the finished file, but it no longer
    // reads cleanly, so it is not known to be a copy of what was published.
    let torn = Self.tearingTheLast(parts) { $0 - (kind == .transcript ? 1 : 3) }
    #expect(!assembler.assemble(kind, parts: torn).damage.isEmpty)
    let holds = assembler.finished(kind, finished, holdsAllOf: torn)
    #expect(!holds)
  }

  @Test(arguments: [PartsKind.transcript, .route])
  func aFileWithAGapHoldsNothingForCertain(kind: PartsKind) throws {
    let parts = try Self.parts(kind)
    let assembler = FormatAssembler()
    let withGap = assembler.assemble(kind, parts: [parts[0], parts[2]])
    #expect(!withGap.gaps.isEmpty)
    if kind == .transcript {
      // A transcript with a missing-speech note never counts as holding its parts.
      let holds = assembler.finished(kind, withGap.bytes, holdsAllOf: [parts[0]])
      #expect(!holds)
    } else {
      // A route keeps no gap mark of its own, so the rule is the points: part 2's are not there.
      let holds = assembler.finished(kind, withGap.bytes, holdsAllOf: [parts[1]])
      #expect(!holds)
    }
  }
}

/// What an assembly says about words the speech engine never confirmed.
@Suite struct UnconfirmedWordsTests {
  static func transcriptParts(_ base: String) throws -> [Part] {
    let folder = Fixtures.folder("crash").appendingPathComponent(base + ".parts")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasPrefix("transcription.") }.sorted()
    return try names.enumerated().map { index, name in
      Part(number: index + 1, bytes: Array(try Data(contentsOf: folder.appendingPathComponent(name))))
    }
  }

  @Test func aTranscriptWithUnconfirmedWordsSaysSo() throws {
    let assembly = TranscriptAssembler.assemble(try Self.transcriptParts("2026-04-04T09-00-00"))
    #expect(assembly.unconfirmedWords)
    let clean = TranscriptAssembler.assemble(try Self.transcriptParts("2026-04-01T09-00-00"))
    #expect(!clean.unconfirmedWords)
  }

  @Test(arguments: [
    ("<c.unconfirmed>left</c>", true), ("we turned <c.unconfirmed>left", true), ("<c.unconfirmed", true),
    ("<c.unconfirme>x</c>", false), ("c.unconfirmed", false), ("<<c.unconfirmed>", true), ("", false),
    ("é <c.unconfirmed>ü</c>", true), ("<v Ann>hello</v>", false),
  ])
  func theSpanIsFoundByItsOpeningTag(text: String, marked: Bool) {
    #expect(TranscriptAssembler.marksUnconfirmed(text) == marked)
  }
}
