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
    if let (base, kind) = MemoFileKind.split(name), trimmedBase(base) == nil {
      return .memoFile(base: base, kind: kind)
    }
    // A correction is offered only when it leads to a memo file: one that would be hidden (a
    // blank trimmed off `" .x_audio.m4a"`) or that needs a further correction is no suggestion.
    guard let miss = nearMiss(name), case .nearMiss(let intended, let base, let kind, _) = miss,
      isMemoFile(intended, base: base, kind: kind)
    else { return .unrecognised }
    return miss
  }

  /// Whether `name` is exactly the memo file `kind` of `base`, as `classify` would call it, judged
  /// without classifying it again.
  static func isMemoFile(_ name: String, base: String, kind: MemoFileKind) -> Bool {
    guard name.utf8.first != UInt8(ascii: "."), let split = MemoFileKind.split(name) else { return false }
    return split.kind == kind && split.base.utf8.elementsEqual(base.utf8) && trimmedBase(split.base) == nil
  }

  /// The near miss `name` seems to be, before its intended name is checked, or nil.
  private static func nearMiss(_ name: String) -> FolderName? {
    if let (base, kind) = MemoFileKind.split(name), let trimmed = trimmedBase(base) {
      return .nearMiss(
        intended: trimmed + kind.suffix, base: trimmed, kind: kind,
        reason: "the base has a space or other blank at its start or end")
    }
    if let match = NearMissRules.match(name) { return match }
    // Blanks around the whole name (`x_audio.m4a `): what is left may be a Stash name or a near miss.
    let trimmed = Text.trimmed(name)
    guard !trimmed.isEmpty, !trimmed.utf8.elementsEqual(name.utf8) else { return nil }
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
      return nil
    }
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
