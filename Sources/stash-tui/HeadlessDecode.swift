import StashFormat
import StashPlayback
import StashRecover

/// `stash-tui --decode FILE --from SECONDS --to SECONDS -o OUT [--force]`: writes the stretch of
/// the memo's audio as a WAV file (16-bit PCM at the audio's rate), atomically, never into the memo
/// folder and never over a file without `--force`. It is what `stash export --clip FROM-TO --to wav`
/// runs: decoding is stash-tui's, the only program that links libavcodec. Exits 0, 1 when the
/// memo cannot be decoded or the file not written (the reason on stderr), 2 for a usage mistake.
enum HeadlessDecode {
  static let usage = "usage: stash-tui --decode FILE --from SECONDS --to SECONDS -o OUT [--force]"

  /// Whether the command line asks for a decode.
  static func wanted(_ arguments: [String]) -> Bool { arguments.contains("--decode") }

  /// Runs the mode and returns the exit status.
  static func run(_ arguments: [String]) -> Int32 {
    var values: [String: String] = [:]
    var force = false
    var index = 0
    while index < arguments.count {
      let flag = arguments[index]
      index += 1
      if flag == "--force" {
        force = true
        continue
      }
      guard ["--decode", "--from", "--to", "-o"].contains(flag) else {
        return usageError("unknown argument '\(flag)' with --decode")
      }
      guard index < arguments.count else { return usageError("\(flag) needs a value") }
      values[flag] = arguments[index]
      index += 1
    }
    guard let file = values["--decode"], let output = values["-o"], let fromText = values["--from"],
      let toText = values["--to"]
    else { return usageError("--decode needs FILE, --from, --to and -o") }
    guard let from = Double(fromText), let to = Double(toText), from.isFinite, to.isFinite, from >= 0,
      to > from
    else { return usageError("--from and --to take seconds, the start before the end") }
    do {
      let path = try AudioTrack.audioPath(forMemo: file)
      let memoFolder = PathText.folder(of: path)
      let (folder, name) = try AudioClip.target(output, memoFolder: memoFolder)
      let track = try AudioTrack.read(path: path)
      let span = try track.decode(from: from, to: to)
      try AtomicFile.write(
        span.wav, named: name, in: folder, mode: force ? .replace : .createNew, fileSystem: SystemFileSystem()
      )
    } catch let error as RecoverError where error.code == .exists {
      HeadlessPlayback.say("stash-tui: \(PathText.escaped(output)) exists; add --force to replace it")
      return 1
    } catch {
      HeadlessPlayback.say("stash-tui: \(error)")
      return 1
    }
    return 0
  }

  private static func usageError(_ message: String) -> Int32 {
    HeadlessPlayback.say("stash-tui: \(message)\n\(usage)")
    return 2
  }
}
