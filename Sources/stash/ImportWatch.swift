#if canImport(Glibc)
  import Glibc
#endif

/// `stash import --watch`: imports, then waits for the sources to change and imports again, until
/// interrupted. It waits on inotify where the kernel sees the changes; on a FUSE mount (ifuse, sshfs),
/// a network share (SMB, NFS), with STASH_WATCH_POLL set, or where inotify fails it looks every two
/// seconds instead, since changes made on the far side
/// of such a mount raise no event. A memo still recording is looked at again at least every ten
/// seconds either way, so it is imported soon after it stops.
struct ImportWatch {
  /// The source folders.
  var folders: [String]

  /// Runs `pass` (given the time now) again and again until the process is interrupted (a signal
  /// ends it; a kill mid-copy is safe, see FORMAT.md §7.2), so it does not return.
  func run(_ pass: (Double) -> (code: Int32, copied: Bool)) -> Int32 {
    // "Until interrupted": a parent may have started us with these blocked (a test runner does).
    var interrupts = sigset_t()
    sigemptyset(&interrupts)
    sigaddset(&interrupts, SIGINT)
    sigaddset(&interrupts, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &interrupts, nil)
    // STASH_WATCH_POLL forces looking (a share whose type is not recognised; and the tests' seam).
    let forced = getenv("STASH_WATCH_POLL").map { !String(cString: $0).isEmpty } ?? false
    let inotify = forced ? nil : watch()
    let interval: Int32 = inotify == nil ? 2_000 : 10_000
    if inotify == nil {
      standardError(
        "stash import: watching by looking every 2 s ("
          + (forced ? "STASH_WATCH_POLL is set" : "inotify does not see changes here") + ")")
    }
    while true {
      _ = pass(now())
      if let inotify {
        var waiting = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
        if poll(&waiting, 1, interval) > 0 {
          // Drain, then let a burst of writes (a whole memo arriving) settle before looking.
          var buffer = [UInt8](repeating: 0, count: 4096)
          while read(inotify, &buffer, buffer.count) > 0 {}
          usleep(500_000)
          while read(inotify, &buffer, buffer.count) > 0 {}
        }
      } else {
        usleep(UInt32(interval) * 1000)
      }
    }
  }

  /// File systems whose changes made elsewhere (the phone's side of ifuse, another machine's side
  /// of a share) raise no inotify event here.
  static func seesOnlyLocalChanges(_ type: String) -> Bool {
    type.hasPrefix("fuse") || ["cifs", "smb3", "nfs", "nfs4", "9p"].contains(type)
  }

  /// An inotify descriptor watching every source folder, or nil when one of them is on FUSE or a
  /// network share, or inotify cannot watch it.
  func watch() -> Int32? {
    if folders.contains(where: { Self.seesOnlyLocalChanges(Self.fileSystemType(of: $0)) }) { return nil }
    let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard descriptor >= 0 else { return nil }
    let mask = UInt32(
      IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_MODIFY | IN_ATTRIB)
    for folder in folders where inotify_add_watch(descriptor, folder, mask) < 0 {
      close(descriptor)
      return nil
    }
    return descriptor
  }

  /// The type of the file system `folder` (a resolved path) is on, from `/proc/self/mounts`: the
  /// mount point that is the longest prefix of it wins. Empty when it cannot be told.
  static func fileSystemType(of folder: String) -> String {
    guard let file = fopen("/proc/self/mounts", "r") else { return "" }
    defer { fclose(file) }
    var best = (length: -1, type: "")
    var line: UnsafeMutablePointer<CChar>? = nil
    var capacity = 0
    defer { free(line) }
    while getline(&line, &capacity, file) > 0, let line {
      let fields = String(cString: line).split(separator: " ")
      guard fields.count >= 3 else { continue }
      // Spaces in a mount point are written as \040.
      let point = String(fields[1]).replacing("\\040", with: " ")
      let inside = folder == point || folder.hasPrefix(point == "/" ? "/" : point + "/")
      if inside && point.count > best.length { best = (point.count, String(fields[2])) }
    }
    return best.type
  }

  func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
