import Dispatch
import StashFormat

/// Runs every check over a memo folder (or one file) and returns the findings in a fixed order.
/// Memos are checked in parallel; each writes only its own slot, so the output never depends on
/// scheduling.
enum LintEngine {
  /// Audio codes that state facts rather than problems; the listing and `inspect` show them.
  static let quietAudioCodes: Set<String> = [
    "mp4-priming-assumed", "mp4-complex-edit-list", "mp4-gapless-metadata",
  ]
  /// What the listing found from a summary or a few bytes; lint reads each file whole and reports
  /// its findings instead.
  static let listingAudioCodes: Set<String> = AudioSummary.codes.union(MemoFileSniff.codes).union([
    FolderCode.audioDamaged, FolderCode.audioCutShort, FolderCode.audioLengthUnreadable,
  ])

  /// Every finding in the folder at `path`. Throws only when the folder itself cannot be read.
  static func lint(folder path: String, deepAudio: Bool = false) throws(FormatError) -> [LintFinding] {
    let folder = try MemoFolder.read(path: path)
    let memos = folder.memos
    var slots = [[LintFinding]](repeating: [], count: memos.count)
    slots.withUnsafeMutableBufferPointer { buffer in
      nonisolated(unsafe) let out = buffer
      let chunk = 32
      DispatchQueue.concurrentPerform(iterations: (memos.count + chunk - 1) / chunk) { n in
        for index in n * chunk..<min(memos.count, (n + 1) * chunk) {
          out[index] = MemoChecks(memo: memos[index], folder: path, deepAudio: deepAudio).findings()
        }
      }
    }
    var findings = slots.flatMap { $0 }
    for entry in folder.others {
      if let diagnostic = entry.diagnostic {
        findings.append(LintFinding(diagnostic, name: entry.name, folder: path))
      }
    }
    for collision in folder.collisions {
      // One finding on each colliding memo's audio, so each file is annotated where it is.
      for base in collision.bases {
        let memo = memos.first { PathText.escaped($0.base) == base }
        let name = memo.flatMap { m in
          (m.files[.audio] ?? m.files.values.sorted().first).map(PathText.escaped)
        }
        findings.append(LintFinding(collision.diagnostic, name: name ?? base, folder: path))
      }
    }
    return LintFinding.sorted(findings)
  }

  /// The findings of one file checked on its own (no memo around it), chosen by its suffix.
  /// Throws when the file cannot be opened at all.
  static func lint(file path: String) throws(FormatError) -> [LintFinding] {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[..<$0]) } ?? "."
    let name = PathText.escaped(slash.map { String(path[path.index(after: $0)...]) } ?? path)
    var checks = FileChecks(name: name, folder: folder)
    let lower = path.lowercased()
    if lower.hasSuffix(".m4a") || lower.hasSuffix(".mp4") {
      checks.audio(try MP4Audio.read(path: path))
    } else if lower.hasSuffix(".vtt") {
      checks.transcript(WebVTTParser.parse(try ReadOnlyFile.contents(of: path)), audioSeconds: nil)
    } else if lower.hasSuffix(".gpx") {
      checks.route(try ReadOnlyFile.contents(of: path), span: nil)
    } else if path.hasSuffix(MemoFileKind.title.suffix) {
      checks.add(try Title.read(ReadOnlyFile(path: path)).problems)
    } else {
      throw FormatError(
        code: "unknown-kind",
        message:
          "stash lint checks folders, and .m4a or .mp4, .vtt, .gpx and _title.txt files; this is none of them",
        path: path)
    }
    return LintFinding.sorted(checks.findings)
  }
}

/// The checks of one memo: the reader's problems, then each file's own diagnostics and the
/// cross-file rules.
struct MemoChecks {
  /// The memo as the folder reader saw it.
  var memo: Memo
  /// The linted folder's path as given.
  var folder: String
  /// Whether to read the full index of fragmented audio the quick summary found whole.
  var deepAudio: Bool

  /// The path of one of the memo's files.
  func file(_ name: String) -> String { folder.hasSuffix("/") ? folder + name : folder + "/" + name }

  /// Everything found in the memo's files, unsorted.
  func findings() -> [LintFinding] {
    var out: [LintFinding] = []
    for problem in memo.problems where !LintEngine.listingAudioCodes.contains(problem.code) {
      let name = problem.file.map(PathText.escaped) ?? PathText.escaped(memo.base)
      out.append(LintFinding(problem.diagnostic, name: name, folder: folder))
    }
    let notFiles = Set(memo.problems.filter { $0.code == FolderCode.notAFile }.compactMap(\.file))
    func readable(_ kind: MemoFileKind) -> String? {
      guard let name = memo.files[kind], !notFiles.contains(name) else { return nil }
      return name
    }
    if let name = readable(.audio), let summary = memo.audio,
      deepAudio || summary.state != .ok || !summary.fragmented
    {
      // The full index names the exact problem and finds broken sample tables in a file that
      // otherwise plays. A long fragmented recording the summary found whole is walked only with
      // --deep-audio: visiting each of its hundreds of fragments costs more than the rest of lint.
      var checks = FileChecks(name: PathText.escaped(name), folder: folder)
      do {
        checks.audio(try MP4Audio.read(path: file(name)))
      } catch {
        checks.unreadable(error)
      }
      out += checks.findings
    }
    let seconds = memo.durationSeconds
    if let name = readable(.transcript) {
      var checks = FileChecks(name: PathText.escaped(name), folder: folder)
      do {
        let bytes = try ReadOnlyFile.contents(of: file(name))
        checks.transcript(WebVTTParser.parse(bytes), audioSeconds: seconds)
      } catch {
        checks.unreadable(error)
      }
      out += checks.findings
    }
    if let name = readable(.route) {
      var checks = FileChecks(name: PathText.escaped(name), folder: folder)
      // The span is known only when the start is (not a guess from a modification time) and the length is.
      let span: ClosedRange<Double>? =
        memo.dateSource != .mtime && seconds != nil ? memo.recordedAt...(memo.recordedAt + seconds!) : nil
      do {
        checks.route(try ReadOnlyFile.contents(of: file(name)), span: span)
      } catch {
        checks.unreadable(error)
      }
      out += checks.findings
    }
    return out
  }
}
