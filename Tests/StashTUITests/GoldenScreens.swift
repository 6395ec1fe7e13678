/// The golden screens, one per file in `Golden/`, by name.
enum GoldenScreens {
  static let all: [String: String] = [
    "listWide": listWide, "detailNarrow": detailNarrow, "help": help, "playingFirstCue": playingFirstCue,
    "filterTranscript": filterTranscript, "deleteConfirm": deleteConfirm, "waveformStrip": waveformStrip,
  ]
}
