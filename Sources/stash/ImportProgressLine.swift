import StashFormat
import StashRecover

#if canImport(Glibc)
  import Glibc
#endif

/// The line `stash import` keeps up to date on a terminal's standard error: memos and bytes done,
/// the rate and the time left. Nothing at all when standard error is not a terminal.
final class ImportProgressLine {
  private let enabled: Bool
  private let start = RecordingDate.currentTime()
  private var last = 0.0
  private var shown = false

  init(enabled: Bool) { self.enabled = enabled }

  /// Redraws the line, at most ten times a second.
  func show(_ progress: Importer<SystemFileSystem>.Progress) {
    guard enabled else { return }
    let now = RecordingDate.currentTime()
    guard now - last >= 0.1 else { return }
    last = now
    let elapsed = max(now - start, 0.001)
    let rate = Double(progress.bytesDone) / elapsed
    var line =
      "\(progress.memosDone)/\(progress.memosTotal) memos, \(ImportReport.bytesText(progress.bytesDone))"
    if progress.bytesTotal > 0 { line += " of \(ImportReport.bytesText(progress.bytesTotal))" }
    line += ", \(ImportReport.bytesText(Int(rate)))/s"
    if progress.bytesTotal > progress.bytesDone && rate > 0 {
      let left = Int(Double(progress.bytesTotal - progress.bytesDone) / rate)
      line += ", \(left / 60):\(Text.zeroPadded(left % 60, width: 2)) left"
    }
    standardErrorRaw("\r\u{1b}[K" + line)
    shown = true
  }

  /// Clears the line.
  func finish() {
    if shown { standardErrorRaw("\r\u{1b}[K") }
    shown = false
  }
}

/// Writes `text` to standard error as it is, without a line break.
func standardErrorRaw(_ text: String) {
  SystemCall.writeAll(2, Array(text.utf8))
}
