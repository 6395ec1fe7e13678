import StashFormat

extension SweepReport {
  /// The report as `stash recover --json` prints it.
  package var json: JSONValue {
    .object([
      ("folder", .string(folder)),
      ("dryRun", .bool(dryRun)),
      ("exitCode", .int(Int(exitCode))),
      ("needsPerson", .bool(needsPerson)),
      ("temporariesRemoved", .array(temporariesRemoved.map { .string($0) })),
      ("captures", .array(captures.map(\.json))),
    ])
  }
}

extension SweepReport.Capture {
  /// One capture's JSON.
  package var json: JSONValue {
    .object([
      ("base", .string(base)),
      ("needsPerson", .bool(events.contains(where: \.needsPerson))),
      ("events", .array(events.map(\.json))),
    ])
  }
}

extension SweepReport.Event {
  /// One event's JSON; `assembly` is null except for a published file.
  package var json: JSONValue {
    .object([
      ("action", .string(action.rawValue)),
      ("names", .array(names.map { .string($0) })),
      ("detail", .string(detail)),
      ("needsPerson", .bool(needsPerson)),
      ("assembly", assembly.map(\.json) ?? .null),
    ])
  }
}

extension SweepReport.AssemblyFacts {
  /// The published file's facts as JSON.
  package var json: JSONValue {
    .object([
      ("kind", .string(kind.rawValue)),
      ("items", .int(items)),
      ("segments", .int(segments)),
      ("unbroken", .bool(unbroken)),
      ("unconfirmedWords", .bool(unconfirmedWords)),
      (
        "gaps",
        .array(
          gaps.map {
            .object([
              ("start", .seconds($0.start)), ("end", .seconds($0.end)),
              ("parts", .array($0.parts.map { .int($0) })),
            ])
          })
      ),
    ])
  }
}
