import StashFormat

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

  /// Asks `TranscriptAssembler` or `RouteAssembler`.
  public func finished(_ kind: PartsKind, _ finished: [UInt8], holdsAllReadableOf parts: [Part]) -> Bool {
    kind == .transcript
      ? TranscriptAssembler.finished(finished, holdsAllReadableOf: parts)
      : RouteAssembler.finished(finished, holdsAllReadableOf: parts)
  }

  /// Reads the loss from the parts' bytes (`PartsLoss.read`), a part not read counting as one that
  /// cannot be read.
  public func loss(_ kind: PartsKind, parts: [Part], unread: [Int: String]) -> PartsLoss {
    let all =
      parts.map { (number: $0.number, bytes: $0.bytes) } + unread.keys.map { (number: $0, bytes: [UInt8]()) }
    return PartsLoss.read(kind.finishedFile, parts: all.sorted { $0.number < $1.number }, reasons: unread)
  }
}
