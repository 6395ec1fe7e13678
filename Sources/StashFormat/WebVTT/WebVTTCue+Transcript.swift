/// What a transcript view, search and export need from a cue.
extension WebVTTCue {
  /// The class Stash puts on words the speech engine never confirmed.
  public static let unconfirmedClass = "unconfirmed"

  /// The cue's text with tags stripped and references decoded; ruby text (`<rt>`) is left out, as
  /// in the spec's chapter-title rule, so the base text reads once.
  public var plainText: String { text(keeping: []) }

  /// The cue's text as SRT writes it: the plain text with the `<i>`, `<b>` and `<u>` that SRT
  /// players show kept as tags; every other tag is stripped as in `plainText`.
  public var srtText: String { text(keeping: [.italic, .bold, .underline]) }

  /// The plain text with the spans of `kept` written as bare tags (no classes or annotation).
  func text(keeping kept: Set<WebVTTNode.Kind>) -> String {
    var out = ""
    func walk(_ nodes: [WebVTTNode]) {
      for node in nodes {
        switch node {
        case .text(let text): out += text
        case .timestamp: break
        case .span(let span):
          guard span.kind != .rubyText else { continue }
          let tag = kept.contains(span.kind) ? span.kind.rawValue : nil
          if let tag { out += "<\(tag)>" }
          walk(span.children)
          if let tag { out += "</\(tag)>" }
        }
      }
    }
    walk(nodes)
    return out
  }

  /// The text in runs of one confirmation state and start time, in order; adjacent text with the
  /// same state and time is merged.
  public var runs: [WebVTTRun] {
    var runs: [WebVTTRun] = []
    var time = startTime
    func walk(_ nodes: [WebVTTNode], confirmed: Bool) {
      for node in nodes {
        switch node {
        case .text(let text):
          if let last = runs.last, last.confirmed == confirmed, last.startTime == time {
            runs[runs.count - 1].text += text
          } else {
            runs.append(WebVTTRun(text: text, confirmed: confirmed, startTime: time))
          }
        case .timestamp(let t):
          time = t
        case .span(let span):
          guard span.kind != .rubyText else { continue }
          let unconfirmed = span.kind == .class && span.classes.contains(Self.unconfirmedClass)
          walk(span.children, confirmed: confirmed && !unconfirmed)
        }
      }
    }
    walk(nodes, confirmed: true)
    return runs.filter { !$0.text.isEmpty }
  }

  /// The words, split at whitespace, each with its time (from the inline timestamps) and whether
  /// it is confirmed. A word split by a tag (`wo<b>rd</b>`) stays one word, with the first part's
  /// time and confirmed only if every part is.
  public var words: [WebVTTWord] {
    var words: [WebVTTWord] = []
    var inWord = false
    for run in runs {
      for scalar in run.text.unicodeScalars {
        if scalar.properties.isWhitespace {
          inWord = false
        } else if inWord {
          words[words.count - 1].text.unicodeScalars.append(scalar)
          if !run.confirmed { words[words.count - 1].confirmed = false }
        } else {
          words.append(
            WebVTTWord(
              text: String(scalar), startTime: run.startTime, endTime: endTime, confirmed: run.confirmed))
          inWord = true
        }
      }
    }
    for i in words.indices.dropLast() { words[i].endTime = words[i + 1].startTime }
    return words
  }

  /// The plain text with each stretch of unconfirmed words in braces, `and then we walked {back to
  /// the car}`, so that the marking survives plain text (`stash show`, `export --to txt` and `md`);
  /// white space at a stretch's ends stays outside its braces.
  public var markedText: String {
    var out = ""
    var stretch = ""
    func close() {
      let scalars = stretch.unicodeScalars
      if let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) {
        let last = scalars.index(after: scalars.lastIndex(where: { !$0.properties.isWhitespace })!)
        out += stretch[..<first] + "{" + stretch[first..<last] + "}" + stretch[last...]
      } else {
        out += stretch
      }
      stretch = ""
    }
    for run in runs {
      if run.confirmed {
        close()
        out += run.text
      } else {
        stretch += run.text
      }
    }
    close()
    return out
  }

  /// Whether any of the cue's text is unconfirmed.
  public var hasUnconfirmedText: Bool { runs.contains { !$0.confirmed } }
}
