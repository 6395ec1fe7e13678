import Foundation
import StashTestSupport
import Testing

/// A base without a zone is local time (`RecordingDate.localSeconds`), the same every time it is
/// read: checked against Python's zoneinfo every half hour of days around changes of offset, in
/// zones that shift by an hour, by half an hour and by a whole day. (Glibc's `mktime`, used before,
/// answered a repeated time by what it had been asked last.)
@Suite struct LocalTimeTests {
  let stash = Fixtures.product("stash").path

  /// The days: the United States' and Europe's changes in 2026, Lord Howe Island's half-hour
  /// changes, and the day Samoa skipped in 2011; and an ordinary day.
  static let days = [
    "2026-03-08", "2026-03-29", "2026-04-05", "2026-06-15", "2026-10-04", "2026-10-25", "2026-11-01",
    "2011-12-29", "2011-12-30", "2011-12-31",
  ]

  static let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia", "UTC"]

  static var wallTimes: [String] {
    days.flatMap { day in
      (0..<48).map { half in
        day + "T" + String(format: "%02d-%02d-00", half / 2, half % 2 * 30)
      }
    }
  }

  @Test(arguments: zones) func baseTimesAreReadAsTheZoneRulesSay(zone: String) throws {
    #expect(Self.wallTimes.count == 480)
    let folder = try ScratchFolder("stash-local-time")
    defer { folder.remove() }
    let read = try recordedAt(Self.wallTimes, in: folder, zone: zone)

    // Python's zoneinfo reads the same tzdata; `fold=0` is the rule FORMAT.md §1.3 gives: the
    // earlier of a repeated time, and a skipped time read with the offset before the change.
    let script = """
      import sys, datetime, zoneinfo
      zone = zoneinfo.ZoneInfo(sys.argv[1])
      for line in sys.stdin:
          d, t = line.strip().split("T")
          y, mo, da = map(int, d.split("-"))
          h, mi, s = map(int, t.split("-"))
          instant = datetime.datetime(y, mo, da, h, mi, s, tzinfo=zone).astimezone(datetime.timezone.utc)
          print(line.strip(), instant.strftime("%Y-%m-%dT%H:%M:%SZ"))
      """
    let reference = try runProcess(
      "python3", ["-c", script, zone],
      environment: ["TZ": zone, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
      input: Data((Self.wallTimes.joined(separator: "\n") + "\n").utf8))
    #expect(reference.status == 0, "\(reference.standardError)")
    let expected = reference.standardOutput.split(separator: "\n").map { $0.split(separator: " ") }
    #expect(expected.count == Self.wallTimes.count)
    var differences: [String] = []
    for pair in expected where read[String(pair[0])] != String(pair[1]) {
      differences.append("\(pair[0]): zoneinfo \(pair[1]), stash \(read[String(pair[0])] ?? "nothing")")
    }
    #expect(differences.isEmpty, "\(zone): \(differences.prefix(5).joined(separator: "; "))")
  }

  /// A local time that is the instant -1 (one second before 1970 in UTC) is that instant, in the
  /// phone's own form and in another: `mktime` gave -1 for an error too, so it had been refused
  /// unless the base's year was 1969.
  @Test func theSecondBefore1970IsADate() throws {
    let folder = try ScratchFolder("stash-local-time")
    defer { folder.remove() }
    let bases = ["1970-01-01T00-59-59", "19700101T005959", "1969-12-31T23-59-59Z"]
    let read = try recordedAt(bases, in: folder, zone: "Europe/Berlin")
    #expect(read.count == bases.count)
    for base in bases { #expect(read[base] == "1969-12-31T23:59:59Z", "\(base)") }
  }

  /// The `recordedAt` that `stash ls --json` gives each of `bases`, by base, in `zone`: each is
  /// made an empty audio file, which is listed (damaged) with the date its base names.
  func recordedAt(_ bases: [String], in folder: ScratchFolder, zone: String) throws -> [String: String] {
    for base in bases { try Data().write(to: folder.appendingPathComponent(base + "_audio.m4a")) }
    let listing = try runProcess(stash, ["ls", "--json", folder.path], environment: ["TZ": zone])
    #expect(listing.status == 0)
    let memos = try #require(
      try JSONSerialization.jsonObject(with: Data(listing.standardOutput.utf8)) as? [[String: Any]])
    var read: [String: String] = [:]
    for memo in memos {
      read[try #require(memo["base"] as? String)] = memo["recordedAt"] as? String
    }
    return read
  }
}
