import StashFormat
import StashRecover
import Testing

/// The reason a route part is damaged names where: the line and column the GPX reader stopped at,
/// so a person can open the part there.
@Suite struct RouteDamageTests {
  /// A GPX 1.1 route part of `count` points a second apart from `start`, one element a line.
  static func part(first: Int, count: Int) -> String {
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<gpx version="1.1" creator="stash tests" xmlns="http://www.topografix.com/GPX/1/1">"#,
      "<trk>", "<trkseg>",
    ]
    for index in first..<(first + count) {
      let seconds = index % 60
      lines.append(
        #"<trkpt lat="51.50\#(index)" lon="-0.12\#(index)"><time>2026-04-03T09:00:"#
          + (seconds < 10 ? "0" : "") + "\(seconds)Z</time></trkpt>")
    }
    lines += ["</trkseg>", "</trk>", "</gpx>", ""]
    return lines.joined(separator: "\n")
  }

  @Test func aTornPartNamesTheLineItWasCutAt() throws {
    let whole = Self.part(first: 0, count: 5)
    // Cut part 2 in the middle of its seventh line (its third point), as a kill mid-write leaves it.
    let lines = Self.part(first: 5, count: 5).split(separator: "\n", omittingEmptySubsequences: false)
    let torn = lines[..<6].joined(separator: "\n") + "\n" + lines[6].prefix(20)
    let assembly = RouteAssembler.assemble([
      Part(number: 1, bytes: Array(whole.utf8)), Part(number: 2, bytes: Array(torn.utf8)),
    ])
    #expect(assembly.items == 7, "five points, then the two before the cut")
    let damage = try #require(assembly.damage.first)
    #expect(damage.number == 2)
    #expect(
      damage.reason.hasPrefix("torn: 2 points read before the damage (damaged at line 7, column "),
      "\(damage.reason)")
  }

  @Test func anUnreadablePartNamesTheLineToo() throws {
    let broken =
      "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"></trk>\n"
    let assembly = RouteAssembler.assemble([Part(number: 1, bytes: Array(broken.utf8))])
    let damage = try #require(assembly.damage.first)
    #expect(
      damage.reason.hasPrefix("not a readable GPX file (damaged at line 4, column "), "\(damage.reason)")
  }
}
