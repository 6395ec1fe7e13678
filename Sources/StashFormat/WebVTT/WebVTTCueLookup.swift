import Synchronization

/// The cue lookup a document builds once and shares between its copies until its cues change.
final class WebVTTCueLookup: Sendable {
  private let built = Mutex<WebVTTTimeline?>(nil)

  /// The timeline of `cues`, built on first use.
  func timeline(for cues: [WebVTTCue]) -> WebVTTTimeline {
    built.withLock { cached in
      if let cached { return cached }
      let timeline = WebVTTTimeline(cues: cues)
      cached = timeline
      return timeline
    }
  }
}
