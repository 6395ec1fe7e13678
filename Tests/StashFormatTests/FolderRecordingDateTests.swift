import StashFormat
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct FolderRecordingDateTests {
  // 2026-03-14T08:05:12Z
  let instant = 1_773_475_512.0

  @Test func isoWithAZoneIsExact() {
    #expect(RecordingDate.parse(base: "2026-03-14T08-05-12Z") == instant)
    #expect(RecordingDate.parse(base: "2026-03-14T08.05.12Z") == instant)
    #expect(RecordingDate.parse(base: "2026-03-14T08:05:12Z") == instant)
    #expect(RecordingDate.parse(base: "2026-03-14T09-05-12+01-00") == instant)
    #expect(RecordingDate.parse(base: "2026-03-14T09-05-12+0100") == instant)
    #expect(RecordingDate.parse(base: "2026-03-14T09-05-12+01:00") == instant)
    #expect(RecordingDate.parse(base: "2026-03-14T03-05-12-05-00") == instant)
    #expect(RecordingDate.parse(base: "2026-03-14T03-05-12-05") == instant)
    #expect(RecordingDate.parse(base: "20260314T080512Z") == instant)
    #expect(RecordingDate.parse(base: "2026-03-14T08-05-12.250Z") == instant + 0.25)
    #expect(RecordingDate.parse(base: "2026-03-14T08-05-12,5Z") == instant + 0.5)
    #expect(RecordingDate.parse(base: "2026-03-14T08-05-12Z walk to the station") == instant)
  }

  @Test func withoutAZoneIsLocalTime() {
    let local = RecordingDate.parse(base: "2026-03-14T08-05-12")
    #expect(local != nil)
    #expect(RecordingDate.parse(base: "20260314 080512") == local)
    #expect(RecordingDate.parse(base: "20260314_080512") == local)
    #expect(RecordingDate.parse(base: "20260314-080512") == local)
    #expect(RecordingDate.parse(base: "2026-03-14 08.05.12") == local)
    #expect(RecordingDate.parse(base: "2026-03-14_08-05-12_walk") == local)
    // Read back in local time, it is the wall clock the base names.
    #expect(local.map(RecordingDate.localMinute) == "2026-03-14 08:05")
    #expect(RecordingDate.parse(base: "2026-03-14T08-05") == local.map { $0 - 12 })
  }

  @Test func rejectsWhatIsNotATimestamp() {
    for base in [
      "memo", "2026-03-14", "2026-13-14T08-05-12", "2026-02-30T08-05-12", "2026-03-14T24-05-12",
      "2026-03-14T08-61-12", "20260314080512", "2026-03-14T08-05-12walk", "2026-3-14T08-05-12",
      "26-03-14T08-05-12", "",
    ] {
      #expect(RecordingDate.parse(base: base) == nil, "\(base)")
    }
    #expect(RecordingDate.parse(base: "2024-02-29T00-00-00Z") != nil)
    #expect(RecordingDate.parse(base: "2025-02-29T00-00-00Z") == nil)
  }

  @Test func formats() {
    #expect(RecordingDate.isoUTC(instant) == "2026-03-14T08:05:12Z")
    #expect(RecordingDate.isoUTC(instant + 0.25) == "2026-03-14T08:05:12.250Z")
  }

  @Test func plausibleAudioTimes() {
    let now = instant
    #expect(RecordingDate.isPlausible(instant - 86_400 * 365, now: now))
    #expect(!RecordingDate.isPlausible(0, now: now))
    #expect(!RecordingDate.isPlausible(-2_082_844_800, now: now))  // an mvhd time of 0 (1904)
    #expect(!RecordingDate.isPlausible(now + 2 * 86_400, now: now))
    #expect(RecordingDate.isPlausible(now + 3600, now: now))
  }
}

/// The one conversion of an instant to calendar fields, and the years it writes: padded to four
/// digits in local time and in UTC alike.
@Suite struct RecordingDateCalendarTests {
  // 0999-07-01T12:00:00Z: mid-year and mid-day, so the year is 999 in every zone.
  let year999 = -30_626_078_400.0

  @Test func aYearBelowAThousandIsPaddedInUTCAndLocalTime() {
    #expect(RecordingDate.isoUTC(year999) == "0999-07-01T12:00:00Z")
    #expect(RecordingDate.localMinute(year999).hasPrefix("0999-07-0"))
    #expect(RecordingDate.localSecond(year999).hasPrefix("0999-07-0"))
    #expect(RecordingDate.isoLocal(year999).hasPrefix("0999-07-0"))
    #expect(RecordingDate.base(utc: year999) == "0999-07-01T12-00-00Z")
  }

  @Test func theCalendarIsLocalOrUTCAsAsked() throws {
    let utc = try #require(RecordingDate.calendar(time_t(year999), local: false))
    #expect(utc.tm_year + 1900 == 999)
    #expect(utc.tm_mon == 6 && utc.tm_mday == 1 && utc.tm_hour == 12 && utc.tm_gmtoff == 0)
    let local = try #require(RecordingDate.calendar(time_t(year999), local: true))
    // The local wall clock is UTC moved by the zone's offset, whatever the zone.
    let wall =
      (Int(local.tm_mday) - 1) * 86_400 + Int(local.tm_hour) * 3600 + Int(local.tm_min) * 60
      + Int(local.tm_sec)
    #expect(wall - Int(local.tm_gmtoff) == 12 * 3600)
    #expect(RecordingDate.calendar(time_t.max, local: false) == nil)
  }

  @Test func writesTheTimesOfDayAndSecondsItIsAskedFor() {
    // 2026-03-14T08:05:02Z
    #expect(RecordingDate.utcClock(1_773_475_502) == "08:05:02")
    #expect(RecordingDate.utcClock(0) == "00:00:00")
    let local = RecordingDate.parse(base: "2026-03-04T08-05-02")
    #expect(local.map(RecordingDate.localSecond) == "2026-03-04T08:05:02")
  }
}
