#if canImport(Glibc)
  import Glibc
#endif

/// A small drawing of a route in braille dots (2 x 4 dots per cell), each segment drawn on its own
/// so a gap in the recording shows as a gap in the line.
package enum BrailleSketch {
  /// `rows` lines of `columns` cells showing `segments` of (latitude, longitude) points.
  package static func draw(_ segments: [[(Double, Double)]], columns: Int, rows: Int) -> [String] {
    let dotsX = columns * 2
    let dotsY = rows * 4
    guard columns > 0, rows > 0 else { return [] }
    let all = segments.flatMap { $0 }
    guard let first = all.first else { return [] }
    var minLat = first.0
    var maxLat = first.0
    var minLon = first.1
    var maxLon = first.1
    for (lat, lon) in all {
      minLat = min(minLat, lat)
      maxLat = max(maxLat, lat)
      minLon = min(minLon, lon)
      maxLon = max(maxLon, lon)
    }
    // Equirectangular: a degree of longitude is cos(latitude) of a degree of latitude.
    let xScale = cos((minLat + maxLat) / 2 * Double.pi / 180)
    let spanX = max((maxLon - minLon) * xScale, 1e-9)
    let spanY = max(maxLat - minLat, 1e-9)
    // Keep the aspect: a cell is about twice as tall as wide, and so is the 2x4 dot block.
    let scale = min(Double(dotsX - 1) / spanX, Double(dotsY - 1) / spanY)
    let offsetX = (Double(dotsX - 1) - spanX * scale) / 2
    let offsetY = (Double(dotsY - 1) - spanY * scale) / 2
    var dots = [Bool](repeating: false, count: dotsX * dotsY)
    func plot(_ x: Int, _ y: Int) {
      if x >= 0, x < dotsX, y >= 0, y < dotsY { dots[y * dotsX + x] = true }
    }
    func project(_ p: (Double, Double)) -> (Int, Int) {
      let x = ((p.1 - minLon) * xScale * scale + offsetX).rounded()
      let y = (Double(dotsY - 1) - ((p.0 - minLat) * scale + offsetY)).rounded()
      return (Int(x), Int(y))
    }
    for segment in segments {
      var previous: (Int, Int)?
      for point in segment {
        let q = project(point)
        if let p = previous { line(from: p, to: q, plot: plot) } else { plot(q.0, q.1) }
        previous = q
      }
    }
    // Dot bits of a braille cell, by (column, row) inside the 2x4 block.
    let bits: [[UInt32]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]
    var lines: [String] = []
    for row in 0..<rows {
      var text = ""
      for column in 0..<columns {
        var mask: UInt32 = 0
        for dx in 0..<2 {
          for dy in 0..<4 where dots[(row * 4 + dy) * dotsX + column * 2 + dx] {
            mask |= bits[dx][dy]
          }
        }
        text.unicodeScalars.append(Unicode.Scalar(0x2800 + mask)!)
      }
      lines.append(text)
    }
    return lines
  }

  /// Bresenham's line.
  private static func line(from a: (Int, Int), to b: (Int, Int), plot: (Int, Int) -> Void) {
    var x = a.0
    var y = a.1
    let dx = abs(b.0 - a.0)
    let dy = -abs(b.1 - a.1)
    let sx = a.0 < b.0 ? 1 : -1
    let sy = a.1 < b.1 ? 1 : -1
    var err = dx + dy
    while true {
      plot(x, y)
      if x == b.0 && y == b.1 { break }
      let e2 = 2 * err
      if e2 >= dy {
        err += dy
        x += sx
      }
      if e2 <= dx {
        err += dx
        y += sy
      }
    }
  }
}
