extension JSONWriter {
  /// `RecordingDate.isoUTC(seconds)` or `RecordingDate.isoLocal(seconds)` as a JSON string, the
  /// bytes written straight into the output (`RecordingDate.appendISO`).
  package mutating func recordingDate(_ seconds: Double, local: Bool) {
    unescapedString { RecordingDate.appendISO(seconds, local: local, to: &$0) }
  }
}
