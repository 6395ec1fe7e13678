/// A name in the memo folder that is not part of a memo: an orphan, a near miss, a stranger, a hidden file.
public struct FolderEntry: Sendable, Equatable {
  /// Why the name is not part of a memo.
  public enum Role: Sendable, Equatable {
    /// A transcript, route or title whose base has no audio and no parts folder.
    case orphan(base: String, kind: MemoFileKind)
    /// A Stash name after a small correction; `intendedExists` says a file of that name is already there.
    case nearMiss(intended: String, reason: String, intendedExists: Bool)
    /// Nothing Stash writes; `reason` is set when there is more to say (e.g. not UTF-8).
    case unrecognised(reason: String?)
    /// A name starting with `.`, ignored.
    case hidden

    /// The role's name in JSON and the fixtures' MANIFEST.
    public var key: String {
      switch self {
      case .orphan: "orphan"
      case .nearMiss: "nearMiss"
      case .unrecognised: "unrecognised"
      case .hidden: "hidden"
      }
    }
  }

  /// The name, escaped for printing (invalid UTF-8 as `\xNN`).
  public var name: String
  /// The name's bytes exactly as stored.
  public var bytes: [UInt8]
  /// What the name points at.
  public var kind: DirectoryEntry.Kind
  /// Why it is not part of a memo.
  public var role: Role

  /// Creates an entry.
  public init(name: String, bytes: [UInt8], kind: DirectoryEntry.Kind, role: Role) {
    self.name = name
    self.bytes = bytes
    self.kind = kind
    self.role = role
  }

  /// The finding for the linter, or nil for a hidden name.
  public var diagnostic: Diagnostic? {
    switch role {
    case .hidden:
      return nil
    case .orphan(let base, let kind):
      return Diagnostic(
        code: .folderOrphan, severity: .warning,
        message:
          "a \(kind.words) with no audio beside it (\(PathText.escaped(base + MemoFileKind.audio.suffix)) is "
          + "missing): it belongs to no memo. Copy the audio beside it, or remove it")
    case .nearMiss(let intended, let reason, let exists):
      let tail =
        exists
        ? "; a file named \(PathText.escaped(intended)) is already there, so this looks like a duplicate"
        : ": rename it to \(PathText.escaped(intended))"
      return Diagnostic(
        code: .folderNearMiss, severity: .warning,
        message: "not a Stash name, but nearly one (\(reason))\(tail)")
    case .unrecognised where VoiceMemoName.parse(name) != nil:
      return Diagnostic(
        code: .folderUnrecognised, severity: .info,
        message: VoiceMemoName.notYetAMemo + "; here it is left alone")
    case .unrecognised(let reason):
      return Diagnostic(
        code: .folderUnrecognised, severity: .info,
        message: "not a name Stash writes\(reason.map { " (\($0))" } ?? ""); it is left alone")
    }
  }
}
