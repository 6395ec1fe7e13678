import StashRecover
import Testing

/// `RecoverError`'s codes are stable: the list here is the published one, so a rename fails here.
@Suite struct RecoverErrorCodeTests {
  /// Every `RecoverError.Code`, as published. A new code is added here; a changed one is a rename,
  /// which breaks every caller that tells errors apart by it.
  static let published = [
    "io", "exists", "busy", "strangers", "not-a-file", "too-large", "not-found", "bad-base",
    "trash-unavailable", "repair-unsupported", "repair-failed", "changed", "verify-failed", "overlap",
    "foreign", "duplicate", "out-of-range",
  ]

  @Test func theCodesAreThePublishedOnes() {
    #expect(RecoverError.Code.allCases.map(\.rawValue) == Self.published)
    #expect(Set(Self.published).count == Self.published.count)
    for code in Self.published {
      let words = code.split(separator: "-", omittingEmptySubsequences: false)
      #expect(words.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLowercase } }, "\(code)")
    }
  }

  /// An I/O error made from an errno carries the `io` code and the number; the type, not a string,
  /// is what callers match.
  @Test func anIOErrorKeepsItsNumber() {
    let error = RecoverError.io(5, doing: "read", path: "/x")
    #expect(error.code == .io && error.number == 5)
    #expect(error.description.hasPrefix("/x: cannot read: "))
  }
}
