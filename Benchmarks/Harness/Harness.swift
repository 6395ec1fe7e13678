import Foundation

/// What one `stash-bench` run knows: where things are, how many runs, and the rows so far.
struct Harness {
  /// The scratch folder every corpus and child output goes into (removed at the end).
  nonisolated(unsafe) static var scratch = "/tmp"
  /// The compiled peak-memory helper, once built: every child then runs under it.
  nonisolated(unsafe) static var peakHelper: String?

  /// Compiles a C helper from Benchmarks/ with cc, else the toolchain's clang.
  func compile(_ name: String, libraries: [String] = []) throws -> String {
    let output = Harness.scratch + "/" + name
    let source = repo + "/Benchmarks/" + name + ".c"
    do {
      _ = try ChildRun.checked(["cc", "-O2", "-o", output, source] + libraries)
    } catch {
      _ = try ChildRun.checked(["clang", "-O2", "-o", output, source] + libraries)
    }
    return output
  }

  /// The release binaries (`stash`, `stash-tui`).
  var bin: String
  /// The repository (for peers.py and expat-count.c).
  var repo: String
  /// The smaller run of `make bench QUICK=1`.
  var quick: Bool
  /// The Python of the peers' virtual environment, or nil with `peerProblem` saying why.
  var python: String?
  var peerProblem = ""
  /// With `--only WORD`, only the sections whose name holds WORD run.
  var only: String?
  var figures: [Figure] = []
  var peers: [PeerRow] = []

  /// How many timed runs a figure gets.
  var runs: Int { quick ? 3 : 5 }

  var stash: String { bin + "/stash" }
  var tui: String { bin + "/stash-tui" }

  /// Runs `body`; a failure becomes a "not measured" row naming the error, so one broken figure
  /// never costs the others.
  mutating func section(
    _ issue: String, _ name: String, target: String, _ body: (inout Harness) throws -> Void
  ) {
    if let only, !name.localizedCaseInsensitiveContains(only) { return }
    log("· \(name)")
    let start = Measure.now()
    do {
      try body(&self)
    } catch {
      figures.append(.missing(issue, name, target: target, because: "failed: \(error)"))
    }
    log(String(format: "  (%.1f s)", Measure.now() - start))
  }

  /// Runs peers.py in `mode` over `paths`: each run's seconds, and a value per file.
  func peer(_ mode: [String], _ paths: [String]) throws -> (
    times: [Double], values: [Double?], error: String?
  ) {
    guard let python else { throw HarnessError(peerProblem) }
    let list = Harness.scratch + "/peer-paths.txt"
    try Files.write(list, paths.joined(separator: "\n") + "\n")
    let child = try ChildRun.checked(
      ["sh", "-c", "exec \"$0\" \"$@\" < \"\(list)\"", python, repo + "/Benchmarks/peers.py"] + mode)
    guard let object = try JSONSerialization.jsonObject(with: Data(child.stdout.utf8)) as? [String: Any],
      let times = object["times"] as? [Double], let values = object["values"] as? [Any]
    else { throw HarnessError("peers.py \(mode[0]) printed no result") }
    return (times, values.map { ($0 as? NSNumber)?.doubleValue }, object["error"] as? String)
  }
}

/// Progress goes to standard error, so the table on standard output stays clean.
func log(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Megabytes per second.
func rate(_ bytes: Int, _ seconds: Double) -> Double { Double(bytes) / seconds / 1e6 }

/// "1.5x" style ratio text.
func ratioText(_ value: Double) -> String { String(format: "%.2fx", value) }
