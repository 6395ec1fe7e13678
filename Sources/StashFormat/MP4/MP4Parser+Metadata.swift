/// Reading what `moov` says beside the sample tables: the iTunes gapless item and the protection
/// scheme of an encrypted sample entry.
extension MP4Parser {
  /// The `iTunSMPB` item in a `udta`, or nil when there is none that parses.
  mutating func gapless(in udta: MP4BoxHeader) throws(FormatError) -> MP4Gapless? {
    for item in try listItems(in: udta, depth: 2) where item.type == FourCC("----") {
      let (mean, name, text) = try freeformItem(item)
      if mean == "com.apple.iTunes", name == "iTunSMPB" { return MP4Gapless(text: text) }
    }
    return nil
  }

  /// The `meta` boxes directly inside `container` (at `depth`), each with the offset its
  /// children start at: ISO's meta is a full box; QuickTime's is not, and starts straight with
  /// its hdlr.
  mutating func metaBoxes(in container: MP4BoxHeader, depth: Int) throws(FormatError)
    -> [(box: MP4BoxHeader, skip: Int)]
  {
    var found: [(box: MP4BoxHeader, skip: Int)] = []
    for meta in try children(of: container, depth: depth) where meta.type == .meta {
      var probe = try payload(meta, limit: 8)
      found.append((meta, probe.skip(4) && probe.fourCC() == .hdlr ? 0 : 4))
    }
    return found
  }

  /// The items of every `meta/ilst` inside `container` (a `udta`, at `depth`).
  mutating func listItems(in container: MP4BoxHeader, depth: Int) throws(FormatError) -> [MP4BoxHeader] {
    var items: [MP4BoxHeader] = []
    for (meta, skip) in try metaBoxes(in: container, depth: depth) {
      for list in try children(of: meta, skipping: skip, depth: depth + 1) where list.type == .ilst {
        items += try children(of: list, depth: depth + 2)
      }
    }
    return items
  }

  /// One `----` item: its `mean`, `name` and `data` as text (such as com.apple.iTunes/iTunSMPB).
  mutating func freeformItem(_ item: MP4BoxHeader) throws(FormatError) -> (
    mean: String, name: String, value: String
  ) {
    var mean = "", name = "", text = ""
    for child in try children(of: item, depth: 5) {
      // mean and name are full boxes; data has a type and a locale before its value.
      var r = try payload(child, limit: 1024)
      guard r.skip(child.type == FourCC("data") ? 8 : 4), let value = r.take(r.remaining) else { continue }
      let string = String(decoding: value, as: UTF8.self)
      switch child.type {
      case FourCC("mean"): mean = string
      case FourCC("name"): name = string
      case FourCC("data"): text = string
      default: break
      }
    }
    return (mean, name, text)
  }

  /// The scheme an `enca` sample entry's `sinf`/`schm` names (such as `cenc` or `cbcs`), or nil.
  mutating func protectionScheme(_ entry: MP4BoxHeader) throws(FormatError) -> String? {
    var fields = try payload(entry, limit: 28)
    guard fields.skip(8), let soundVersion = fields.uint16() else { return nil }
    let extra = soundVersion == 1 ? 16 : soundVersion == 2 ? 36 : 0
    for sinf in try children(of: entry, skipping: 28 + extra, depth: 7) where sinf.type == .sinf {
      for schm in try children(of: sinf, depth: 8) where schm.type == .schm {
        var r = try payload(schm, limit: 12)
        guard r.versionAndFlags() != nil, let scheme = r.fourCC() else { continue }
        return "\(scheme)"
      }
    }
    return nil
  }
}
