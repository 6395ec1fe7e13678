/// Fuzzes the MP4 reader through both entry points the tools use: the full index (playback,
/// inspect, lint) and the cheap summary (listing).
enum MP4FuzzTarget {
  static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
    FuzzScratch.write(bytes)
    let size = bytes.count
    let summary = AudioSummary.read(path: FuzzScratch.path)
    if let seconds = summary.durationSeconds {
      fuzzRequire(seconds.isFinite && seconds >= 0, "summary length \(seconds)")
    }
    if case .cutShort(let tail) = summary.state {
      fuzzRequire(tail >= 0 && tail <= size, "summary tail \(tail) of \(size)")
    }
    let audio: MP4Audio
    do {
      audio = try MP4Audio.read(path: FuzzScratch.path)
    } catch {
      fuzzRequire(false, "MP4Audio.read threw on a readable regular file: \(error.message)")
      return
    }
    // Every sample lies inside the file and has bytes; decode times only move forward.
    var previousEnd: Int64 = .min
    for (index, sample) in audio.samples.enumerated() {
      fuzzRequire(
        sample.offset >= 0 && sample.size >= 0, "sample \(index) at \(sample.offset) size \(sample.size)")
      fuzzRequire(
        sample.offset <= size && sample.size <= size - sample.offset, "sample \(index) past the end")
      fuzzRequire(
        sample.decodeTime >= previousEnd || previousEnd == .min,
        "sample \(index) decodes before the previous ends")
      let (end, overflow) = sample.decodeTime.addingReportingOverflow(Int64(sample.duration))
      previousEnd = overflow ? .max : end
    }
    fuzzRequire(audio.tailBytes >= 0 && audio.tailBytes <= size, "tail \(audio.tailBytes) of \(size)")
    fuzzRequire(audio.primingSamples >= 0 && audio.endTrimSamples >= 0, "negative priming or trim")
    fuzzRequire(audio.fragmentCount >= 0 && audio.channels >= 0 && audio.sampleRate >= 0, "negative count")
    if let seconds = audio.durationSeconds {
      fuzzRequire(seconds.isFinite && seconds >= 0, "length \(seconds)")
    }
    // The two readers agree on whether anything can be played.
    if case .damaged = summary.state {
      fuzzRequire(
        audio.damaged != nil, "summary says damaged, full index plays \(audio.samples.count) samples")
    }
    if audio.damaged != nil, audio.samples.isEmpty {
      if case .damaged = summary.state {
      } else {
        fuzzRequire(false, "full index damaged (\(audio.damaged!)), summary \(summary.state)")
      }
    }
    _ = audio.diagnostics.map(\.json)
    // What Voice Memos writes beside the audio: read without a crash, the transcript inside the file.
    if let file = try? ReadOnlyFile(path: FuzzScratch.path), let items = try? VoiceMemoItems.read(file),
      let place = items.transcript
    {
      fuzzRequire(place.offset >= 0 && place.size >= 0 && place.offset + place.size <= size, "tsrp outside")
      _ = try? items.readTranscript(in: file)?.webVTT()
    }
  }
}
