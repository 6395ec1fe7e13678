/// The assembler the sweep uses: WebVTT for transcripts, GPX for routes, through StashFormat's
/// readers and writers.
public struct FormatAssembler: PartsAssembler, Sendable {
  /// The assembler.
  public init() {}

  /// Assembles with `TranscriptAssembler` or `RouteAssembler`.
  public func assemble(_ kind: PartsKind, parts: [Part]) -> Assembly {
    kind == .transcript ? TranscriptAssembler.assemble(parts) : RouteAssembler.assemble(parts)
  }

  /// Asks `TranscriptAssembler` or `RouteAssembler`.
  public func finished(_ kind: PartsKind, _ finished: [UInt8], holdsAllOf parts: [Part]) -> Bool {
    kind == .transcript
      ? TranscriptAssembler.finished(finished, holdsAllOf: parts)
      : RouteAssembler.finished(finished, holdsAllOf: parts)
  }
}
