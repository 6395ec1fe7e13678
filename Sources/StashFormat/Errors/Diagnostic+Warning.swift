extension Diagnostic {
  /// The warning for a file used though damaged, as `stash search` and `stash export` give it:
  /// the file (and its line, or the byte where there is no line), what is wrong, the code lint
  /// reports it under, and what was done (`searched what it holds`).
  package func warning(file path: String, done: String) -> String {
    let line = location.line.map { ":\($0)" } ?? ""
    let byte = location.line == nil ? location.offset.map { " (at byte \($0))" } ?? "" : ""
    return "\(PathText.escaped(path))\(line): \(message)\(byte) [\(code.rawValue)]; \(done)"
  }
}
