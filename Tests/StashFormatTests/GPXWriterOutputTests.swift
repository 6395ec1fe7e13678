import Testing

@testable import StashFormat

/// The writer's byte-level number and time formatting must print exactly what the general
/// formatters print, so that writing through bytes changes no file.
@Suite struct GPXWriterOutputTests {
  func decimal(_ value: Double) -> String {
    var out = GPXWriter.Output()
    out.decimal(value)
    return String(decoding: out.bytes, as: UTF8.self)
  }

  func time(_ seconds: Double, zone: Bool) -> String {
    var out = GPXWriter.Output()
    out.time(seconds, zone: zone)
    return String(decoding: out.bytes, as: UTF8.self)
  }

  @Test func decimalsMatchTheGeneralFormatter() {
    var values: [Double] = [
      0, -0.0, 1, -1, 0.1, 0.2, 0.3, 1.5, 10, 100, 9.95, 99.99999999, 1e-5, 1.25e-7, 0.000123, 123456789.123,
      1e15, 1e16, 1e22, 1e-300, 5e-324, .greatestFiniteMagnitude, -180, 180, 89.9999999, 0.30000000000000004,
      4_503_599_627_370_496.5, 9_007_199_254_740_993, 1.0000000000000002, 12345.678901234567,
    ]
    var random = SystemRandomNumberGenerator()
    for places in 0...12 {
      let scale = (0..<places).reduce(1.0) { value, _ in value * 10 }
      for _ in 0..<2_000 {
        let whole = Double(Int64.random(in: -2_000_000_000...2_000_000_000, using: &random))
        values.append(whole / scale)
        values.append(Double.random(in: -1000...1000, using: &random))
      }
    }
    for _ in 0..<20_000 {
      let bits = UInt64.random(in: 0...UInt64.max, using: &random)
      let value = Double(bitPattern: bits)
      if value.isFinite { values.append(value) }
    }
    for value in values {
      #expect(decimal(value) == DecimalText.format(value), "\(value)")
    }
  }

  @Test func timesMatchTheGeneralFormatter() {
    var values: [Double] = [
      0, -1, -0.5, 1_775_034_000, 1_775_034_000.667, 1_775_034_000.000001, 951_782_400, -62_135_596_800,
    ]
    var random = SystemRandomNumberGenerator()
    for _ in 0..<5_000 {
      values.append(Double.random(in: -70_000_000_000...70_000_000_000, using: &random))
      values.append(
        Double(Int.random(in: 0...4_000_000_000, using: &random)) + Double(Int.random(in: 0..<1000)) / 1000)
    }
    for value in values {
      for zone in [true, false] {
        #expect(time(value, zone: zone) == ISO8601Time.format(value, zone: zone), "\(value)")
      }
    }
  }
}
