import StashFormat
import StashRecover

/// The bytes of a findings cache file (FORMAT.md §10), little-endian: `stash-findings`, a line
/// feed and the layout's number (1); the version it was written by (2 bytes of length, then the
/// text); the number of entries (4 bytes); each entry; and an XXH64 of every byte before it (8).
/// An entry: its key (16 bytes); the recording date's bits (8), its source (1), whether the length
/// is known (1) and its bits (8), whether the audio was cut short (1); its number of findings (2),
/// and each: the file's kind (1), the code's length (1) and text, the severity (1), line, column
/// and offset (8 each, `Int64.min` for none) and how many it stands for (4).
enum FindingsCacheFile {
  static let magic = Array("stash-findings\n".utf8) + [1]
  /// More findings than this for one memo are not kept: the memo is checked each run.
  static let findingsLimit = Int(UInt16.max)

  static func encode(_ entries: [FindingsCache.Key: FindingsCache.Entry], version: String) -> [UInt8] {
    var out = magic
    out.reserveCapacity(64 + entries.count * 48)
    let text = Array(version.utf8.prefix(Int(UInt16.max)))
    put(UInt64(text.count), 2, &out)
    out += text
    put(UInt64(entries.count), 4, &out)
    for (key, entry) in entries {
      put(key.high, 8, &out)
      put(key.low, 8, &out)
      put(entry.recordedAt.bitPattern, 8, &out)
      out.append(entry.dateSource == .base ? 0 : entry.dateSource == .audio ? 1 : 2)
      out.append(entry.durationSeconds == nil ? 0 : 1)
      put((entry.durationSeconds ?? 0).bitPattern, 8, &out)
      out.append(entry.cutShort ? 1 : 0)
      put(UInt64(entry.findings.count), 2, &out)
      for finding in entry.findings {
        out.append(UInt8(MemoFileKind.allCases.firstIndex(of: finding.kind)!))
        let code = Array(finding.code.rawValue.utf8)
        out.append(UInt8(code.count))
        out += code
        out.append(UInt8(Severity.allCases.firstIndex(of: finding.severity)!))
        for value in [finding.location.line, finding.location.column, finding.location.offset] {
          put(UInt64(bitPattern: Int64(value ?? Int(Int64.min))), 8, &out)
        }
        put(UInt64(min(finding.unlisted, Int(UInt32.max))), 4, &out)
      }
    }
    var hash = ContentHash()
    hash.update(out)
    put(hash.value, 8, &out)
    return out
  }

  /// The entries of `bytes`, or why they cannot be used: damaged (cut short, a wrong check
  /// sum, a code this build does not know) or another version's.
  static func decode(_ bytes: [UInt8], version: String) -> Result<
    [FindingsCache.Key: FindingsCache.Entry], Why
  > {
    guard bytes.count >= magic.count + 8, Array(bytes.prefix(magic.count)) == magic else {
      return .failure(.foreign("is not a findings cache this stash writes"))
    }
    var hash = ContentHash()
    hash.update(Array(bytes[..<(bytes.count - 8)]))
    var reader = Reader(bytes: bytes[..<(bytes.count - 8)], at: magic.count)
    var sum = Reader(bytes: bytes[...], at: bytes.count - 8)
    guard sum.int(8) == hash.value else { return .failure(.damaged) }
    guard let length = reader.int(2), let text = reader.take(Int(length)) else { return .failure(.damaged) }
    let written = String(decoding: text, as: UTF8.self)
    guard written == version else { return .failure(.foreign("was written by stash \(written)")) }
    guard let count = reader.int(4) else { return .failure(.damaged) }
    var entries: [FindingsCache.Key: FindingsCache.Entry] = [:]
    entries.reserveCapacity(min(Int(count), bytes.count / 37))
    for _ in 0..<count {
      guard let high = reader.int(8), let low = reader.int(8), let date = reader.int(8),
        let source = reader.int(1), source < 3, let known = reader.int(1), let duration = reader.int(8),
        let cut = reader.int(1), let findingCount = reader.int(2)
      else { return .failure(.damaged) }
      var findings: [FindingsCache.Finding] = []
      for _ in 0..<findingCount {
        guard let kind = reader.int(1), Int(kind) < MemoFileKind.allCases.count,
          let codeLength = reader.int(1),
          let codeText = reader.take(Int(codeLength)),
          let code = RuleCode(rawValue: String(decoding: codeText, as: UTF8.self)),
          let severity = reader.int(1), Int(severity) < Severity.allCases.count,
          let line = reader.int(8), let column = reader.int(8), let offset = reader.int(8),
          let unlisted = reader.int(4)
        else { return .failure(.damaged) }
        func position(_ bits: UInt64) -> Int? {
          let value = Int64(bitPattern: bits)
          return value == Int64.min ? nil : Int(value)
        }
        findings.append(
          FindingsCache.Finding(
            kind: MemoFileKind.allCases[Int(kind)], code: code, severity: Severity.allCases[Int(severity)],
            location: SourceLocation(
              line: position(line), column: position(column), offset: position(offset)),
            unlisted: Int(unlisted)))
      }
      entries[FindingsCache.Key(high: high, low: low)] = FindingsCache.Entry(
        recordedAt: Double(bitPattern: date), dateSource: [.base, .audio, .mtime][Int(source)],
        durationSeconds: known == 1 ? Double(bitPattern: duration) : nil, cutShort: cut == 1,
        findings: findings)
    }
    guard reader.at == reader.bytes.endIndex else { return .failure(.damaged) }
    return .success(entries)
  }

  /// Why a file's entries cannot be used.
  enum Why: Error, CustomStringConvertible {
    case damaged
    case foreign(String)

    var description: String {
      switch self {
      case .damaged: "is damaged (cut short, or not as it was written)"
      case .foreign(let what): what
      }
    }
  }

  static func put(_ value: UInt64, _ width: Int, _ out: inout [UInt8]) {
    for shift in stride(from: 0, to: width * 8, by: 8) {
      out.append(UInt8(truncatingIfNeeded: value >> shift))
    }
  }

  /// Reads little-endian numbers and runs of bytes, nil past the end (and then nothing more).
  struct Reader {
    let bytes: ArraySlice<UInt8>
    var at: Int

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
      guard count >= 0, count <= bytes.endIndex - at else { return nil }
      defer { at += count }
      return bytes[at..<(at + count)]
    }

    mutating func int(_ width: Int) -> UInt64? {
      guard let run = take(width) else { return nil }
      return run.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
  }
}
