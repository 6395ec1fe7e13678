/// What a single name in a memo folder is, judged from the name alone.
public enum FolderName: Sendable, Equatable {
  /// `<base><suffix>` exactly: part of the memo `base`.
  case memoFile(base: String, kind: MemoFileKind)
  /// Starts with `.`: ignored, as the phone ignores it.
  case hidden
  /// Would be a memo file after a small correction; `intended` is the name it was meant to have.
  case nearMiss(intended: String, base: String, kind: MemoFileKind, reason: String)
  /// Nothing Stash writes.
  case unrecognised

  /// Classifies a name given as text (nil when it is not valid UTF-8, which no phone name is).
  public static func classify(_ name: String?) -> FolderName {
    guard let name else { return .unrecognised }
    if name.utf8.first == UInt8(ascii: ".") { return .hidden }
    if let (base, kind) = MemoFileKind.split(name) {
      if let trimmed = trimmedBase(base) {
        return .nearMiss(
          intended: trimmed + kind.suffix, base: trimmed, kind: kind,
          reason: "the base has a space or other blank at its start or end")
      }
      return .memoFile(base: base, kind: kind)
    }
    if let match = NearMissRules.match(name) { return match }
    // Blanks around the whole name (`x_audio.m4a `): what is left may be a Stash name or a near miss.
    let trimmed = Text.trimmed(name)
    if !trimmed.isEmpty, !trimmed.utf8.elementsEqual(name.utf8) {
      switch classify(trimmed) {
      case .memoFile(let base, let kind):
        return .nearMiss(
          intended: trimmed, base: base, kind: kind,
          reason: "the name has a space or other blank at its start or end")
      case .nearMiss(let intended, let base, let kind, let reason):
        return .nearMiss(
          intended: intended, base: base, kind: kind,
          reason: "the name has a space or other blank at its start or end; " + reason)
      case .hidden, .unrecognised:
        break
      }
    }
    return .unrecognised
  }

  /// The base without leading and trailing blanks when it has any, else nil.
  static func trimmedBase(_ base: String) -> String? {
    let scalars = base.unicodeScalars
    guard let first = scalars.first, let last = scalars.last,
      first.properties.isWhitespace || last.properties.isWhitespace
    else { return nil }
    let trimmed = Text.trimmed(base)
    return trimmed.isEmpty ? nil : trimmed
  }
}
