/// One attribute of a start tag, as byte ranges the reader feeding `GPXParseState` owns for the
/// length of the event: the name without a prefix, the value with references already replaced.
struct GPXAttribute {
  var name: UnsafeBufferPointer<UInt8>
  var value: UnsafeBufferPointer<UInt8>
}

/// The attributes of a start tag that are in no namespace: GPX's own (`lat`, `lon`, `version`,
/// `creator`, `minlat`...) are never prefixed, so an attribute in a namespace is left out by the
/// reader that feeds the state, whether expat or `GPXScanner`.
struct GPXAttributes {
  let list: UnsafeBufferPointer<GPXAttribute>

  static var none: GPXAttributes { GPXAttributes(list: UnsafeBufferPointer(start: nil, count: 0)) }

  /// The value of the attribute named `wanted`, or nil when the tag has none.
  func value(_ wanted: StaticString) -> UnsafeBufferPointer<UInt8>? {
    let name = UnsafeBufferPointer(start: wanted.utf8Start, count: wanted.utf8CodeUnitCount)
    for attribute in list where attribute.name.elementsEqual(name) { return attribute.value }
    return nil
  }

  /// The value of the attribute named `wanted` as text, or nil when the tag has none.
  func text(_ wanted: StaticString) -> String? {
    value(wanted).map { String(decoding: $0, as: UTF8.self) }
  }
}

/// A reusable room for the attributes a reader hands on, grown as a tag needs; its owner frees it
/// with `deallocate()`.
struct GPXAttributeRoom {
  private var base: UnsafeMutablePointer<GPXAttribute>
  private var capacity: Int
  private(set) var count = 0

  init(capacity: Int = 8) {
    base = .allocate(capacity: capacity)
    self.capacity = capacity
  }

  func deallocate() { base.deallocate() }

  mutating func removeAll() { count = 0 }

  @inline(__always) mutating func append(_ attribute: GPXAttribute) {
    if count == capacity {
      let grown = UnsafeMutablePointer<GPXAttribute>.allocate(capacity: capacity * 2)
      grown.moveInitialize(from: base, count: count)
      base.deallocate()
      base = grown
      capacity *= 2
    }
    (base + count).initialize(to: attribute)
    count += 1
  }

  var attributes: GPXAttributes { GPXAttributes(list: UnsafeBufferPointer(start: base, count: count)) }
}
