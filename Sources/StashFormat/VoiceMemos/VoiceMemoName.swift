/// The name Apple's Voice Memos app gives a recording: `YYYYMMDD HHMMSS-XXXXXXXX.m4a` (or `.qta`),
/// the local date and time it was made, then the first 8 characters of its UUID; and the memo
/// base Stash gives it (FORMAT.md §9).
public struct VoiceMemoName: Sendable, Equatable {
  /// The base in the form the phone writes, from the name's local time (no zone):
  /// `2025-06-08T08-30-12`.
  public var base: String
  /// The first 8 characters of the recording's UUID.
  public var uniquePrefix: String

  /// What lint says of a file with the app's name.
  public static let notYetAMemo =
    "a recording from Apple's Voice Memos, not a memo yet: `stash import` brings it in as one "
    + "(its audio unchanged, with its transcript and title)"

  /// The two extensions the app writes.
  public static let extensions = [".m4a", ".qta"]

  /// The parts of a Voice Memos file name, or nil when `name` is not one (a date that does not
  /// exist, such as month 13, is not one either).
  public static func parse(_ name: String) -> VoiceMemoName? {
    let bytes = Array(name.utf8)
    guard bytes.count == 28, extensions.contains(where: { name.hasSuffix($0) }) else { return nil }
    func digits(_ range: Range<Int>) -> Bool { bytes[range].allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
    let hex = bytes[16..<24].allSatisfy { byte in
      (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
    guard digits(0..<8), bytes[8] == UInt8(ascii: " "), digits(9..<15), bytes[15] == UInt8(ascii: "-"), hex
    else { return nil }
    let text = { (range: Range<Int>) in String(decoding: bytes[range], as: UTF8.self) }
    let base =
      "\(text(0..<4))-\(text(4..<6))-\(text(6..<8))T\(text(9..<11))-\(text(11..<13))-\(text(13..<15))"
    // The base must read back as the date it names (FORMAT.md §1.3 checks every field).
    guard RecordingDate.parse(base: base) != nil else { return nil }
    return VoiceMemoName(base: base, uniquePrefix: text(16..<24))
  }

  /// Whether `name` ends in one of the app's extensions (a recording renamed by other tools).
  public static func hasVoiceMemoExtension(_ name: String) -> Bool {
    extensions.contains { name.hasSuffix($0) }
  }

  /// The base for a recording known only by its MP4 creation time: UTC, with its zone.
  public static func base(creationTime: Double) -> String { RecordingDate.base(utc: creationTime) }

  /// Whether `title` is only the name the app gives a recording before anyone names it
  /// ("New Recording", "New Recording 2", …), which makes no title of its own.
  public static func isDefaultTitle(_ title: String) -> Bool {
    let trimmed = Text.trimmed(title)
    guard trimmed.hasPrefix("New Recording") else { return trimmed.isEmpty }
    let rest = trimmed.dropFirst("New Recording".count)
    return rest.isEmpty || (rest.first == " " && rest.dropFirst().allSatisfy(\.isNumber) && rest.count > 1)
  }
}
