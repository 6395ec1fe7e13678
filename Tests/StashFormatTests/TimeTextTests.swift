import StashFormat
import Testing

@Suite struct TimeTextTests {
  @Test func readsWhatPeopleType() {
    #expect(TimeText.seconds("83") == 83)
    #expect(TimeText.seconds("1:23") == 83)
    #expect(TimeText.seconds("1:02:03") == 3723)
    #expect(TimeText.seconds("1:23.5") == 83.5)
    #expect(TimeText.seconds("1:75") == nil)
    #expect(TimeText.seconds("") == nil)
    #expect(TimeText.seconds("a:b") == nil)
    #expect(TimeText.seconds("1.5:00") == nil)
    #expect(TimeText.seconds("-3") == nil)
  }

  @Test func writesClockTimes() {
    #expect(TimeText.clock(83.9) == "1:23")
    #expect(TimeText.clock(3723) == "1:02:03")
    #expect(TimeText.clock(.nan) == "--:--")
    #expect(TimeText.clock(nil) == "--:--")
    #expect(TimeText.clock(83, hours: true) == "0:01:23")
  }
}
