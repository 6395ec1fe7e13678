extension GPXWriter {
  /// The bytes being written, with the few ways the writer appends to them: fixed markup, two
  /// spaces of indent per level, numbers and escaped text. Appends go through one pointer into
  /// memory this value owns (grown by doubling), so a fragment costs a copy, not an `Array`
  /// append per byte; numbers are formatted in place.
  struct Output: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far.
    private(set) var count = 0

    init(capacity: Int = 256) {
      self.capacity = max(capacity, 64)
      start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// What has been written, as an array.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

    /// Room for `extra` more bytes; returns where they go. The caller adds what it wrote to `count`.
    @inline(__always) private mutating func room(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
      if count + extra > capacity { grow(count + extra) }
      return start + count
    }

    private mutating func grow(_ needed: Int) {
      var newCapacity = capacity * 2
      while newCapacity < needed { newCapacity *= 2 }
      let newStart = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
      newStart.initialize(from: start, count: count)
      start.deallocate()
      start = newStart
      capacity = newCapacity
    }

    @inline(__always) private mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
      guard let base = source.baseAddress else { return }
      room(source.count).initialize(from: base, count: source.count)
      count += source.count
    }

    @inline(__always) mutating func byte(_ value: UInt8) {
      room(1).pointee = value
      count += 1
    }

    /// Fixed markup. There is deliberately no `String` overload: a literal would pick it (a
    /// string literal's default type is `String`) and pay for building a string per fragment.
    @inline(__always) static func += (out: inout Output, text: StaticString) {
      text.withUTF8Buffer { out.append($0) }
    }

    /// Two spaces per level.
    @inline(__always) mutating func indent(_ depth: Int) {
      let width = depth * 2
      guard width > 0 else { return }
      room(width).initialize(repeating: UInt8(ascii: " "), count: width)
      count += width
    }

    /// `DecimalText.format(value)`: the shortest text that reads back as `value`, no exponent.
    /// A phone's numbers (coordinates to seven places, elevations, speeds) take the fast path: the
    /// fewest decimal places `k` for which the nearest `n / 10^k` reads back as `value`, when
    /// `10^-k` is wider than the value's rounding interval, so that this `n` is the only
    /// `k`-place number that reads back and therefore the shortest form the standard library
    /// prints. Anything else goes through `DecimalText.format`.
    mutating func decimal(_ value: Double) {
      let magnitude = value.magnitude
      if magnitude > 0, magnitude < 1e15 {
        let interval = magnitude.ulp * 2
        var scale = 1.0
        for places in 0...9 {
          let scaled = magnitude * scale
          guard scaled < 9e15, interval * scale < 1 else { break }
          // `scaled.rounded()` (half away from zero) without a call into libm: below 2^53 the
          // fraction `scaled - truncated` is exact, so comparing it with 0.5 rounds the same way.
          // Signed conversions are one instruction each way on x86-64; unsigned ones are not.
          var whole = Int64(scaled)
          if scaled - Double(whole) >= 0.5 { whole += 1 }
          if Double(whole) / scale == magnitude {
            if value < 0 { byte(UInt8(ascii: "-")) }
            fixedPoint(UInt64(whole), places: places)
            return
          }
          scale *= 10
        }
      }
      append(DecimalText.format(value))
    }

    /// `whole / 10^places` in plain decimal, without trailing zeros after the point: the digits
    /// are written from the last, with the point after `places` of them and a leading `0` when
    /// nothing is left before it.
    mutating func fixedPoint(_ whole: UInt64, places: Int) {
      var number = whole
      var places = places
      while places > 0, number % 10 == 0 {
        number /= 10
        places -= 1
      }
      var digits = 1
      var power: UInt64 = 10
      while digits < 20 && number >= power {
        digits += 1
        power &*= 10
      }
      var rest = number
      let shown = max(digits, places + 1)
      let length = shown + (places > 0 ? 1 : 0)
      let to = room(length)
      var index = length
      for written in 0..<shown {
        if written == places && places > 0 {
          index -= 1
          to[index] = UInt8(ascii: ".")
        }
        index -= 1
        to[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
      }
      count += length
    }

    /// The text's UTF-8, copied in one piece.
    mutating func append(_ text: String) {
      var text = text
      text.withUTF8 { append($0) }
    }

    /// `ISO8601Time.format(seconds, zone:)`, written as bytes: the same fields (microseconds at most,
    /// trailing zeros dropped), without the small strings the general formatter builds per field.
    mutating func time(_ seconds: Double, zone: Bool) {
      let (year, month, day, rest, fraction) = ISO8601Time.fields(seconds)
      var micros = fraction
      if year < 0 { byte(UInt8(ascii: "-")) }
      padded(abs(year), 4)
      // "-MM-DDThh:mm:ss" in one piece: fifteen bytes, the separators fixed.
      let to = room(15)
      to[0] = UInt8(ascii: "-")
      two(month, at: to + 1)
      to[3] = UInt8(ascii: "-")
      two(day, at: to + 4)
      to[6] = UInt8(ascii: "T")
      two(rest / 3600, at: to + 7)
      to[9] = UInt8(ascii: ":")
      two(rest / 60 % 60, at: to + 10)
      to[12] = UInt8(ascii: ":")
      two(rest % 60, at: to + 13)
      count += 15
      if micros > 0 {
        var digits = 6
        while micros % 10 == 0 {
          micros /= 10
          digits -= 1
        }
        byte(UInt8(ascii: "."))
        padded(micros, digits)
      }
      if zone { byte(UInt8(ascii: "Z")) }
    }

    /// A value in 0...99 as two digits at `to`.
    @inline(__always) private func two(_ value: Int, at to: UnsafeMutablePointer<UInt8>) {
      to[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
      to[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
    }

    /// `value` (not negative) in decimal, zero-padded to `width` digits.
    mutating func padded(_ value: Int, _ width: Int) {
      var digits = 1
      var rest = value / 10
      while rest > 0 {
        digits += 1
        rest /= 10
      }
      let length = max(digits, width)
      let to = room(length)
      rest = value
      for index in stride(from: length - 1, through: 0, by: -1) {
        to[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
      }
      count += length
    }

    /// `GPXWriter.escaped(text, attribute:)`: text with nothing to escape (printable ASCII and
    /// UTF-8 beyond it, no markup character) is copied as it is.
    mutating func escaped(_ text: String, attribute: Bool) {
      let plain = text.utf8.allSatisfy { byte in
        byte >= 0x20 && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<") && byte != UInt8(ascii: ">")
          && byte != UInt8(ascii: "\"") && byte != 0xEF
      }
      append(plain ? text : GPXWriter.escaped(text, attribute: attribute))
    }
  }
}
