import Foundation

extension Harness {
  /// The peers' virtual environment, under the user's cache folder so a rerun skips pip: made and
  /// filled when missing; when that fails, every peer row says why instead of the run failing.
  mutating func preparePeers() {
    let cache = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? (NSHomeDirectory() + "/.cache")
    let venv = cache + "/stash-bench/venv"
    let python = venv + "/bin/python"
    let probe = ["import mutagen, webvtt, gpxpy"]
    if let ok = try? ChildRun.run([python, "-c"] + probe), ok.status == 0 {
      self.python = python
      return
    }
    log("  setting up the peers: python3 -m venv \(venv); pip install mutagen webvtt-py gpxpy")
    do {
      try? FileManager.default.createDirectory(
        atPath: cache + "/stash-bench", withIntermediateDirectories: true)
      _ = try ChildRun.checked(["python3", "-m", "venv", venv])
      _ = try ChildRun.checked(
        [
          python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "mutagen", "webvtt-py",
          "gpxpy",
        ])
      _ = try ChildRun.checked([python, "-c"] + probe)
      self.python = python
    } catch {
      peerProblem = "peers not installable here (\(error)); python3-venv and PyPI access are needed"
      log("  " + peerProblem)
    }
  }

  /// The versions of the peers, for the report.
  func peerVersions() -> String {
    guard let python else { return peerProblem }
    let script =
      "import importlib.metadata as m; print(', '.join(p + ' ' + m.version(p) for p in ('mutagen','webvtt-py','gpxpy')))"
    let ffprobe =
      (try? ChildRun.run(["ffprobe", "-version"]))?.stdout.split(separator: "\n").first ?? "ffprobe ?"
    let versions = (try? ChildRun.run([python, "-c", script]))?.stdout.trimmingCharacters(
      in: .whitespacesAndNewlines)
    return (versions ?? "?") + "; " + ffprobe.split(separator: " ").prefix(3).joined(separator: " ")
  }
}

extension Harness {
  /// Runs the Python peer in `mode` over `subset` and adds a row comparing its speed and its per-file
  /// counts (`what`, e.g. "cue count") with ours.
  mutating func comparePeer(
    task: String, peer name: String, mode: String, subset: [String], bytes subsetBytes: Int,
    input: String, ours ourCounts: [Int], ourRuns: Runs, what: String
  ) {
    do {
      let theirs = try peer([mode, quick ? "1" : "3"], subset)
      let theirRate = Runs(values: theirs.times.map { rate(subsetBytes, $0) })
      var differ = 0
      for (mine, answer) in zip(ourCounts, theirs.values) where answer.map({ Int($0) }) != mine {
        differ += 1
      }
      var agreement =
        differ == 0
        ? "same \(what) in all \(subset.count) files"
        : "\(what) differs in \(differ) of \(subset.count) files"
      if let error = theirs.error { agreement += "; first error: \(error.prefix(120))" }
      peers.append(
        PeerRow(
          task: task, peer: name, input: input, theirs: theirRate.text(1, unit: " MB/s"),
          ours: ourRuns.text(0, unit: " MB/s"),
          ratio: ratioText(ourRuns.median / theirRate.median) + " faster",
          agreement: agreement))
    } catch {
      peers.append(
        PeerRow(
          task: task, peer: name, input: input, theirs: "—", ours: ourRuns.text(0, unit: " MB/s"),
          ratio: "—", agreement: "\(error)"))
    }
  }
}
