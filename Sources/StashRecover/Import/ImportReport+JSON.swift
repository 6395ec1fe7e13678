import StashFormat

extension ImportReport {
  /// The report as `stash import --json` prints it.
  package var json: JSONValue {
    .object([
      ("target", .string(target)),
      ("dryRun", .bool(dryRun)),
      ("exitCode", .int(Int(exitCode))),
      ("needsPerson", .bool(needsPerson)),
      ("temporariesRemoved", .array(temporariesRemoved.map { .string($0) })),
      ("errors", .array(errors.map { .string($0) })),
      ("notices", .array(notices.map { .string($0) })),
      ("memos", .array(memos.map(\.json))),
      ("skipped", .array(skipped.map(\.json))),
    ])
  }
}

extension ImportReport.Memo {
  /// One memo's JSON.
  package var json: JSONValue {
    .object([
      ("source", .string(source)),
      ("base", .string(base)),
      ("outcome", .string(outcome.rawValue)),
      ("needsPerson", .bool(needsPerson)),
      ("files", .array(copied.map { .string($0) })),
      ("bytes", .int(bytes)),
      ("moved", .bool(moved)),
      ("keptOnSource", .bool(keptOnSource)),
      ("detail", .string(detail)),
    ])
  }
}

extension ImportReport.Skipped {
  /// One skipped name's JSON.
  package var json: JSONValue {
    .object([("source", .string(source)), ("name", .string(name)), ("reason", .string(reason))])
  }
}
