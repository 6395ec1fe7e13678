/// The hidden name a file is written under before it is renamed into place:
/// `.<final name>.stash-tmp-XXXXXX`, six letters or digits. A name of this shape beside a memo is
/// what a killed write left behind, and the sweep removes it.
public enum TemporaryName {
  static let marker = ".stash-tmp-"
  static let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)

  /// A fresh temporary name for `finalName`, with a random suffix.
  public static func make(for finalName: String) -> String {
    // One draw from the system generator (one getrandom(2)) gives all six letters: 62^6 is far
    // below 2^64, so the slight bias of taking remainders does not matter for a name that only
    // has to differ from a leftover's, and O_EXCL refuses a clash anyway.
    var random = UInt64.random(in: 0...UInt64.max)
    var suffix = ""
    for _ in 0..<6 {
      suffix.unicodeScalars.append(UnicodeScalar(alphabet[Int(random % UInt64(alphabet.count))]))
      random /= UInt64(alphabet.count)
    }
    return "." + finalName + marker + suffix
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

  /// The folder a leftover named relative to `folder` is in: `folder`, or a parts folder in it.
  static func folder(of name: String, in folder: String) -> String {
    guard let slash = name.lastIndex(of: "/") else { return folder }
    return folder + "/" + name[..<slash]
  }
}
