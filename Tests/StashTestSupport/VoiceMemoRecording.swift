import Foundation
import StashFormat

/// Recordings as Apple's Voice Memos app writes them, built for tests from any MP4 whose `moov`
/// comes last (ffmpeg's default, and Apple's layout): the movie's `udta/meta/ilst` gets `©nam`,
/// `©too` and the `voice-memo-uuid` item, and the first track gets the transcript, in `udta/tsrp`
/// or (as a `.qta` keeps it) in `meta/keys`+`ilst` under `com.apple.VoiceMemos.tsrp`. Nothing here
/// comes from an Apple file: the layout follows the public descriptions.
public enum VoiceMemoRecording {
  /// Where the transcript goes.
  public enum Place: Sendable {
    /// `moov/trak/udta/tsrp`, as an `.m4a` keeps it.
    case userData
    /// `moov/trak/meta` with `keys` and `ilst`, as a `.qta` keeps it.
    case keyedMetadata
  }

  /// `mp4` with its `moov` rewritten to carry the items given (nil: left out). `largeSizes` writes
  /// the new boxes, and the `moov` itself, with 64-bit sizes.
  public static func dress(
    _ mp4: [UInt8], title: String? = "New Recording", tool: String? = "com.apple.VoiceMemos (iPhone 18.2)",
    uuid: String? = "1A2B3C4D-0000-4000-8000-00000000ABCD", transcript: [UInt8]?, place: Place = .userData,
    largeSizes: Bool = false, creationTime: Double? = defaultCreationTime
  ) -> [UInt8] {
    let boxes = topLevel(mp4)
    guard let moov = boxes.last(where: { $0.type == "moov" }) else { return mp4 }
    func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
      largeSizes
        ? u32(1) + Array(type.utf8) + u64(UInt64(16 + payload.count)) + payload : small(type, payload)
    }
    var children: [[UInt8]] = []
    var addedToTrack = false
    for child in topLevel(Array(mp4[moov.payload..<moov.end])) {
      let bytes = Array(mp4[moov.payload + child.offset..<moov.payload + child.end])
      switch child.type {
      case "udta": continue  // the writer's own items are replaced by Apple's
      case "mvhd" where creationTime != nil:
        // The creation time, seconds since 1904, as the app sets it (ffmpeg leaves 0).
        var header = bytes
        let since1904 = UInt64(creationTime!) + 2_082_844_800
        let at = child.headerSize + 4
        if header[child.headerSize] == 1 {
          header.replaceSubrange(at..<at + 8, with: u64(since1904))
        } else {
          header.replaceSubrange(at..<at + 4, with: u32(UInt32(truncatingIfNeeded: since1904)))
        }
        children.append(header)
      case "trak" where !addedToTrack:
        addedToTrack = true
        guard let transcript else {
          children.append(bytes)
          continue
        }
        let inner = Array(bytes[child.headerSize...])
        let extra: [UInt8]
        switch place {
        case .userData:
          extra = box("udta", box("tsrp", transcript))
        case .keyedMetadata:
          let key = Array("com.apple.VoiceMemos.tsrp".utf8)
          let hdlr = full("hdlr", u32(0) + Array("mdta".utf8) + [UInt8](repeating: 0, count: 13))
          let keys = full("keys", u32(1) + u32(UInt32(8 + key.count)) + Array("mdta".utf8) + key)
          let item = u32(UInt32(8 + 16 + transcript.count)) + u32(1) + data(transcript, type: 0)
          // QuickTime's meta is no full box: its hdlr comes first.
          extra = box("meta", hdlr + keys + box("ilst", item))
        }
        children.append(box("trak", inner + extra))
      default:
        children.append(bytes)
      }
    }
    var items: [UInt8] = []
    if let title { items += small("\u{A9}nam", data(Array(title.utf8))) }
    if let uuid {
      items += small(
        "----",
        full("mean", Array("com.apple.iTunes".utf8)) + full("name", Array("voice-memo-uuid".utf8))
          + data(Array(uuid.utf8)))
    }
    if let tool { items += small("\u{A9}too", data(Array(tool.utf8))) }
    if !items.isEmpty {
      let hdlr = full(
        "hdlr", u32(0) + Array("mdir".utf8) + Array("appl".utf8) + [UInt8](repeating: 0, count: 9))
      children.append(box("udta", full("meta", hdlr + small("ilst", items))))
    }
    return Array(mp4[..<moov.offset]) + box("moov", children.flatMap { $0 }) + Array(mp4[moov.end...])
  }

  /// 2025-06-08T08:30:12Z, seconds since 1970.
  public static let defaultCreationTime: Double? = 1_749_371_412

  /// A file of `seconds` of real AAC (ffmpeg's tone, moov last) dressed as Voice Memos writes it.
  public static func make(
    seconds: Double = 3, title: String? = "New Recording",
    uuid: String? = "1A2B3C4D-0000-4000-8000-00000000ABCD",
    transcript: [UInt8]?, place: Place = .userData
  ) throws -> [UInt8] {
    dress(
      Array(try TestTone.mp4(seconds: seconds, fragmented: false)), title: title, uuid: uuid,
      transcript: transcript, place: place)
  }

  /// The `tsrp` JSON in the interleaved shape, with each run's `timeRange` as given (nil: `{}`).
  public static func interleavedJSON(_ runs: [(String, (Double, Double)?)], locale: String = "en_US")
    -> [UInt8]
  {
    let items = runs.map { "\(quoted($0.0)),\(attributes($0.1))" }.joined(separator: ",")
    return Array(
      "{\"attributedString\":[\(items)],\"locale\":{\"identifier\":\"\(locale)\",\"current\":0}}".utf8)
  }

  /// The `tsrp` JSON in the table shape; runs without a time are written inline as `{}`.
  public static func tableJSON(_ runs: [(String, (Double, Double)?)]) -> [UInt8] {
    var table: [String] = []
    var items: [String] = []
    for (text, range) in runs {
      items.append(quoted(text))
      if let range {
        table.append(attributes(range))
        items.append(String(table.count - 1))
      } else {
        items.append("{}")
      }
    }
    return Array(
      ("{\"attributedString\":{\"runs\":[\(items.joined(separator: ","))],"
        + "\"attributeTable\":[\(table.joined(separator: ","))]},\"locale\":{\"identifier\":\"en_US\"}}").utf8
    )
  }

  static func attributes(_ range: (Double, Double)?) -> String {
    guard let range else { return "{}" }
    return "{\"timeRange\":[\(range.0),\(range.1)]}"
  }

  /// `text` as a JSON string (the one JSON encoder of the package).
  public static func quoted(_ text: String) -> String { JSONValue.string(text).serialized() }

  // MARK: Bytes

  struct Box {
    var type: String
    var offset: Int
    var headerSize: Int
    var end: Int
    var payload: Int { offset + headerSize }
  }

  /// The boxes one after another in `bytes` (sizes 0 and 1 understood).
  static func topLevel(_ bytes: [UInt8]) -> [Box] {
    var boxes: [Box] = []
    var offset = 0
    while offset + 8 <= bytes.count {
      var size = Int(bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
      var header = 8
      if size == 1, offset + 16 <= bytes.count {
        size = Int(bytes[offset + 8..<offset + 16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        header = 16
      } else if size == 0 {
        size = bytes.count - offset
      }
      guard size >= header, offset + size <= bytes.count else { break }
      let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
      boxes.append(Box(type: type, offset: offset, headerSize: header, end: offset + size))
      offset += size
    }
    return boxes
  }

  static func u32(_ v: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * UInt32($0))) }
  }
  static func u64(_ v: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * UInt64($0))) }
  }
  static func small(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    u32(UInt32(8 + payload.count)) + Array(type.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
      + payload
  }
  static func full(_ type: String, _ payload: [UInt8]) -> [UInt8] { small(type, u32(0) + payload) }
  /// A `data` box: type (1, UTF-8, by default), locale, value.
  static func data(_ value: [UInt8], type: UInt32 = 1) -> [UInt8] {
    small("data", u32(type) + u32(0) + value)
  }
}
