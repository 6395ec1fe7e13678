import StashFormat

/// The byte surgery that makes a fragmented MP4 cut short by a kill end at its last whole sample:
/// a torn box at the end is dropped, and when the cut fell inside the last fragment's media data
/// that fragment is rewritten to hold only its whole samples (its `trun` sample count, entries and
/// data offset, and the `traf`, `moof` and `mdat` sizes). Pure: bytes in, bytes out.
public enum TornTailRepair {
  /// The repaired file and what was done.
  public struct Outcome: Sendable, Equatable {
    /// The repaired file.
    public var bytes: [UInt8]
    /// Samples of the torn fragment kept (0 when the fragment was dropped or untouched).
    public var keptFromTornFragment: Int
    /// What was done, in plain words.
    public var detail: String
    /// The same in the conditional, for a dry run: what would be done.
    public var wouldDetail: String

    /// An outcome whose words are `verb` (past; `wouldVerb` in the conditional) then `rest`.
    init(bytes: [UInt8], keptFromTornFragment: Int, verb: String, wouldVerb: String, rest: String) {
      self.bytes = bytes
      self.keptFromTornFragment = keptFromTornFragment
      self.detail = verb + " " + rest
      self.wouldDetail = wouldVerb + " " + rest
    }
  }

  /// Repairs `bytes`, whose whole samples are `samples` (from `MP4Audio`); nil when the file does
  /// not end torn. Throws code `repair-unsupported` for a layout this does not rewrite.
  public static func repair(_ bytes: [UInt8], samples: [AudioSample]) throws -> Outcome? {
    var boxes: [MP4BoxHeader] = []
    var offset = 0
    var torn: Int?
    while offset < bytes.count {
      guard let box = header(bytes, at: offset, end: bytes.count) else {
        torn = offset
        break
      }
      boxes.append(box)
      if box.end > bytes.count {
        torn = offset
        break
      }
      offset = box.end
    }
    guard let tornAt = torn else { return nil }
    let complete = boxes.filter { $0.end <= bytes.count }
    let tornBox = boxes.last.flatMap { $0.offset == tornAt ? $0 : nil }

    if tornBox?.type == .mdat, let moof = complete.last, moof.type == .moof, moof.end == tornAt {
      return try rewrite(bytes, moof: moof, mdat: tornBox!, samples: samples)
    }
    // A moof whose mdat never started is as good as torn: its samples are not on disk.
    var cut = tornAt
    if let last = complete.last, last.type == .moof, last.end == tornAt { cut = last.offset }
    let what = tornBox.map { "a torn \($0.type) box" } ?? "a torn box header"
    return Outcome(
      bytes: Array(bytes[0..<cut]), keptFromTornFragment: 0,
      verb: "removed", wouldVerb: "would remove",
      rest: "\(bytes.count - cut) bytes at the end (\(what)\(cut < tornAt ? " and the moof before it" : ""))")
  }

  /// Rewrites the last fragment to hold the whole samples of its torn media data.
  static func rewrite(
    _ bytes: [UInt8], moof: MP4BoxHeader, mdat: MP4BoxHeader, samples: [AudioSample]
  ) throws -> Outcome {
    let payload = mdat.payloadOffset
    let kept = samples.filter { $0.offset >= payload && $0.offset + $0.size <= bytes.count }
    guard let lastEnd = kept.map({ $0.offset + $0.size }).max(), kept.first?.offset == payload else {
      return Outcome(
        bytes: Array(bytes[0..<moof.offset]), keptFromTornFragment: 0,
        verb: "removed", wouldVerb: "would remove",
        rest: "the last fragment (\(bytes.count - moof.offset) bytes): none of its samples was whole")
    }
    let children = boxesInside(bytes, moof)
    let trafs = children.filter { $0.type == .traf }
    guard trafs.count == 1, let traf = trafs.first else {
      throw unsupported("the torn fragment has \(trafs.count) track fragments")
    }
    let trafChildren = boxesInside(bytes, traf)
    let truns = trafChildren.filter { $0.type == .trun }
    guard truns.count == 1, let trun = truns.first, trun.headerSize == 8, traf.headerSize == 8,
      moof.headerSize == 8
    else {
      throw unsupported("the torn fragment's track fragment has \(truns.count) sample runs")
    }
    let flags = Int(be32(bytes, trun.offset + 8) & 0xFF_FFFF)
    let count = Int(be32(bytes, trun.offset + 12))
    guard flags & 0x1 != 0 else { throw unsupported("the torn fragment's sample run has no data offset") }
    var entries = trun.offset + 16 + 4
    if flags & 0x4 != 0 { entries += 4 }
    let entrySize = 4 * [0x100, 0x200, 0x400, 0x800].filter { flags & $0 != 0 }.count
    guard kept.count <= count, entries + count * entrySize <= trun.end else {
      throw unsupported("the torn fragment's sample run does not match its samples")
    }
    let removed = (count - kept.count) * entrySize
    var newMoof =
      Array(bytes[moof.offset..<(entries + kept.count * entrySize)]) + Array(bytes[trun.end..<moof.end])
    func relative(_ absolute: Int) -> Int { absolute - moof.offset }
    put32(&newMoof, relative(moof.offset), UInt32(moof.size - removed))
    put32(&newMoof, relative(traf.offset), UInt32(traf.size - removed))
    put32(&newMoof, relative(trun.offset), UInt32(trun.size - removed))
    put32(&newMoof, relative(trun.offset + 12), UInt32(kept.count))
    // The media data now starts earlier by what the moof lost and any shorter mdat header.
    let newPayload = moof.offset + newMoof.count + 8
    let shift = payload - newPayload
    let dataOffset = Int32(bitPattern: be32(bytes, trun.offset + 16))
    put32(&newMoof, relative(trun.offset + 16), UInt32(bitPattern: dataOffset - Int32(shift)))
    let media = Array(bytes[payload..<lastEnd])
    var mdatHeader = [UInt8](repeating: 0, count: 8)
    put32(&mdatHeader, 0, UInt32(8 + media.count))
    mdatHeader[4...7] = [0x6D, 0x64, 0x61, 0x74]  // "mdat"
    let out = Array(bytes[0..<moof.offset]) + newMoof + mdatHeader + media
    return Outcome(
      bytes: out, keptFromTornFragment: kept.count,
      verb: "rewrote", wouldVerb: "would rewrite",
      rest: "the last fragment to hold its \(kept.count) whole samples of \(count) "
        + "(\(bytes.count - out.count) bytes fewer: the torn sample and the index entries of those never written)"
    )
  }

  static func unsupported(_ why: String) -> RecoverError {
    RecoverError(
      code: .repairUnsupported, message: "cannot repair this layout: \(why); the file is left as it is")
  }

  /// The box header at `offset`, read as StashFormat's readers read it, or nil when fewer bytes
  /// than a header remain or it is malformed. A box may run past `end` (a torn tail).
  static func header(_ bytes: [UInt8], at offset: Int, end: Int) -> MP4BoxHeader? {
    guard case .header(let box) = MP4BoxHeader.parse(bytes, at: offset, offset: offset, containerEnd: end)
    else { return nil }
    return box
  }

  /// The child boxes of a complete container box.
  static func boxesInside(_ bytes: [UInt8], _ box: MP4BoxHeader) -> [MP4BoxHeader] {
    var children: [MP4BoxHeader] = []
    var offset = box.payloadOffset
    while let child = header(bytes, at: offset, end: box.end), child.end <= box.end {
      children.append(child)
      offset = child.end
    }
    return children
  }

  static func be32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
  }

  static func put32(_ bytes: inout [UInt8], _ at: Int, _ value: UInt32) {
    bytes[at] = UInt8(value >> 24)
    bytes[at + 1] = UInt8(value >> 16 & 0xFF)
    bytes[at + 2] = UInt8(value >> 8 & 0xFF)
    bytes[at + 3] = UInt8(value & 0xFF)
  }
}
