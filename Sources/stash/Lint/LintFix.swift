import StashFormat
import StashRecover

#if canImport(Glibc)
  import Glibc
#endif

/// The safe fixes of `stash lint --fix`, each said on standard error as it is done: the recovery
/// sweep where a capture needs it (assembly, a withdrawal to finish), and `rmdir` of empty parts
/// folders. Nothing else is touched; nothing is removed recursively.
enum LintFix {
  static func apply(folder: String) {
    guard let reading = try? MemoFolder.read(path: folder) else { return }
    if reading.memos.contains(where: \.needsRecovery) {
      let sweeper = Sweeper(fileSystem: SystemFileSystem(), assembler: FormatAssembler(), audioRepairer: nil)
      do {
        let report = try sweeper.run(folder, options: SweepOptions(now: Double(time(nil))))
        for capture in report.captures {
          for event in capture.events {
            let names = event.names.map { PathText.escaped($0) }.joined(separator: ", ")
            standardError(
              "fix: \(PathText.escaped(capture.base)): \(event.action.rawValue) \(names): \(event.detail)")
          }
        }
      } catch {
        standardError("fix: the recovery sweep of \(PathText.escaped(folder)) failed: \(error)")
      }
    }
    guard let after = try? MemoFolder.read(path: folder) else { return }
    for memo in after.memos {
      guard let parts = memo.parts, parts.isEmpty, let path = after.path(of: memo, .parts) else { continue }
      if rmdir(path) == 0 {
        standardError("fix: removed the empty parts folder \(PathText.escaped(parts.name))")
      } else {
        standardError(
          "fix: could not remove \(PathText.escaped(parts.name)): \(String(cString: strerror(errno)))")
      }
    }
  }
}
