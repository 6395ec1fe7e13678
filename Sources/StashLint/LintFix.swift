import StashFormat
import StashRecover

#if canImport(Glibc)
  import Glibc
#endif

/// The safe fixes of `stash lint --fix`, each said on standard error as it is done: the recovery
/// sweep, where a capture needs assembly or a withdrawal finished, or has an empty parts folder
/// (the sweep removes those itself). Every change goes through the sweep, so it holds the folder's
/// lock like every other stash writer and skips a capture that may still be recording. Nothing
/// else is touched; nothing is removed recursively.
package enum LintFix {
  /// Sweeps `folder` when a fixable finding calls for it: only the captures of `bases` when given
  /// (those whose fixable findings the rules selected keep). The folder is followed if it is itself
  /// a symbolic link (the sweep follows none). Each fix, and each failure, is handed to `say`.
  package static func apply(
    folder given: String, bases: Set<String>? = nil, say standardError: (String) -> Void
  ) {
    guard let reading = try? MemoFolder.read(path: given) else { return }
    guard reading.memos.contains(where: { $0.needsRecovery || $0.parts?.isEmpty == true }) else { return }
    let folder: String
    do {
      folder = try MemoFolderPath.resolve(given)
    } catch {
      standardError("fix: cannot fix \(error)")
      return
    }
    let sweeper = Sweeper(fileSystem: SystemFileSystem(), assembler: FormatAssembler(), audioRepairer: nil)
    var options = SweepOptions(now: Double(time(nil)))
    options.only = bases
    do {
      let report = try sweeper.run(
        folder, options: options,
        onWait: {
          standardError(
            "stash lint: another stash process is writing in \(PathText.escaped(given)); waiting for it")
        })
      for capture in report.captures {
        for event in capture.events {
          let names = event.names.map { PathText.escaped($0) }.joined(separator: ", ")
          standardError(
            "fix: \(PathText.escaped(capture.base)): \(event.action.rawValue) \(names): \(event.detail)")
        }
      }
    } catch {
      standardError("fix: the recovery sweep of \(PathText.escaped(given)) failed: \(error)")
    }
  }
}
