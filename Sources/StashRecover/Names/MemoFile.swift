/// The names a memo's files have beside each other in the memo folder, for one `<base>`.
public enum MemoFile: String, Sendable, CaseIterable {
  /// `<base>_audio.m4a`
  case audio = "_audio.m4a"
  /// `<base>_transcription.vtt`
  case transcript = "_transcription.vtt"
  /// `<base>_track.gpx`
  case route = "_track.gpx"
  /// `<base>_title.txt`
  case title = "_title.txt"

  /// The suffix of the folder of parts a recording in progress writes: `<base>.parts`.
  public static let partsSuffix = ".parts"

  /// The file's name for `base`.
  public func name(for base: String) -> String { base + rawValue }

  /// The base and kind of a memo file name, or nil when the name is not one.
  public static func parse(_ name: String) -> (base: String, kind: MemoFile)? {
    for kind in allCases where name.hasSuffix(kind.rawValue) && name.utf8.count > kind.rawValue.utf8.count {
      return (String(name.dropLast(kind.rawValue.count)), kind)
    }
    return nil
  }

  /// The base of a parts folder name (`<base>.parts`), or nil.
  public static func partsBase(_ name: String) -> String? {
    guard name.hasSuffix(partsSuffix), name.utf8.count > partsSuffix.utf8.count else { return nil }
    return String(name.dropLast(partsSuffix.count))
  }
}
