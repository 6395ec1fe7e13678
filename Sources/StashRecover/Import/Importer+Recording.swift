import StashFormat

extension Importer {
  /// The memos of `listing` that may still be recording, each with why. A memo whose files all
  /// changed longer ago than the recent window is settled. The others are looked at a second time,
  /// `settle` seconds later: one that changed meanwhile is still recording. One that did not is
  /// still held when its last change fits its recording date and length (`RecordingActivity`),
  /// since a recording running between two flushes looks still; a finished (not fragmented) audio
  /// file with no parts beside it is no recording, and a copy's times are far from its date.
  /// A memo the target already holds exactly (every name with the same size and time) is not
  /// looked at: a recording that ran on would not match.
  func stillRecording(
    _ listing: MemoFolderListing, in folder: String, here: MemoFolderListing, options: ImportOptions
  ) -> [String: String] {
    // A Voice Memos recording whose index cannot be read yet, changed lately, is still arriving
    // (the app, and a copy, write the index last).
    var arriving: [String: String] = [:]
    for memo in listing.memos.values where memo.voiceMemo?.indexUnreadable == true {
      let age = options.now - memo.newestChange
      if age < options.recentWindow {
        arriving[memo.base] =
          "its index cannot be read and it changed \(max(0, Int(age.rounded()))) s ago: a copy onto the "
          + "source not finished? It is imported once whole (or in \(Int(options.recentWindow)) s, as it is)"
      }
    }
    let recent = listing.memos.values.filter { memo in
      // A Voice Memos recording is a finished file the app wrote whole: no Stash recording.
      guard memo.voiceMemo == nil, memo.incompleteBecause == nil,
        options.now - memo.newestChange < options.recentWindow
      else {
        return false
      }
      let hereNames = here.memos[memo.base]?.statuses ?? [:]
      return !memo.names.allSatisfy { hereNames[$0.name] == $0.status }
    }
    guard !recent.isEmpty else { return arriving }
    pause(options.settle)
    let bases = Set(recent.map(\.base))
    let again = try? MemoFolderListing.read(folder, only: bases, fileSystem: fileSystem)
    var held = arriving
    for memo in recent {
      let age = max(0, Int((options.now - memo.newestChange).rounded()))
      guard let later = again?.memos[memo.base], later == memo else {
        held[memo.base] =
          "it changed while it was looked at (\(Self.change(from: memo, to: again?.memos[memo.base]))): "
          + "a recording still running; it is imported once it has stopped"
        continue
      }
      let audio = AudioSummary.read(path: folder + "/" + MemoFileKind.audio.name(for: memo.base))
      if memo.partsFolder == nil && !audio.fragmented && audio.state == .ok { continue }
      let date =
        RecordingDate.parse(base: memo.base)
        ?? audio.creationTime.flatMap { RecordingDate.isPlausible($0) ? $0 : nil }
      let verdict = RecordingActivity.judge(
        newest: memo.newestChange, recordedAt: date, audioSeconds: audio.durationSeconds, now: options.now,
        window: options.recentWindow)
      if case .possiblyRecording(_, let reason) = verdict {
        held[memo.base] =
          "it changed \(age) s ago and \(reason): it may still be recording; import again once the "
          + "recording has stopped (or in \(Int(options.recentWindow)) s)"
      }
    }
    return held
  }

  /// What changed between two readings of a memo, in a few words.
  static func change(from before: MemoSet, to after: MemoSet?) -> String {
    guard let after else { return "it is gone" }
    if let old = before.files[.audio], let new = after.files[.audio], old.size != new.size {
      return "its audio grew by \(new.size - old.size) bytes"
    }
    for (name, _, status) in after.names
    where before.names.first(where: { $0.name == name })?.status != status {
      return "\(name) changed"
    }
    return "its files changed"
  }
}
