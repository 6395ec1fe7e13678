import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// A stand-in reader used until StashFormat's folder and WebVTT readers reach main: it groups the
/// folder's names by suffix and reads cue timings and text. It is deleted when the real readers
/// land; nothing else depends on it beyond the `MemoLibrary` protocol.
final class ProvisionalLibrary: MemoLibrary {
  private let folder: String

  init(folder: String) { self.folder = folder }

  func list() -> (rows: [MemoRow], error: String?) {
    guard let dir = opendir(folder) else {
      return ([], "cannot read \(folder): " + String(cString: strerror(errno)))
    }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if !name.hasPrefix(".") { names.append(name) }
    }
    var byBase: [String: [String]] = [:]
    let suffixes = ["_audio.m4a", "_transcription.vtt", "_track.gpx", "_title.txt", ".parts"]
    for name in names {
      for s in suffixes where name.hasSuffix(s) {
        byBase[String(name.dropLast(s.count)), default: []].append(name)
      }
    }
    var rows: [MemoRow] = []
    for (base, files) in byBase {
      let audio = folder + "/" + base + "_audio.m4a"
      var st = stat()
      let hasAudio = stat(audio, &st) == 0
      let title =
        files.contains(base + "_title.txt")
        ? read(base + "_title.txt")?.split(separator: "\n").first.map { String($0).trimmingSpaces } : nil
      let date = hasAudio ? Double(st.st_mtim.tv_sec) : 0
      let displayName = (title?.isEmpty == false ? title : nil) ?? TimeText.date(date)
      rows.append(
        MemoRow(
          base: base, displayName: displayName, title: title, recordedAt: date, durationSeconds: nil,
          audio: hasAudio ? .lengthUnknown("this build has no MP4 reader yet") : .missing,
          hasTranscript: files.contains(base + "_transcription.vtt"),
          hasRoute: files.contains(base + "_track.gpx"), needsRecovery: false, problems: [],
          files: files.filter { !$0.hasSuffix(".parts") }.sorted(), partFiles: [],
          partsFolder: files.contains(base + ".parts") ? base + ".parts" : nil))
    }
    rows.sort { $0.recordedAt != $1.recordedAt ? $0.recordedAt > $1.recordedAt : $0.base < $1.base }
    return (rows, nil)
  }

  func detail(of base: String) -> MemoDetail {
    var detail = MemoDetail(
      transcript: .absent("no speech was recorded"), missingSpeech: [], transcriptNotes: [], route: nil,
      routeProblem: nil)
    guard let text = read(base + "_transcription.vtt") else { return detail }
    var cues: [MemoDetail.Cue] = []
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines = lines.map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
    var i = 0
    while i < lines.count {
      let line = lines[i]
      if line.hasPrefix("NOTE stash missing-speech ") {
        let p = line.split(separator: " ")
        if p.count >= 5, let a = ProvisionalLibrary.time(String(p[3])),
          let b = ProvisionalLibrary.time(String(p[4]))
        {
          detail.missingSpeech.append(.init(start: a, end: b))
        }
      }
      if line.contains("-->") {
        let p = line.split(separator: " ")
        let start = ProvisionalLibrary.time(String(p[0])) ?? 0
        let end = p.count > 2 ? ProvisionalLibrary.time(String(p[2])) ?? start : start
        var body: [String] = []
        i += 1
        while i < lines.count && !lines[i].isEmpty {
          body.append(lines[i])
          i += 1
        }
        cues.append(
          .init(start: start, end: end, words: ProvisionalLibrary.words(body.joined(separator: " "))))
      }
      i += 1
    }
    detail.transcript = .cues(cues)
    return detail
  }

  func search(_ query: String) -> Set<String> {
    let needle = query.lowercased()
    var hits: Set<String> = []
    for row in list().rows where row.hasTranscript {
      if let t = read(row.base + "_transcription.vtt"), t.lowercased().contains(needle) {
        hits.insert(row.base)
      }
    }
    return hits
  }

  func audioPath(of base: String) -> String { folder + "/" + base + "_audio.m4a" }

  private func read(_ name: String) -> String? {
    guard let f = fopen(folder + "/" + name, "rb") else { return nil }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = fread(&buffer, 1, buffer.count, f)
      if n <= 0 { break }
      bytes += buffer[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func time(_ text: String) -> Double? {
    let parts = text.split(separator: ":")
    var total = 0.0
    for p in parts {
      guard let v = Double(p) else { return nil }
      total = total * 60 + v
    }
    return total
  }

  private static func words(_ text: String) -> [MemoDetail.Word] {
    var words: [MemoDetail.Word] = []
    var time: Double?
    var unconfirmed = false
    var rest = Substring(text)
    var current = ""
    func flush() {
      for w in current.split(separator: " ") {
        words.append(.init(text: String(w), start: time, unconfirmed: unconfirmed))
        time = nil
      }
      current = ""
    }
    while let c = rest.first {
      if c == "<", let close = rest.firstIndex(of: ">") {
        let tag = rest[rest.index(after: rest.startIndex)..<close]
        flush()
        if tag == "c.unconfirmed" { unconfirmed = true }
        if tag == "/c" { unconfirmed = false }
        if let t = ProvisionalLibrary.time(String(tag)) { time = t }
        rest = rest[rest.index(after: close)...]
        continue
      }
      current.append(c)
      rest = rest.dropFirst()
    }
    flush()
    return words
  }
}

/// Stands in for StashRecover until it reaches main: every write says it is not available yet.
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
