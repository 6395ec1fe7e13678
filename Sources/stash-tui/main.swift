import StashFormat
import StashPlayback

#if canImport(Glibc)
  import Glibc
#endif

// `--play FILE ...`: headless playing, owned by StashPlayback's helper (HeadlessPlayback.swift).
if HeadlessPlayback.wanted(Array(CommandLine.arguments.dropFirst())) {
  exit(HeadlessPlayback.run(Array(CommandLine.arguments.dropFirst())))
}

let message = Array("stash-tui: the browser is not built yet; use 'stash ls' meanwhile.\n".utf8)
_ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
exit(2)
