/// Bases that differ only in letter case or Unicode normalisation: distinct here, one on the phone,
/// whose file system ignores both differences, so copying them back would merge or clobber them.
public struct NameCollision: Sendable, Equatable {
  /// The colliding bases, escaped for printing, in byte order.
  public var bases: [String]

  /// Creates a collision of `bases`.
  public init(bases: [String]) { self.bases = bases }

  /// The finding for the linter.
  public var diagnostic: Diagnostic {
    Diagnostic(
      code: .folderNameCollision, severity: .error,
      message:
        "these bases differ only in letter case or Unicode normalisation and would be one memo on the "
        + "phone: \(bases.map { "\"\($0)\"" }.joined(separator: ", ")). Rename all but one")
  }
}
