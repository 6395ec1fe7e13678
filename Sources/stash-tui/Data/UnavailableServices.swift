/// Stands in for StashRecover's writes until they reach main: every write says it is not
/// available yet, rather than pretending.
final class UnavailableEditor: MemoEditor {
  func setTitle(base: String, title: String) -> ActionOutcome {
    .failed("Renaming needs StashRecover, which this build does not have yet.")
  }
  func delete(base: String, permanently: Bool) -> ActionOutcome {
    .failed("Deleting needs StashRecover, which this build does not have yet.")
  }
  func recover() -> ActionOutcome {
    .failed("Recovery needs StashRecover, which this build does not have yet.")
  }
}

/// Stands in for StashPlayback's player until it reaches main: every play fails, saying why.
final class UnavailablePlayer: PlayerControl {
  private var state = PlayerSnapshot.idle
  func play(path: String, base: String, from: Double, duration: Double?) {
    state = PlayerSnapshot(
      state: .failed("this build has no audio player yet"), base: base, position: from, duration: duration)
  }
  func togglePause() {}
  func seek(to seconds: Double) {}
  func stop() { state = .idle }
  func snapshot() -> PlayerSnapshot { state }
}
