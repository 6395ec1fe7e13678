/// Reading what Apple's Voice Memos app writes into a recording's `moov`: the items of
/// `moov/udta/meta/ilst` (`©nam`, `©too`, the `voice-memo-uuid` freeform item) and where the
/// first audio track keeps its transcript (`trak/udta/tsrp`, or in a `.qta` the track's
/// `meta/keys`+`ilst` item under `com.apple.VoiceMemos.tsrp`).
extension MP4Parser {
  /// The key of the transcript item in a `.qta` track's keyed metadata.
  static let transcriptKey = "com.apple.VoiceMemos.tsrp"
  /// `©nam` (the first byte is 0xA9, outside ASCII).
  static let titleItem = FourCC(0xA96E_616D)
  /// `©too`.
  static let toolItem = FourCC(0xA974_6F6F)

  /// Fills `items` from the movie-level `udta`.
  mutating func voiceMemoItems(in udta: MP4BoxHeader, into items: inout VoiceMemoItems) throws(FormatError) {
    for item in try listItems(in: udta, depth: 2) {
      switch item.type {
      case Self.titleItem: items.title = try dataText(of: item) ?? items.title
      case Self.toolItem: items.tool = try dataText(of: item) ?? items.tool
      case FourCC("----"):
        let (mean, name, value) = try freeformItem(item)
        if mean == "com.apple.iTunes", name == "voice-memo-uuid", !value.isEmpty { items.uuid = value }
      default: break
      }
    }
  }

  /// The text of an item's first `data` box (type and locale skipped), or nil.
  private mutating func dataText(of item: MP4BoxHeader) throws(FormatError) -> String? {
    for child in try children(of: item, depth: 5) where child.type == FourCC("data") {
      var r = try payload(child, limit: 4096)
      guard r.skip(8), let value = r.take(r.remaining) else { continue }
      return String(decoding: value, as: UTF8.self)
    }
    return nil
  }

  /// Where the track `trak` keeps its transcript: the payload of `udta/tsrp`, else the value of
  /// the keyed item `com.apple.VoiceMemos.tsrp` in its `meta` (directly or inside its `udta`).
  mutating func transcriptPlace(in trak: MP4BoxHeader) throws(FormatError) -> VoiceMemoItems.TranscriptPlace?
  {
    var keyed: VoiceMemoItems.TranscriptPlace?
    for box in try children(of: trak, depth: 2) {
      switch box.type {
      case .udta:
        for child in try children(of: box, depth: 3) where child.type == FourCC("tsrp") {
          return try unwrapped(child, path: "moov/trak/udta/tsrp")
        }
        if keyed == nil { keyed = try keyedTranscript(in: box, depth: 3, path: "moov/trak/udta/meta") }
      case .meta:
        if keyed == nil { keyed = try keyedTranscript(in: trak, depth: 2, path: "moov/trak/meta") }
      default: break
      }
    }
    return keyed
  }

  /// The `tsrp` payload: the JSON itself, or (as some writers do) a `data` box holding it.
  private mutating func unwrapped(_ box: MP4BoxHeader, path: String) throws(FormatError)
    -> VoiceMemoItems.TranscriptPlace
  {
    var probe = try payload(box, limit: 8)
    if probe.skip(4), probe.fourCC() == FourCC("data"),
      case .header(let data) = try window.header(at: box.payloadOffset, containerEnd: box.end),
      data.end <= box.end, data.payloadSize >= 8
    {
      return .init(
        path: path + "/data", boxOffset: box.offset, offset: data.payloadOffset + 8,
        size: data.payloadSize - 8)
    }
    return .init(path: path, boxOffset: box.offset, offset: box.payloadOffset, size: box.payloadSize)
  }

  /// The value of the item keyed `com.apple.VoiceMemos.tsrp` in the `meta` boxes of `container`.
  private mutating func keyedTranscript(in container: MP4BoxHeader, depth: Int, path: String)
    throws(FormatError) -> VoiceMemoItems.TranscriptPlace?
  {
    for (meta, skip) in try metaBoxes(in: container, depth: depth) {
      let boxes = try children(of: meta, skipping: skip, depth: depth + 1)
      guard let keys = boxes.first(where: { $0.type == FourCC("keys") }),
        let index = try keyIndex(keys, named: Self.transcriptKey)
      else { continue }
      for list in boxes where list.type == .ilst {
        for item in try children(of: list, depth: depth + 2) where item.type.value == index {
          for data in try children(of: item, depth: depth + 3) where data.type == FourCC("data") {
            guard data.payloadSize >= 8 else { continue }
            return .init(
              path: path + "/ilst (\(Self.transcriptKey))", boxOffset: data.offset,
              offset: data.payloadOffset + 8,
              size: data.payloadSize - 8)
          }
        }
      }
    }
    return nil
  }

  /// The 1-based index of `name` in a `keys` box (full box, count, then size+namespace+name).
  private mutating func keyIndex(_ keys: MP4BoxHeader, named name: String) throws(FormatError) -> UInt32? {
    var r = try payload(keys, limit: 1 << 20)
    guard r.versionAndFlags() != nil, let count = r.uint32() else { return nil }
    var index: UInt32 = 0
    while index < count, let size = r.uint32(), size >= 8, r.skip(4), let key = r.take(Int(size) - 8) {
      index += 1
      if key.elementsEqual(name.utf8) { return index }
    }
    return nil
  }
}
