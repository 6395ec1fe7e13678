/// The full index of a memo's audio track: what the codec needs, every whole sample on disk, the
/// priming and trim to drop, the length, and what is wrong with the file if anything.
public struct MP4Audio: Sendable {
  /// Whether the file is laid out in fragments (moof + mdat) rather than one sample table.
  public var fragmented: Bool
  /// The RFC 6381 codec string, such as `mp4a.40.2` (empty when no AAC track was found).
  public var codec: String
  /// The audio object type first signalled: 2 for AAC-LC, 5 for HE-AAC (SBR), 29 for HE-AAC v2.
  public var audioObjectType: Int
  /// The rate the decoder outputs, in Hz (with SBR, twice the core rate).
  public var sampleRate: Int
  /// The rate of the core AAC decoder, in Hz: below `sampleRate` when SBR is signalled.
  public var coreSampleRate: Int
  /// Whether spectral band replication (HE-AAC) is signalled, in either way the config allows.
  public var sbr: Bool
  /// Channels, from the AudioSpecificConfig (the sample entry's count when the config defers).
  public var channels: Int
  /// The AudioSpecificConfig bytes, to hand a decoder as extradata.
  public var audioSpecificConfig: [UInt8]
  /// The track's whole `mp4a` sample entry box (its `esds` inside), as the file holds it; empty
  /// when the entry is of another type or too large to keep. A clip copies it.
  public var sampleEntry: [UInt8]
  /// Units per second of every sample duration and decode time (mdhd).
  public var timescale: UInt32
  /// The whole samples on disk, in decode order.
  public var samples: [AudioSample]
  /// Encoder delay to drop from the start, in media timescale units (see FORMAT.md §2).
  public var primingSamples: Int
  /// Padding to drop from the end, in media timescale units (from the edit list; 0 without one).
  public var endTrimSamples: Int
  /// Length in seconds, or nil when damaged or unreadable.
  public var durationSeconds: Double?
  /// Bytes after the last whole sample when the file was cut short; 0 otherwise.
  public var tailBytes: Int
  /// The creation time the movie header records, seconds since 1970 UTC, or nil when unset.
  public var creationTime: Double?
  /// Why nothing can be played, in plain words, or nil.
  public var damaged: String?
  /// Why the length cannot be read although the audio plays, or nil.
  public var lengthUnreadableReason: String?
  /// Everything noticed along the way, including a torn tail.
  public var diagnostics: [Diagnostic]

  /// Complete `moof` boxes in the file (0 for a finished file).
  public var fragmentCount: Int
  /// Whole samples on disk.
  public var sampleCount: Int { samples.count }
  /// Whether the file was cut short (a torn box at its end, or samples past its end).
  public var cutShort: Bool
  /// The stable code of the damage, such as `mp4-no-index`, or nil.
  public var damageCode: FormatError.Code?

  /// The condition in one word, as the listing and MANIFEST name it: `ok`, `cutShort`, `damaged`
  /// or `lengthUnreadable`.
  public var stateName: String {
    if damaged != nil { return "damaged" }
    if lengthUnreadableReason != nil { return "lengthUnreadable" }
    return cutShort ? "cutShort" : "ok"
  }

  /// Reads the whole index of the audio file at `path`. Problems in the file become `damaged`,
  /// `lengthUnreadableReason` and diagnostics; this throws only when the file cannot be read.
  public static func read(path: String) throws(FormatError) -> MP4Audio {
    MP4Audio(try MP4Reader(path: path, depth: .full))
  }

  /// The diagnostics of the full index of `file`, as `read(path:)` gives them, without keeping
  /// the samples: what lint reports, with no list of every sample made.
  package static func diagnostics(_ file: ReadOnlyFile) throws(FormatError) -> [Diagnostic] {
    MP4Audio(try MP4Reader(file, depth: .full, keepingSamples: false)).diagnostics
  }

  /// What lint needs of one audio file: the listing's summary, and the diagnostics of the full
  /// index (or the error that stopped it) when `fullIndex` asks for them given the summary.
  /// A file without fragments is opened once and parsed once for both; one with fragments is
  /// summarised from its ends and, when wanted, walked again in full from the same open file.
  /// Both come out as `AudioSummary.read` and `diagnostics` give them.
  package static func lintReading(
    _ location: FileLocation, listedAsRegularFile: Bool, fullIndex: (AudioSummary) -> Bool
  ) -> (summary: AudioSummary, diagnostics: Result<[Diagnostic], FormatError>?) {
    let file: ReadOnlyFile
    do {
      file = try ReadOnlyFile(location, listedAsRegularFile: listedAsRegularFile)
    } catch {
      let summary = AudioSummary(unreadable: error)
      return (summary, fullIndex(summary) ? .failure(error) : nil)
    }
    var summary: AudioSummary
    var reader: MP4Reader?
    do {
      let both = try MP4Reader(file, depth: .both, keepingSamples: false)
      reader = both
      // Rare (samples the index places past the file's end): the summary's own reading decides.
      summary = both.summaryDiffers ? summaryReading(file) : AudioSummary(both)
    } catch {
      // An error in what only the full reading reads (or any other) leaves the summary to its own.
      summary = summaryReading(file)
    }
    guard fullIndex(summary) else { return (summary, nil) }
    if let reader, reader.depth == .full {
      return (summary, .success(MP4Audio(reader).diagnostics))
    }
    do {
      return (
        summary, .success(MP4Audio(try MP4Reader(file, depth: .full, keepingSamples: false)).diagnostics)
      )
    } catch {
      return (summary, .failure(error))
    }
  }

  /// `AudioSummary.read` of a file already open.
  private static func summaryReading(_ file: ReadOnlyFile) -> AudioSummary {
    do {
      return AudioSummary(try MP4Reader(file, depth: .summary))
    } catch {
      return AudioSummary(unreadable: error)
    }
  }

  init(_ reader: MP4Reader) {
    let length = MP4Length(reader)
    fragmented = reader.fragmented
    fragmentCount = reader.fragmentCount
    let config = reader.config
    audioObjectType = config?.audioObjectType ?? 0
    codec = config.map { "mp4a.40.\($0.audioObjectType)" } ?? ""
    sampleRate = config?.outputSampleRate ?? 0
    coreSampleRate = config?.coreSampleRate ?? 0
    sbr = config?.sbr ?? false
    let configured = config?.channelConfiguration ?? 0
    // Configuration 7 means eight channels; 0 defers to a program config element.
    channels = configured == 7 ? 8 : configured > 0 ? configured : reader.track?.entryChannelCount ?? 0
    audioSpecificConfig = (try? reader.track?.audioSpecificConfig.get()) ?? []
    sampleEntry = reader.track?.sampleEntry ?? []
    timescale = reader.track?.timescale ?? 0
    samples = reader.samples
    primingSamples = length.priming
    endTrimSamples = length.endTrim
    durationSeconds = length.seconds
    tailBytes = reader.tailByteCount
    cutShort = reader.cutShort
    creationTime = MP4Length.unixTime(reader.movie?.creationTime ?? 0)
    damaged = reader.problem?.message
    damageCode = reader.problem?.code
    lengthUnreadableReason = length.unreadableReason
    var diagnostics = reader.diagnostics
    if let problem = reader.problem {
      diagnostics.append(Diagnostic(code: problem.code, severity: .error, message: problem.message))
    }
    diagnostics += length.diagnostics
    if let config, !config.sbrSignalled, config.coreObjectType == 2, config.coreSampleRate <= 24000 {
      // HE-AAC runs its core at 24 kHz or below; SBR the config does not signal shows only in the
      // frames, so the output rate here is the one the config gives, not a certainty.
      let rate = config.coreSampleRate
      diagnostics.append(
        Diagnostic(
          code: .mp4SbrNotSignalled, severity: .info,
          message:
            "the audio's config does not say whether it uses SBR (HE-AAC); at \(rate) Hz a stream may carry SBR "
            + "without signalling it, and then decodes at \(2 * rate) Hz: only decoding shows which, and "
            + "playback opens the device at the rate the decoder outputs"))
    }
    self.diagnostics = diagnostics
  }
}
