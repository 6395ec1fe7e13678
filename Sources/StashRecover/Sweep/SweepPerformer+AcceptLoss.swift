import StashFormat

extension SweepPerformer {
  /// `--accept-loss`: the parts of `kind` kept beside the finished file as the sign of a loss go,
  /// once the finished file is seen to hold every cue or point they can still give (`published`:
  /// the bytes this sweep has just published from them, for a dry run, which wrote nothing). A
  /// transcript first notes each stretch lost that it does not note yet, as `NOTE stash
  /// missing-speech` (FORMAT.md §3.3), rewritten atomically; a loss at the end of the recording
  /// ends at the audio's length when it is known. A route's loss is in its segments already. The
  /// parts are removed highest number first and made durable at once.
  mutating func accept(
    _ kind: PartsKind, parts numbers: [Int], base: String, published: [UInt8]?,
    into events: inout [SweepReport.Event]
  ) throws {
    let finished = kind.finishedFile.name(for: base)
    let partNames = Self.partNames(kind, numbers, base: base)
    let (parts, unread) = try read(kind, numbers, base: base)
    guard unread.isEmpty else {
      let reasons = unread.sorted { $0.key < $1.key }.map { kind.partName($0.key).fileName + ": " + $0.value }
      events.append(
        event(
          .kept, partNames,
          "the loss is not accepted, since some parts cannot be read: " + reasons.joined(separator: "; "),
          needsPerson: true))
      return
    }
    let finishedBytes: [UInt8]
    if let published, dryRun {
      finishedBytes = published
    } else {
      do {
        finishedBytes = try fs.read(folder + "/" + finished, limit: sweeper.readLimit)
      } catch {
        guard Self.isContentProblem(error) else { throw error }
        events.append(
          event(
            .kept, partNames, "the loss is not accepted: \(finished) cannot be read (\(error.message))",
            needsPerson: true))
        return
      }
    }
    let item = kind == .transcript ? "cue" : "point"
    guard sweeper.assembler.finished(kind, finishedBytes, holdsAllReadableOf: parts) else {
      events.append(
        event(
          .kept, partNames,
          "the loss is not accepted: \(finished) does not hold every \(item) these parts still give "
            + "(it was changed, or is not their assembly); compare them before removing any",
          needsPerson: true))
      return
    }
    let loss = sweeper.assembler.loss(kind, parts: parts, unread: [:])
    var noted: [WebVTTTimeSpan] = []
    if kind == .transcript {
      var document = WebVTTParser.parse(finishedBytes)
      let audioLength = self.audioLength(base: base)
      for stretch in loss.stretches {
        let start = stretch.start ?? 0
        let end = max(start, stretch.end ?? audioLength ?? start)
        let already = (document.missingSpeech + noted).contains { abs($0.start - start) < 0.0005 }
        if !already { noted.append(WebVTTTimeSpan(start: start, end: end)) }
      }
      if !noted.isEmpty {
        func keys(_ document: WebVTTDocument) -> [String] {
          document.cues.map { "\($0.id)\u{0}\($0.startTime)\u{0}\($0.endTime)\u{0}\($0.text)" }
        }
        let before = keys(document)
        document.missingSpeech = (document.missingSpeech + noted).sorted { $0.start < $1.start }
        let bytes = WebVTTWriter.bytes(document)
        // The rewrite must keep every cue as it was; the notes are all it adds.
        guard keys(WebVTTParser.parse(bytes)) == before else {
          events.append(
            event(
              .kept, partNames, "the loss is not accepted: \(finished) would not keep its cues as they are",
              needsPerson: true))
          return
        }
        if !dryRun {
          try AtomicFile.write(bytes, named: finished, in: folder, mode: .replace, fileSystem: fs)
        }
      }
    }
    try removeParts(kind, numbers, base: base)
    let spans = noted.map { "\(TimeText.clock($0.start))–\(TimeText.clock($0.end))" }
    let note =
      noted.isEmpty
      ? ""
      : "; \(finished) \(tense("notes", "would note")) it as missing speech (\(spans.joined(separator: ", ")))"
    events.append(
      event(
        .removed, partNames,
        tense("the loss was accepted: ", "the loss would be accepted: ") + loss.summary + note
          + "; every \(item) the parts still give is in \(finished)"))
  }

  /// The length of the memo's audio in seconds, when it is a regular file whose length reads.
  func audioLength(base: String) -> Double? {
    let path = folder + "/" + MemoFileKind.audio.name(for: base)
    guard (try? fs.status(path))??.kind == .regular else { return nil }
    return AudioSummary.read(path: path).durationSeconds
  }
}
