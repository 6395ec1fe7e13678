import StashFormat

/// A recording from Apple's Voice Memos as a memo to import: its name on the source, and the
/// files made from it, by kind (a transcript from its `tsrp`, a title from its `©nam`).
package struct VoiceMemoSource: Sendable, Equatable {
  /// The recording's file name on the source.
  package var name: String
  /// The bytes of each file made from it.
  package var made: [MemoFileKind: [UInt8]] = [:]
  /// What the report says of it: where it came from, and what could not be read.
  package var notes: [String] = []
}

/// Turns a source folder's Voice Memos recordings into memos (FORMAT.md §8): a recording is known
/// by its name (`YYYYMMDD HHMMSS-XXXXXXXX.m4a` or `.qta`) or, renamed, by the `©too` or UUID items
/// inside it. Its base is the name's local time, else its MP4 creation time in UTC. Its audio is
/// copied as it is; its transcript and title are made here, never written to the source.
package enum VoiceMemoAdoption {
  /// Adds the Voice Memos recordings among `listing.voiceMemoCandidates` (in `folder`) to its
  /// memos; the other candidates become names no memo owns, as before.
  package static func adopt(
    _ listing: inout MemoFolderListing, in folder: String, fileSystem fs: some FileSystem
  ) {
    for name in listing.voiceMemoCandidates.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
      let path = folder + "/" + name
      guard let status = try? fs.status(path), status.kind == .regular else {
        listing.others.append((name, "not a name Stash writes"))
        continue
      }
      let named = VoiceMemoName.parse(name)
      var notes = ["from Apple's Voice Memos: \(PathText.escaped(name))"]
      var items: VoiceMemoItems?
      var file: ReadOnlyFile?
      do {
        let opened = try ReadOnlyFile(path: path)
        file = opened
        items = try VoiceMemoItems.read(opened)
      } catch {
        // The audio is imported all the same: lint then says what is wrong with it.
        if named != nil { notes.append("its title and transcript cannot be read: \(error)") }
      }
      guard named != nil || items?.writtenByVoiceMemos == true else {
        listing.others.append((name, "not a name Stash writes"))
        continue
      }
      let base: String
      if let named {
        base = named.base
      } else if let time = items?.creationTime, RecordingDate.isPlausible(time) {
        base = VoiceMemoName.base(creationTime: time)
      } else {
        listing.others.append(
          (
            name,
            "a Voice Memos recording with no date in its name or its index: rename it to the app's "
              + "form (YYYYMMDD HHMMSS-XXXXXXXX.m4a) and import again"
          ))
        continue
      }
      if let other = listing.memos[base] {
        let owner = other.voiceMemo.map { PathText.escaped($0.name) } ?? "a memo of that base"
        listing.others.append(
          (name, "a Voice Memos recording whose base \(base) is taken by \(owner) in the same folder"))
        continue
      }
      var memo = MemoSet(base: base)
      memo.files[.audio] = status
      var source = VoiceMemoSource(name: name)
      if let items, let file {
        made(from: items, file: file, status: status, into: &source, notes: &notes)
      }
      for (kind, bytes) in source.made {
        memo.files[kind] = FileStatus(
          kind: .regular, size: bytes.count, modificationTime: status.modificationTime,
          modificationNanoseconds: status.modificationNanoseconds)
      }
      source.notes = notes
      memo.voiceMemo = source
      listing.memos[base] = memo
    }
    listing.voiceMemoCandidates = []
    listing.others.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
  }

  /// The transcript and title made from `items`, with what could not be read in `notes`.
  static func made(
    from items: VoiceMemoItems, file: ReadOnlyFile, status: FileStatus, into source: inout VoiceMemoSource,
    notes: inout [String]
  ) {
    if let title = items.title, !VoiceMemoName.isDefaultTitle(title) {
      let text = MemoTitle.normalized(title)
      // A title is at most 200 characters (FORMAT.md §5).
      let kept = text.count > 200 ? String(text.prefix(200)) : text
      if !kept.isEmpty { source.made[.title] = Array(kept.utf8) }
    }
    do {
      guard let transcript = try items.readTranscript(in: file) else { return }
      for diagnostic in transcript.diagnostics {
        notes.append("its transcript: \(diagnostic.message) (byte \(diagnostic.location.offset ?? 0))")
      }
      var length: Double?
      if !transcript.runs.contains(where: { $0.start != nil }) {
        length = AudioSummary.read(path: file.path).durationSeconds
      }
      let document = transcript.webVTTDocument(audioLength: length)
      if !document.cues.isEmpty { source.made[.transcript] = WebVTTWriter.bytes(document) }
    } catch {
      notes.append("its transcript cannot be read, so the audio comes without one: \(error)")
    }
  }
}
