extension Inspection {
  /// The inspection JSON of an audio file (schema in docs/inspect-audio.md).
  static func audio(at path: String) throws(FormatError) -> JSONValue {
    let json = try MP4Audio.read(path: path).inspectionJSON
    guard case .object(let fields) = json else { return json }
    return .object(fields + [("voiceMemo", voiceMemo(at: path))])
  }

  /// What Apple's Voice Memos app wrote into the file (FORMAT.md §9), or null when it shows no
  /// sign of the app: the items, where the transcript is, and what it says (or why it cannot be
  /// read). The audio's own problems are the audio fields' to report.
  static func voiceMemo(at path: String) -> JSONValue {
    let file: ReadOnlyFile
    let items: VoiceMemoItems
    do {
      file = try ReadOnlyFile(path: path)
      items = try VoiceMemoItems.read(file)
    } catch {
      return .null
    }
    guard items.writtenByVoiceMemos || items.transcript != nil else { return .null }
    var transcript: JSONValue = .null
    if let place = items.transcript {
      var fields: [(String, JSONValue)] = [
        ("box", .string(place.path)), ("offset", .int(place.offset)), ("bytes", .int(place.size)),
      ]
      do throws(FormatError) {
        if let read = try items.readTranscript(in: file) {
          fields += [
            ("shape", .string(read.shape.rawValue)), ("locale", .optional(read.locale)),
            ("secondTime", .string(read.secondTime.rawValue)), ("runCount", .int(read.runs.count)),
            ("text", .string(read.text)),
            (
              "runs",
              .array(
                read.runs.map { run in
                  .object([
                    ("text", .string(run.text)), ("start", .seconds(run.start)), ("end", .seconds(run.end)),
                  ])
                })
            ),
            ("error", .null), ("diagnostics", .array(read.diagnostics.map(\.json))),
          ]
        }
      } catch {
        fields += [
          (
            "error",
            .object([
              ("code", .string(error.code.rawValue)), ("message", .string(error.message)),
              ("offset", .optional(error.location.offset)),
            ])
          )
        ]
      }
      transcript = .object(fields)
    }
    return .object([
      // The memo base an import gives it, when its name is the app's.
      ("base", .optional(VoiceMemoName.parse(String(path.split(separator: "/").last ?? ""))?.base)),
      ("title", .optional(items.title)), ("tool", .optional(items.tool)), ("uuid", .optional(items.uuid)),
      ("transcript", transcript),
    ])
  }
}

extension MP4Audio {
  /// `stash inspect FILE.m4a --json`.
  var inspectionJSON: JSONValue {
    let hex = audioSpecificConfig.map { Text.zeroPadded(String($0, radix: 16), width: 2) }.joined()
    return .object([
      ("kind", .string("audio")),
      ("state", .string(stateName)),
      ("fragmented", .bool(fragmented)),
      ("fragmentCount", .int(fragmentCount)),
      ("codec", codec.isEmpty ? .null : .string(codec)),
      ("audioObjectType", audioObjectType == 0 ? .null : .int(audioObjectType)),
      ("audioSpecificConfig", hex.isEmpty ? .null : .string(hex)),
      ("sampleRate", sampleRate == 0 ? .null : .int(sampleRate)),
      ("coreSampleRate", coreSampleRate == 0 ? .null : .int(coreSampleRate)),
      ("sbr", .bool(sbr)),
      ("channels", channels == 0 ? .null : .int(channels)),
      ("timescale", .int(Int(timescale))),
      ("sampleCount", .int(sampleCount)),
      ("primingSamples", .int(primingSamples)),
      ("endTrimSamples", .int(endTrimSamples)),
      ("durationSeconds", .seconds(durationSeconds)),
      ("cutShort", .bool(cutShort)),
      ("tailBytes", .int(tailBytes)),
      ("creationTime", .optional(creationTime)),
      ("damaged", .optional(damaged)),
      ("damageCode", .optional(damageCode?.rawValue)),
      ("lengthUnreadable", .optional(lengthUnreadableReason)),
      ("diagnostics", .array(diagnostics.map(\.json))),
    ])
  }
}
