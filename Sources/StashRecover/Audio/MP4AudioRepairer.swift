import StashFormat

/// Repairs a fragmented recording cut short by a kill (`--repair-audio`): reads its whole samples
/// with `MP4Audio`, rewrites it with `TornTailRepair`, checks the rewrite reads back with every
/// whole sample and no torn tail, then replaces the file atomically. No backup is kept beside it:
/// the bytes removed are only the torn sample and index entries for data never written, which no
/// player can use, and a backup would be a name the format does not define in the user's folder.
public struct MP4AudioRepairer: AudioRepairer, Sendable {
  /// The largest audio file repaired, in bytes (it is rewritten in memory).
  public var limit = 1 << 30

  /// A repairer.
  public init() {}

  /// Repairs `name` in `folder`; throws code `repair-unsupported` for a layout it cannot rewrite.
  public func repair(_ name: String, in folder: String, dryRun: Bool, fileSystem fs: any FileSystem) throws
    -> AudioRepair
  {
    let path = folder + "/" + name
    let audio: MP4Audio
    do {
      audio = try MP4Audio.read(path: path)
    } catch {
      throw RecoverError(code: .io, message: error.message, path: path)
    }
    guard audio.cutShort else {
      return AudioRepair(
        rewritten: false, bytesRemoved: 0, duration: audio.durationSeconds ?? 0, detail: "whole")
    }
    guard audio.fragmented, audio.damaged == nil, !audio.samples.isEmpty else {
      throw RecoverError(
        code: .repairUnsupported,
        message: "cut short, but " + (audio.damaged ?? "not fragmented as the phone records")
          + ": only a fragmented recording with whole samples can be repaired; left as it is", path: path)
    }
    let bytes = try fs.read(path, limit: limit)
    let outcome: TornTailRepair.Outcome?
    do {
      outcome = try TornTailRepair.repair(bytes, samples: audio.samples)
    } catch var error as RecoverError {
      error.path = path
      throw error
    }
    guard let outcome else {
      return AudioRepair(
        rewritten: false, bytesRemoved: 0, duration: audio.durationSeconds ?? 0, detail: "whole")
    }
    let duration = audio.durationSeconds ?? 0
    let length = "its last whole sample (\(audio.samples.count) samples, \(String(format3: duration)) s)"
    let detail =
      dryRun
      ? outcome.wouldDetail + "; it would then end at \(length), and every player would open it"
      : outcome.detail + "; it now ends at \(length), and every player opens it"
    if !dryRun {
      try AtomicFile.write(outcome.bytes, named: name, in: folder, mode: .replace, fileSystem: fs) {
        temporary in
        let repaired = try? MP4Audio.read(path: temporary)
        guard let repaired, !repaired.cutShort, repaired.damaged == nil,
          repaired.samples.count == audio.samples.count
        else {
          throw RecoverError(
            code: .repairFailed,
            message: "the rewritten file did not read back whole; the original is kept",
            path: path)
        }
      }
    }
    return AudioRepair(
      rewritten: true, bytesRemoved: bytes.count - outcome.bytes.count, duration: duration, detail: detail)
  }
}

extension String {
  /// A number with three decimals (Foundation-free).
  init(format3 value: Double) {
    let thousandths = Int((value * 1000).rounded())
    self = "\(thousandths / 1000)." + Text.zeroPadded(thousandths % 1000, width: 3)
  }
}
