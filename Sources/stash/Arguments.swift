/// A mistake in how a command was called; the CLI prints it with a hint and exits 2.
struct UsageError: Error {
  var message: String
}

/// A command line split into positionals, flags and options, against the names a command accepts.
struct Arguments {
  var positionals: [String] = []
  var flags: Set<String> = []
  var options: [String: String] = [:]

  /// Parses `--flag`, `--option value` and `--option=value`; `--` ends option parsing.
  init(_ words: some Sequence<String>, flags known: Set<String>, options takingValue: Set<String>)
    throws(UsageError)
  {
    var iterator = words.makeIterator()
    var onlyPositionals = false
    while let word = iterator.next() {
      if onlyPositionals || !word.hasPrefix("-") || word == "-" {
        positionals.append(word)
        continue
      }
      if word == "--" {
        onlyPositionals = true
        continue
      }
      let body = word.drop { $0 == "-" }
      let name: String
      var inlineValue: String?
      if let equals = body.firstIndex(of: "=") {
        name = String(body[..<equals])
        inlineValue = String(body[body.index(after: equals)...])
      } else {
        name = String(body)
      }
      if known.contains(name) {
        guard inlineValue == nil else { throw UsageError(message: "--\(name) takes no value") }
        flags.insert(name)
      } else if takingValue.contains(name) {
        guard let value = inlineValue ?? iterator.next() else {
          throw UsageError(message: "--\(name) needs a value")
        }
        // A second value would silently replace the first (`-e a -e b` is not grep's "either").
        guard options[name] == nil else {
          let option = name.count == 1 ? "-\(name)" : "--\(name)"
          throw UsageError(message: "\(option) is given twice; give it once")
        }
        options[name] = value
      } else {
        throw UsageError(message: "unknown option \(word)")
      }
    }
  }
}

extension Arguments {
  /// Parses the words after the command `name` against the options its entry in the
  /// `CommandCatalogue` names (a flag where it takes no value), `--help` and `-h` included: the
  /// one table gives the help, the man page, the completions and what is accepted.
  init(_ words: some Sequence<String>, for name: String) throws(UsageError) {
    let options = CommandCatalogue.command(name)?.options ?? []
    try self.init(
      words, flags: Set(options.filter { $0.value == nil }.map(\.name)).union(["help", "h"]),
      options: Set(options.filter { $0.value != nil }.map(\.name)))
  }

  /// The output asked for: `--format NAME`, or `json` for `--json`; nil when neither is given.
  /// Every command that prints JSON takes both spellings; they must not disagree.
  func format() throws(UsageError) -> String? {
    let name = options["format"]
    guard flags.contains("json") else { return name }
    if let name, name != "json" {
      throw UsageError(message: "--json and --format \(name) ask for different outputs")
    }
    return "json"
  }

  /// `format()`, checked against the names the command prints.
  func format(among names: [String]) throws(UsageError) -> String? {
    guard let name = try format() else { return nil }
    guard names.contains(name) else {
      throw UsageError(message: "--format takes \(names.joined(separator: " or ")), not '\(name)'")
    }
    return name
  }
}
