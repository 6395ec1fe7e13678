extension Inspection {
  /// The inspection JSON of an audio file (schema in docs/inspect-audio.md).
  static func audio(at path: String) throws(FormatError) -> JSONValue {
    try MP4Audio.read(path: path).inspectionJSON
  }
}

extension MP4Audio {
  /// `stash inspect FILE.m4a --json`.
  var inspectionJSON: JSONValue {
    let hex = audioSpecificConfig.map { byte in
      let digits = String(byte, radix: 16)
      return digits.count < 2 ? "0" + digits : digits
    }.joined()
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
