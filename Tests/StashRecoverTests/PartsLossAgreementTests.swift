import Foundation
import StashFormat
import StashRecover
import StashTestSupport
import Testing

/// The loss the report, `show` and lint describe (`PartsLoss`) and the gaps an assembly leaves
/// (its missing-speech notes, its segment breaks) are the same stretches, over every way three
/// parts can be missing, unreadable or torn at every byte of the tear's part.
@Suite struct PartsLossAgreementTests {
  /// Every variant of the clean parts: each part kept, removed, emptied, or cut at a sample of its
  /// bytes.
  static func variants(_ kind: PartsKind) throws -> [[Part]] {
    let whole = try ReconcileTests.parts(kind)
    var out: [[Part]] = []
    func forms(_ part: Part) -> [Part?] {
      var list: [Part?] = [part, nil, Part(number: part.number, bytes: [])]
      for cut in stride(from: 20, to: part.bytes.count, by: max(1, part.bytes.count / 7)) {
        list.append(Part(number: part.number, bytes: Array(part.bytes.prefix(cut))))
      }
      return list
    }
    for a in forms(whole[0]) {
      for b in forms(whole[1]) {
        for c in forms(whole[2]) {
          let parts = [a, b, c].compactMap { $0 }
          if !parts.isEmpty { out.append(parts) }
        }
      }
    }
    return out
  }

  @Test(arguments: PartsKind.allCases) func theLossAndTheAssemblysGapsAgree(_ kind: PartsKind) throws {
    let variants = try Self.variants(kind)
    #expect(variants.count > 100)
    let assembler = FormatAssembler()
    for parts in variants {
      let assembly = assembler.assemble(kind, parts: parts)
      let loss = assembler.loss(kind, parts: parts, unread: [:])
      let numbers = parts.map(\.number)
      #expect(loss.isEmpty == assembly.unbroken, "\(numbers) \(loss.sentences)")
      let fromLoss = loss.gaps.map { Gap(start: $0.start, end: $0.end, parts: $0.parts) }
      if kind == .transcript {
        #expect(fromLoss == assembly.gaps, "\(numbers) \(parts.map(\.bytes.count))")
      } else {
        // A route's gap is the same stretch between the same parts (its parts list unsorted).
        #expect(
          fromLoss.map(\.parts) == assembly.gaps.map { $0.parts.sorted() },
          "\(numbers) \(parts.map(\.bytes.count))")
        #expect(fromLoss.map(\.end) == assembly.gaps.map(\.end), "\(numbers) \(parts.map(\.bytes.count))")
      }
    }
  }
}
