extension PartsFolder {
  /// The parts folder in `stash ls --json`.
  package func writeJSON(to out: inout some JSONOutput) {
    out.beginObject()
    out.key("name")
    out.string(name)
    out.key("transcriptParts")
    out.int(transcriptParts.count)
    out.key("routeParts")
    out.int(routeParts.count)
    out.key("routeWithdrawn")
    out.bool(routeWithdrawn)
    out.key("strangers")
    out.strings(strangers)
    out.key("unreadable")
    out.string(unreadable)
    out.endObject()
  }
}
