import StashBrowser
import StashFormat
import Testing

/// The browser's dates are `RecordingDate`'s: the same text as `stash ls`, the year padded.
@Suite struct BrowserLocalTimeTests {
  @Test func theBrowserShowsADateAsTheListingDoes() {
    // 0999-07-01T12:00:00Z, 2026-03-14T08:05:12Z
    for seconds in [-30_626_078_400.0, 1_773_475_512] {
      #expect(TimeText.date(seconds) == RecordingDate.localMinute(seconds))
    }
    #expect(TimeText.date(-30_626_078_400).hasPrefix("0999-07-0"))
  }

  @Test func aYearTheCLibraryCannotHoldIsUnknown() {
    #expect(LocalTime.format(1e18) == "????-??-?? ??:??")
  }
}
