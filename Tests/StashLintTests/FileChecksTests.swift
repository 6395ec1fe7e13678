import Foundation
import StashFormat
import Testing

@testable import StashLint

/// The linter's own per-file checks, in-process.
@Suite struct FileChecksTests {
  /// One finding for every cue past the audio, at the first, saying what the bytes show.
  @Test func cuesPastTheAudioAreCountedInOneFinding() {
    let text = """
      WEBVTT

      00:00.000 --> 00:01.000
      inside

      00:01.500 --> 00:03.000
      runs past

      00:04.000 --> 00:05.000
      starts after

      """
    let document = WebVTTParser.check(Array(text.utf8))
    var checks = FileChecks(name: "a_transcription.vtt", folder: ".")
    checks.transcript(document, audioSeconds: 2.0)
    let past = checks.findings.filter { $0.code == .linter(.cuePastAudio) }
    #expect(past.count == 1)
    #expect(past.first?.location.line == 6)
    #expect(
      past.first?.message
        == "the audio ends at 0:02.000; 2 cues run past it, from this one (ending at 0:03.000), 1 starting after it; "
        + "the audio may have been cut short, or the transcript may be another recording's")
    var cut = FileChecks(name: "a_transcription.vtt", folder: ".")
    cut.transcript(document, audioSeconds: 2.0, audioCutShort: true)
    #expect(
      cut.findings.first { $0.code == .linter(.cuePastAudio) }?.message.contains("was cut short")
        == true)
    var none = FileChecks(name: "a_transcription.vtt", folder: ".")
    none.transcript(document, audioSeconds: 10)
    #expect(!none.findings.contains { $0.code == .linter(.cuePastAudio) })
  }

  /// Past the limit, one finding stands for the rest, and the tally counts them all.
  @Test func theTallyCountsWhatALimitLeftUnlisted() {
    var checks = FileChecks(name: "r_track.gpx", folder: ".")
    let points = (0..<25).map { i in
      "<trkpt lat=\"1\" lon=\"2\"><time>2020-01-01T00:00:\(i < 10 ? "0" : "")\(i)Z</time></trkpt>"
    }.joined()
    let gpx =
      "<gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>"
      + points + "</trkseg></trk></gpx>"
    checks.route(Array(gpx.utf8), span: 1_000_000...1_000_001)
    let listed = checks.findings.filter { $0.unlisted == 0 }
    let standing = checks.findings.filter { $0.unlisted > 0 }
    #expect(listed.count == FileChecks.limit && standing.count == 1 && standing[0].unlisted == 5)
    var tally = LintTally()
    for (index, finding) in checks.findings.enumerated() { tally.count(finding, newFile: index == 0) }
    #expect(tally.findings == 25 && tally[.warning] == 25 && tally.files == 1)
  }
}

/// Every code is one rule: the catalogue, `--explain`'s text and the committed rule pages come
/// from the same typed codes and cannot disagree.
@Suite struct RuleCodeTests {
  @Test func everyCodeHasOneRuleAndOnePage() throws {
    // The listing's three audio states are no rules: lint reports each file's own mp4- codes.
    let listingOnly: Set<FormatError.Code> = [
      .folderAudioDamaged, .folderAudioCutShort, .folderAudioLengthUnreadable,
    ]
    let diagnostics = FormatError.Code.allCases.filter { $0.reader != .thrown && !listingOnly.contains($0) }
    let codes = diagnostics.map(RuleCode.reader) + LintCode.allCases.map(RuleCode.linter)
    #expect(codes.count > 100)
    #expect(Set(LintCatalogue.rules.map(\.code)) == Set(codes))
    #expect(LintCatalogue.rules.count == codes.count)
    let pages = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("docs/lint")
    for code in codes {
      let rule = try #require(LintCatalogue.rule(code), "\(code)")
      // The text names the code and comes back to it.
      #expect(RuleCode(rawValue: code.rawValue) == code)
      #expect(LintCatalogue.rule(named: code.rawValue)?.code == code)
      #expect(
        LintExplain.text(rule).hasPrefix("\(code.rawValue) (\(rule.severity.rawValue)): \(rule.summary)"))
      let page = try String(contentsOf: pages.appendingPathComponent(code.rawValue + ".md"), encoding: .utf8)
      #expect(page == LintExplain.markdown(rule), "\(code)")
      // The family is the code's reader, and the published text starts with it.
      #expect(code.rawValue.hasPrefix(rule.family.rawValue + "-"), "\(code)")
      #expect(rule.slug == String(code.rawValue.dropFirst(rule.family.rawValue.count + 1)))
    }
    #expect(RuleCode(rawValue: "vtt-no-such-code") == nil)
  }
}
