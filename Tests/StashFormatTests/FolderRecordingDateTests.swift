import StashFormat
import Testing

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
