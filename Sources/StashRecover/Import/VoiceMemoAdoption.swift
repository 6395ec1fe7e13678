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
  /// Its index (`moov`, which the app writes last) could not be read: a file still being copied
  /// onto the source looks so, and a recent one is left for a later import.
  package var indexUnreadable = false
  /// The recording whose `tsrp` is still to be made into the transcript, with its items: made by
  /// the import's worker that copies the memo (`VoiceMemoAdoption.makeTranscript`), so that the
  /// work overlaps the other workers' waits on the disk rather than coming before any copy.
  package var transcriptToMake: (path: String, items: VoiceMemoItems)?
  /// The bases the recording would have had with less to go on (without Voice Memos' database:
  /// its name's local time; without that, its index's creation time): an import that had less
  /// may have brought it under one of them (`Importer.importedAs`).
  package var otherBases: [String] = []

  package init(name: String) { self.name = name }

  package static func == (a: VoiceMemoSource, b: VoiceMemoSource) -> Bool {
    a.name == b.name && a.made == b.made && a.notes == b.notes && a.indexUnreadable == b.indexUnreadable
      && a.transcriptToMake?.path == b.transcriptToMake?.path
      && a.transcriptToMake?.items == b.transcriptToMake?.items && a.otherBases == b.otherBases
  }
}

/// Turns a source folder's Voice Memos recordings into memos (FORMAT.md §9): a recording is known
/// by its name (`YYYYMMDD HHMMSS-XXXXXXXX.m4a` or `.qta`) or, renamed, by the `©too` or UUID items
/// inside it. Its base is the name's local time, else its MP4 creation time in UTC. Its audio is
/// copied as it is; its transcript and title are made here, never written to the source.
package enum VoiceMemoAdoption {
  /// Adds the Voice Memos recordings among `listing.voiceMemoCandidates` (in `folder`) to its
  /// memos; the other candidates become names no memo owns, as before. With a `CloudRecordings.db`
  /// beside them, a recording it lists is one whatever its name, and takes its date, title and
  /// folder from it; one it puts in Recently Deleted is left unless `includeDeleted`, and one only
  /// in iCloud is listed as such. Returns what the report says of the database.
  package static func adopt(
    _ listing: inout MemoFolderListing, in folder: String, fileSystem fs: some FileSystem,
    includeDeleted: Bool = false
  ) -> [String] {
    var notices: [String] = []
    var database: [String: VoiceMemoDatabase.Recording] = [:]
    let databaseNames = listing.others.filter { VoiceMemoDatabase.isDatabaseFile($0.name) }.map(\.name)
    // Looked for on disk too: a recording named on the command line lists nothing else.
    let databasePath = folder + "/" + VoiceMemoDatabase.fileName
    if databaseNames.contains(VoiceMemoDatabase.fileName)
      || (!listing.voiceMemoCandidates.isEmpty && (try? fs.status(databasePath))?.kind == .regular)
    {
      listing.others.removeAll { VoiceMemoDatabase.isDatabaseFile($0.name) }
      do {
        let read = try VoiceMemoDatabase.read(path: databasePath, fileSystem: fs)
        for recording in read.recordings {
          let name = String(recording.path.split(separator: "/").last ?? "")
          database[name] = recording
          // A recording only in iCloud has no file here to import.
          if recording.evicted && databaseNames.contains(VoiceMemoDatabase.fileName)
            && !listing.voiceMemoCandidates.contains(name)
          {
            listing.others.append(
              (
                name,
                "in iCloud only (Voice Memos evicted it from this Mac"
                  + (recording.folder.map { "; in Apple's folder \(PathText.escaped($0))" } ?? "")
                  + "): play it in Voice Memos to download it, then import again"
              ))
          }
        }
      } catch {
        notices.append("\(error)")
      }
    }
    // First what the names and the database say (a status each, in order), then each recording
    // opened and its transcript made, on every core (the work an import adds to the copy), then
    // each taken in as a memo, in order.
    var candidates:
      [(name: String, status: FileStatus, named: VoiceMemoName?, listed: VoiceMemoDatabase.Recording?)] = []
    for name in listing.voiceMemoCandidates.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
      guard let status = try? fs.status(folder + "/" + name), status.kind == .regular else {
        listing.others.append((name, "not a name Stash writes"))
        continue
      }
      let listed = database[name]
      if listed?.deleted == true && !includeDeleted {
        listing.others.append(
          (name, "in Voice Memos' Recently Deleted: left (stash import --include-deleted brings it)"))
        continue
      }
      candidates.append((name, status, VoiceMemoName.parse(name), listed))
    }
    let examined = Parallel.map(candidates.count, chunk: 1) { index in
      let candidate = candidates[index]
      return examine(
        folder + "/" + candidate.name, status: candidate.status,
        known: candidate.named != nil || candidate.listed != nil)
    }
    for (candidate, found) in zip(candidates, examined) {
      let (name, status, named, listed) = candidate
      guard named != nil || listed != nil || found.items?.writtenByVoiceMemos == true else {
        listing.others.append((name, "not a name Stash writes"))
        continue
      }
      let base: String
      if let date = listed?.date, RecordingDate.isPlausible(date) {
        base = VoiceMemoName.base(creationTime: date)
      } else if let named {
        base = named.base
      } else if let time = found.items?.creationTime, RecordingDate.isPlausible(time) {
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
      var source = found.source
      source.name = name
      source.otherBases = [
        named?.base,
        found.items?.creationTime.flatMap {
          RecordingDate.isPlausible($0) ? VoiceMemoName.base(creationTime: $0) : nil
        },
      ].compactMap { $0 }.filter { $0 != base }
      var notes = ["from Apple's Voice Memos: \(PathText.escaped(name))"]
      if let folder = listed?.folder { notes.append("in Apple's folder \(PathText.escaped(folder))") }
      notes += found.notes
      // The title the person sees in the app, when its database gives one.
      if let title = listed?.title.flatMap(titleBytes) { source.made[.title] = title }
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
    let left = Set(listing.others.map(\.name))
    listing.others += databaseNames.filter { !left.contains($0) }.map {
      ($0, "Voice Memos' database: read for titles, dates and folders, not copied")
    }
    listing.others.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    return notices
  }

  /// What opening one recording found: its items, the files made from them, and what could not
  /// be read. `known` (its name or the database says it is one) says the notes are worth making.
  static func examine(_ path: String, status: FileStatus, known: Bool) -> (
    items: VoiceMemoItems?, source: VoiceMemoSource, notes: [String]
  ) {
    var source = VoiceMemoSource(name: "")
    var notes: [String] = []
    let items: VoiceMemoItems
    let file: ReadOnlyFile
    do {
      file = try ReadOnlyFile(path: path)
      items = try VoiceMemoItems.read(file)
    } catch {
      // The audio is imported all the same: lint then says what is wrong with it.
      if known { notes.append("its title and transcript cannot be read: \(error)") }
      source.indexUnreadable = true
      return (nil, source, notes)
    }
    if let title = items.title.flatMap(titleBytes) { source.made[.title] = title }
    if items.transcript != nil { source.transcriptToMake = (path, items) }
    return (items, source, notes)
  }

  /// A title file's bytes for `title`, as §5 stores a title (one line, at most 200 characters),
  /// or nil for the app's default name or no text.
  static func titleBytes(_ title: String) -> [UInt8]? {
    guard !VoiceMemoName.isDefaultTitle(title) else { return nil }
    let text = MemoTitle.normalized(title)
    return text.isEmpty ? nil : Array((text.count > 200 ? String(text.prefix(200)) : text).utf8)
  }

  /// Makes the transcript of `memo`'s recording, when one is still to be made: its bytes, its
  /// status beside the audio's, what could not be read in its notes. Returns the bytes made.
  @discardableResult
  package static func makeTranscript(_ memo: inout MemoSet) -> Int {
    guard var source = memo.voiceMemo, let (path, items) = source.transcriptToMake else { return 0 }
    source.transcriptToMake = nil
    defer { memo.voiceMemo = source }
    do {
      let file = try ReadOnlyFile(path: path)
      guard let transcript = try items.readTranscript(in: file) else { return 0 }
      for diagnostic in transcript.diagnostics {
        source.notes.append("its transcript: \(diagnostic.message) (byte \(diagnostic.location.offset ?? 0))")
      }
      var length: Double?
      if !transcript.runs.contains(where: { $0.start != nil }) {
        length = AudioSummary.read(path: file.path).durationSeconds
      }
      let document = transcript.webVTTDocument(audioLength: length)
      guard !document.cues.isEmpty, let audio = memo.files[.audio] else { return 0 }
      let bytes = WebVTTWriter.bytes(document)
      source.made[.transcript] = bytes
      memo.files[.transcript] = FileStatus(
        kind: .regular, size: bytes.count, modificationTime: audio.modificationTime,
        modificationNanoseconds: audio.modificationNanoseconds)
      return bytes.count
    } catch {
      source.notes.append("its transcript cannot be read, so the audio comes without one: \(error)")
      return 0
    }
  }
}
