import Foundation
import StashFormat
import StashTestSupport
import Testing

/// The stable codes. Every code a StashFormat reader reports is a lint rule with its page in
/// docs/lint, or one of the few that never is a finding, documented where it is given; every rule
/// is a reader's code or one of the linter's own; no two are the same; and none is renamed: the
/// lists here are the published codes, so a rename fails here even where no golden file shows it.
@Suite struct CodeCatalogueTests {
  let stash = Fixtures.product("stash").path
  let root = Fixtures.repositoryRoot

  /// Every `FormatError.Code`, as published. A new code is added here; a changed one is a rename,
  /// which breaks every script and `.stashlint` that names it.
  static let published: [String] = [
    "folder-orphan", "folder-near-miss", "folder-unrecognised", "folder-name-collision", "folder-not-a-file",
    "folder-capture-without-audio", "folder-needs-recovery", "folder-parts-beside-finished",
    "folder-route-withdrawn", "folder-parts-empty", "folder-parts-strangers", "folder-parts-unreadable",
    "folder-audio-damaged", "folder-audio-cut-short", "folder-audio-length-unreadable", "title-empty",
    "title-spans-lines", "title-not-utf8", "title-too-long", "title-control-character",
    "title-byte-order-mark", "title-unreadable", "mp4-no-index", "mp4-no-audio-track", "mp4-not-aac",
    "mp4-bad-audio-config", "mp4-index-cut-off", "mp4-audio-outside-file", "mp4-encrypted", "mp4-no-audio",
    "mp4-torn-tail", "mp4-missing-samples", "mp4-length-unreadable", "mp4-priming-assumed",
    "mp4-gapless-metadata", "mp4-complex-edit-list", "mp4-sbr-not-signalled", "mp4-bad-box-size",
    "mp4-bad-sample-table",
    "mp4-bad-fragment", "mp4-too-deep", "mp4-bad-transcript", "vtt-not-utf8", "vtt-null-character",
    "vtt-no-signature",
    "vtt-header-no-blank-line", "vtt-header-metadata", "vtt-missing-blank-line", "vtt-bad-timestamp",
    "vtt-timestamp-form", "vtt-bad-arrow", "vtt-arrow-spacing", "vtt-end-not-after-start",
    "vtt-cue-out-of-order", "vtt-bad-setting", "vtt-duplicate-setting", "vtt-unknown-region",
    "vtt-region-conflict", "vtt-bad-region-setting", "vtt-duplicate-region-setting", "vtt-bad-region-id",
    "vtt-style-after-cue", "vtt-region-after-cue", "vtt-stray-text", "vtt-note-with-arrow", "vtt-unknown-tag",
    "vtt-rt-outside-ruby", "vtt-bad-annotation", "vtt-unclosed-tag", "vtt-misnested-tag", "vtt-stray-end-tag",
    "vtt-nesting-too-deep", "vtt-bad-inline-timestamp", "vtt-timestamp-outside-cue",
    "vtt-timestamp-not-increasing", "vtt-bad-character-reference", "vtt-bad-stash-note",
    "vtt-stash-note-after-cue", "vtt-too-many-diagnostics", "gpx-empty", "gpx-not-xml", "gpx-not-gpx",
    "gpx-truncated", "gpx-malformed", "gpx-entity-refused", "gpx-too-deep", "gpx-bad-coordinate",
    "gpx-external-entity", "gpx-no-namespace", "gpx-coordinate-out-of-range", "gpx-bad-number",
    "gpx-bad-time", "gpx-time-without-zone", "gpx-misplaced-element", "gpx-bad-bounds", "gpx-text-too-long",
    "gpx-trailing-data", "gpx-invalid-speed", "gpx-invalid-course", "gpx-invalid-accuracy",
    "bookmarks-broken", "bookmarks-past-end", "bookmarks-out-of-order", "bookmarks-not-chained",
    "lint-file-unreadable", "folder-unreadable", "io", "not-a-file", "too-large", "unknown-kind",
  ]

  /// The linter's own codes (`LintCode`), in the rule index's order.
  static let linterOwn: [String] = [
    "lint-cue-past-audio", "lint-cue-overlap", "lint-gpx-time-missing", "lint-gpx-time-not-utc",
    "lint-gpx-time-backwards", "lint-gpx-point-outside-recording", "lint-gpx-hdop-as-accuracy",
  ]

  /// Codes that are never a lint finding: the listing's codes for audio that is not a file
  /// (FORMAT.md §1.8, where lint reports `folder-not-a-file`), and the errors a reader throws.
  static let notFindings: Set<FormatError.Code> = [
    .folderAudioDamaged, .folderAudioCutShort, .folderAudioLengthUnreadable, .folderUnreadable, .io,
    .notAFile,
    .tooLarge, .unknownKind,
  ]

  func rules() throws -> [String] {
    let list = try runProcess(stash, ["lint", "--list-rules"])
    #expect(list.status == 0)
    return list.standardOutput.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
  }

  @Test func theCodesAreThePublishedOnes() {
    #expect(FormatError.Code.allCases.map(\.rawValue) == Self.published)
    #expect(Set(Self.published).count == Self.published.count)
    for code in Self.published + Self.linterOwn {
      // Lower-case words joined by single hyphens: nothing that differs from another only in case.
      let words = code.split(separator: "-", omittingEmptySubsequences: false)
      #expect(
        words.count >= 1
          && words.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLowercase || $0.isNumber } },
        "\(code)")
    }
  }

  @Test func everyReaderCodeIsARuleWithItsPage() throws {
    let rules = try rules()
    #expect(rules.count == Self.published.count - Self.notFindings.count + Self.linterOwn.count)
    #expect(Set(rules).count == rules.count, "a code is listed twice")
    let readers = Set(FormatError.Code.allCases.map(\.rawValue))
    #expect(rules.filter { !readers.contains($0) } == Self.linterOwn)
    #expect(Self.linterOwn.allSatisfy { $0.hasPrefix("lint-") })
    for code in FormatError.Code.allCases where !Self.notFindings.contains(code) {
      #expect(rules.contains(code.rawValue), "\(code.rawValue) has no lint rule")
    }
    for code in rules {
      let page = root.appendingPathComponent("docs/lint/\(code).md").path
      #expect(FileManager.default.fileExists(atPath: page), "\(code) has no page in docs/lint")
    }
    // The folder codes that are no finding are in FORMAT.md's table of folder codes.
    let format = try String(contentsOf: root.appendingPathComponent("FORMAT.md"), encoding: .utf8)
    for code in Self.notFindings where code.rawValue.hasPrefix("folder-") {
      #expect(!rules.contains(code.rawValue))
      #expect(format.contains("| `\(code.rawValue)`"), "\(code.rawValue) is not in FORMAT.md §1.8")
    }
  }
}
