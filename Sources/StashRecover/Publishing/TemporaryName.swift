/// The hidden name a file is written under before it is renamed into place:
/// `.<final name>.stash-tmp-XXXXXX`, six letters or digits. A name of this shape beside a memo is
/// what a killed write left behind, and the sweep removes it.
public enum TemporaryName {
  static let marker = ".stash-tmp-"
  static let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)

  /// A fresh temporary name for `finalName`, with a random suffix.
  public static func make(for finalName: String) -> String {
    var generator = SystemRandomNumberGenerator()
    let suffix = (0..<6).map { _ in Character(UnicodeScalar(alphabet.randomElement(using: &generator)!)) }
    return "." + finalName + marker + String(suffix)
  }

  /// The final name a temporary name was made for, or nil when `name` is not one of ours.
  public static func finalName(of name: String) -> String? {
    let bytes = Array(name.utf8)
    let markerBytes = Array(marker.utf8)
    guard bytes.count > 1 + markerBytes.count + 6, bytes[0] == UInt8(ascii: ".") else { return nil }
    let suffix = bytes.suffix(6)
    guard suffix.allSatisfy({ alphabet.contains($0) }) else { return nil }
    let beforeSuffix = bytes.dropLast(6)
    guard beforeSuffix.suffix(markerBytes.count).elementsEqual(markerBytes) else { return nil }
    let final = beforeSuffix.dropLast(markerBytes.count).dropFirst()
    guard !final.isEmpty else { return nil }
    return String(decoding: final, as: UTF8.self)
  }
}
