import StashFormat

/// The span of a memo a clip takes, as `stash export --clip` is given it: `FROM-TO` (each as
/// `83.5`, `1:23` or `1:23.5`) or `bookmark:N`, from the memo's Nth bookmark (counting from 1, in
/// time order) to the next, or to the audio's end after the last.
public struct ClipSpan: Sendable, Equatable {
  /// Seconds of the memo's presentation.
  public var from: Double
  public var to: Double

  public init(from: Double, to: Double) {
    self.from = from
    self.to = to
  }

  /// Why a span cannot be read, in plain words.
  public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }

  /// The span `text` names, given the memo's `bookmarks` and its audio's length (nil when unknown).
  public init(_ text: String, bookmarks: [Bookmark], audioLength: Double?) throws(Problem) {
    if text.hasPrefix("bookmark:") {
      let number = text.dropFirst("bookmark:".count)
      let sorted = bookmarks.sorted { $0.at < $1.at }
      guard let n = Int(number), n >= 1 else {
        throw Problem(message: "'\(PathText.escaped(text))' names no bookmark: give bookmark:N, N from 1")
      }
      guard n <= sorted.count else {
        throw Problem(
          message: "there is no bookmark \(n): the memo has \(Text.count(sorted.count, "bookmark"))")
      }
      guard let end = n < sorted.count ? sorted[n].at : audioLength else {
        throw Problem(
          message: "bookmark \(n) is the last and the audio's length is unknown; give FROM-TO instead")
      }
      self.init(from: sorted[n - 1].at, to: end)
      return
    }
    let ends = text.split(separator: "-", omittingEmptySubsequences: false)
    guard ends.count == 2, let from = TimeText.seconds(String(ends[0])),
      let to = TimeText.seconds(String(ends[1]))
    else {
      throw Problem(
        message:
          "'\(PathText.escaped(text))' is not a span: give FROM-TO (83.5-95, 1:23-3:05.5) or bookmark:N")
    }
    guard from < to else {
      throw Problem(
        message: "the span '\(PathText.escaped(text))' ends before it starts; give FROM before TO")
    }
    self.init(from: from, to: to)
  }
}
