import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

extension AudioTrack {
  /// The track of the MP4 file at `path`, read by StashFormat's MP4 reader. A file the reader finds
  /// damaged is refused with the reader's reason; a torn file plays up to its last whole sample.
  public static func read(path: String) throws(PlaybackError) -> AudioTrack {
    let audio: MP4Audio
    do {
      audio = try MP4Audio.read(path: path)
    } catch {
      throw PlaybackError(reading: error)
    }
    return try AudioTrack(audio, path: path)
  }

  /// The track of an already read MP4 index.
  public init(_ audio: MP4Audio, path: String) throws(PlaybackError) {
    if let reason = audio.damaged {
      throw PlaybackError(code: .damagedAudio, message: reason, path: path)
    }
    guard audio.audioObjectType != 0, !audio.audioSpecificConfig.isEmpty else {
      throw PlaybackError(
        code: .unsupported, message: "the file has no AAC audio track (codec '\(audio.codec)')", path: path)
    }
    guard !audio.samples.isEmpty else {
      throw PlaybackError(
        code: .damagedAudio, message: "the audio file holds no whole sample: there is nothing to play",
        path: path)
    }
    var samples = audio.samples.map {
      Sample(offset: $0.offset, size: $0.size, decodeTime: $0.decodeTime, duration: Int64($0.duration))
    }
    var timescale = Int(audio.timescale)
    var priming = Int64(audio.primingSamples)
    let totalTime = samples.last.map { $0.decodeTime + $0.duration } ?? 0
    if timescale <= 0 || totalTime <= 0 {
      // The index gives no usable times (the reader says the length is unreadable): every AAC
      // access unit is 1024 core frames (2048 output frames with SBR), which is what it plays as.
      let sbr = audio.audioObjectType == 5 || audio.audioObjectType == 29
      let frame: Int64 = sbr ? 2048 : 1024
      timescale = max(1, audio.sampleRate)
      for index in samples.indices {
        samples[index].decodeTime = Int64(index) * frame
        samples[index].duration = frame
      }
      priming = frame
    }
    self.init(
      path: path, audioSpecificConfig: audio.audioSpecificConfig, sampleRate: audio.sampleRate,
      channels: audio.channels, timescale: timescale, samples: samples, primingSamples: priming,
      endTrimSamples: Int64(audio.endTrimSamples), lengthKnown: audio.durationSeconds != nil)
  }

  /// The audio file of the memo `path` names: its `_audio.m4a` itself, any other file of the memo
  /// (transcript, route, title, parts folder), its base path, or any other audio file.
  public static func audioPath(forMemo path: String) throws(PlaybackError) -> String {
    var trimmed = path
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
    let slash = trimmed.lastIndex(of: "/")
    let folder = slash.map { String(trimmed[...$0]) } ?? ""
    let name = slash.map { String(trimmed[trimmed.index(after: $0)...]) } ?? trimmed
    if case .memoFile(let base, _) = FolderName.classify(name) {
      let audio = folder + base + MemoFileKind.audio.suffix
      guard exists(audio) else {
        throw PlaybackError(
          code: .damagedAudio,
          message: "this memo has no audio file (\(base + MemoFileKind.audio.suffix) is missing)",
          path: path)
      }
      return audio
    }
    var info = stat()
    if stat(trimmed, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG { return trimmed }
    let audio = trimmed + MemoFileKind.audio.suffix
    if exists(audio) { return audio }
    throw PlaybackError(
      code: .invalid,
      message:
        "no such memo: neither this path nor \(PathText.escaped(audio)) exists",
      path: path)
  }

  private static func exists(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0
  }
}
