import StashFormat

extension AudioClip {
  /// Cuts `from`–`to` seconds out of the memo audio at `source` (in the memo folder `memoFolder`)
  /// and writes it atomically as `output`, titled `title` and dated `recordedAt` (seconds since
  /// 1970 UTC, of the memo's start: the clip is dated from its own). Never writes into the memo
  /// folder (code `overlap`); never replaces a file unless `replace` (code `exists`). Only the
  /// frames copied are read: nothing is decoded.
  @discardableResult
  public static func write(
    source: String, memoFolder: String, from: Double, to: Double, title: String, recordedAt: Double,
    output: String, replace: Bool, fileSystem fs: some FileSystem
  ) throws -> AudioClip {
    let (folder, name) = try target(output, memoFolder: memoFolder)
    if !replace, try fs.status(folder + "/" + name) != nil {
      throw RecoverError(
        code: .exists, message: "a file already has this name; add --force to replace it", path: output)
    }
    let file: ReadOnlyFile
    let audio: MP4Audio
    do {
      file = try ReadOnlyFile(path: source)
      audio = try MP4Audio.read(path: source)
    } catch {
      throw RecoverError(code: .io, message: "cannot read the audio: \(error)", path: source)
    }
    let clip = try choose(audio, from: from, to: to, path: source)
    let bytes = clip.movie(
      sampleEntry: audio.sampleEntry, frameBytes: try clip.frameBytes(of: file),
      title: Self.title(memo: title, from: from, to: to), createdAt: recordedAt + from)
    try AtomicFile.write(
      bytes, named: name, in: folder, mode: replace ? .replace : .createNew, fileSystem: fs)
    return clip
  }

  /// The folder (symbolic links resolved) and name `output` is written as; refuses a name in the
  /// memo folder, where a clip is never written.
  package static func target(_ output: String, memoFolder: String) throws(RecoverError) -> (
    folder: String, name: String
  ) {
    let slash = output.lastIndex(of: "/")
    let given = PathText.folder(of: output)
    let name = slash.map { String(output[output.index(after: $0)...]) } ?? output
    guard !name.isEmpty, name != ".", name != ".." else {
      throw RecoverError(code: .notAFile, message: "this names a folder; give a file name", path: output)
    }
    let folder = try MemoFolderPath.resolve(given)
    guard try folder != MemoFolderPath.resolve(memoFolder) else {
      throw RecoverError(
        code: .overlap,
        message: "this is in the memo folder, and a clip is never written there; give another folder",
        path: output)
    }
    return (folder, name)
  }

  /// The frames' bytes, read from the source in one `pread` of the stretch they lie in (a
  /// fragmented file's boxes between them are read and left out).
  func frameBytes(of file: ReadOnlyFile) throws(RecoverError) -> [UInt8] {
    guard let start = frames.map(\.offset).min(), let end = frames.map({ $0.offset + $0.size }).max() else {
      return []
    }
    let stretch: [UInt8]
    do { stretch = try file.read(at: start, count: end - start) } catch {
      throw RecoverError(code: .io, message: "cannot read the audio: \(error)", path: file.path)
    }
    guard stretch.count == end - start else {
      throw RecoverError(
        code: .changed, message: "the audio is shorter than its index says; it changed while being read",
        path: file.path)
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(frames.reduce(0) { $0 + $1.size })
    for frame in frames { bytes += stretch[(frame.offset - start)..<(frame.offset - start + frame.size)] }
    return bytes
  }
}
