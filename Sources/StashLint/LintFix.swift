import StashFormat
import StashRecover

#if canImport(Glibc)
  import Glibc
#endif

/// The safe fixes of `stash lint --fix`, each said on standard error as it is done: the recovery
/// sweep, where a capture needs assembly or a withdrawal finished, or has an empty parts folder
/// (the sweep removes those itself), and bookmarks out of order or not chained, written again.
/// Every change goes through StashRecover, so it holds the folder's lock like every other stash
/// writer, and the sweep skips a capture that may still be recording. Nothing else is touched;
/// nothing is removed recursively.
package enum LintFix {
  /// Sweeps `folder` when a fixable finding calls for it: only the captures of `bases` when given
  /// (those whose fixable findings the rules selected keep). The folder is followed if it is itself
  /// a symbolic link (the sweep follows none). Each fix, and each failure, is handed to `say`.
  package static func apply(
    folder given: String, bases: Set<String>? = nil, say standardError: (String) -> Void
  ) {
    guard let reading = try? MemoFolder.read(path: given) else { return }
    let sweeps = reading.memos.contains(where: { $0.needsRecovery || $0.parts?.isEmpty == true })
    let bookmarked = reading.memos.filter { memo in
      memo.files[.bookmarks] != nil && bases.map { $0.contains(memo.base) } ?? true
    }
    guard sweeps || !bookmarked.isEmpty else { return }
    let folder: String
    do {
      folder = try MemoFolderPath.resolve(given)
    } catch {
      standardError("fix: cannot fix \(error)")
      return
    }
    if sweeps { sweep(folder, given: given, bases: bases, say: standardError) }
    for memo in bookmarked { rechain(memo, in: folder, say: standardError) }
  }

  /// Writes a memo's bookmarks again in time order and chained (FORMAT.md §8), when they are not;
  /// a file stash did not write, or cannot read whole, is left as it is (that is no fix).
  static func rechain(_ memo: Memo, in folder: String, say standardError: (String) -> Void) {
    let name = PathText.escaped(MemoFileKind.bookmarks.name(for: memo.base))
    do {
      if try MemoBookmarks.rechain(base: memo.base, in: folder, audioLength: memo.durationSeconds) {
        standardError("fix: \(name): the bookmarks written again in time order, each cue to the next")
      }
    } catch let error as RecoverError where error.code == .foreign {
      return
    } catch {
      standardError("fix: the bookmarks \(name) were not written again: \(error)")
    }
  }

  /// The recovery sweep of `folder` (resolved from `given`), for the captures of `bases` when given.
  static func sweep(_ folder: String, given: String, bases: Set<String>?, say standardError: (String) -> Void)
  {
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
