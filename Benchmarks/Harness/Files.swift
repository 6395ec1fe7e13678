#if canImport(Glibc)
  import Glibc
#endif

/// Plain file writes for the corpora (the corpora are ours, in a scratch folder).
enum Files {
  /// Writes `text` to a new file at `path`.
  static func write(_ path: String, _ text: String) throws {
    var text = text
    try text.withUTF8 { try write(path, UnsafeRawBufferPointer($0)) }
  }

  /// Writes `bytes` to a new file at `path`.
  static func write(_ path: String, _ bytes: UnsafeRawBufferPointer) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { throw HarnessError("cannot create \(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var done = 0
    while done < bytes.count {
      let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
      guard n > 0 else { throw HarnessError("cannot write \(path): \(String(cString: strerror(errno)))") }
      done += n
    }
  }

  /// Copies `source` to a new file at `destination`, leaving out its last `dropped` bytes.
  static func copy(_ source: String, to destination: String, droppingLast dropped: Int = 0) throws {
    let fd = open(source, O_RDONLY)
    guard fd >= 0 else { throw HarnessError("cannot open \(source): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: max(0, size(source) - dropped))
    let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard got == bytes.count else { throw HarnessError("cannot read \(source)") }
    try bytes.withUnsafeBytes { try write(destination, $0) }
  }

  static func makeFolder(_ path: String) throws {
    guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
      throw HarnessError("cannot create folder \(path): \(String(cString: strerror(errno)))")
    }
  }

  static func link(_ source: String, _ destination: String) throws {
    guard Glibc.link(source, destination) == 0 else {
      throw HarnessError("cannot link \(destination): \(String(cString: strerror(errno)))")
    }
  }

  static func size(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
  }

  /// Reads every file once, so the timed runs start from a warm page cache.
  static func warm(_ paths: [String]) {
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    for path in paths {
      let fd = open(path, O_RDONLY)
      guard fd >= 0 else { continue }
      while buffer.withUnsafeMutableBytes({ Glibc.read(fd, $0.baseAddress, $0.count) }) > 0 {}
      close(fd)
    }
  }
}
