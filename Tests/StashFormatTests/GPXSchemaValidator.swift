import Foundation
import StashTestSupport
import Testing

/// Validates GPX text with the real xmllint against the GPX 1.1 schema, Garmin's
/// TrackPointExtension v2 and a small schema for Stash's accuracy, combined by a wrapper schema
/// built in a temporary folder (gpx.xsd takes extensions laxly, so without the wrapper the
/// Garmin elements would go unchecked).
struct GPXSchemaValidator {
  let wrapper: URL

  /// Where the reference schemas are: `$STASH_REFERENCE_SCHEMAS`, else `../shared/reference/schemas`
  /// beside the clone (CI), else two levels up (a git worktree under `wt/`).
  static func schemaFolder() -> URL? {
    var candidates: [URL] = []
    if let given = ProcessInfo.processInfo.environment["STASH_REFERENCE_SCHEMAS"] {
      candidates.append(URL(fileURLWithPath: given))
    }
    let root = Fixtures.repositoryRoot
    candidates.append(root.appendingPathComponent("../shared/reference/schemas").standardized)
    candidates.append(root.appendingPathComponent("../../shared/reference/schemas").standardized)
    return candidates.first {
      FileManager.default.fileExists(atPath: $0.appendingPathComponent("gpx.xsd").path)
        && FileManager.default.fileExists(atPath: $0.appendingPathComponent("TrackPointExtensionv2.xsd").path)
    }
  }

  /// A validator, or a recorded test failure saying what is missing (never a silent skip).
  static func make() throws -> GPXSchemaValidator? {
    guard let folder = schemaFolder() else {
      Issue.record(
        """
        The GPX schemas were not found: put gpx.xsd and TrackPointExtensionv2.xsd in \
        ../shared/reference/schemas beside the repository, or set STASH_REFERENCE_SCHEMAS.
        """)
      return nil
    }
    let which = try runProcess("xmllint", ["--version"])
    guard which.status == 0 else {
      Issue.record("xmllint is not installed (Debian: libxml2-utils); scripts/install-deps installs it")
      return nil
    }
    let scratch = try Fixtures.scratchFolder("stash-gpx-schema")
    let stash = scratch.appendingPathComponent("stash-gpx.xsd")
    try """
    <?xml version="1.0"?>
    <xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:stash:gpx:1"
      elementFormDefault="qualified">
      <xsd:element name="horizontalAccuracy">
        <xsd:simpleType><xsd:restriction base="xsd:decimal"><xsd:minInclusive value="0"/></xsd:restriction></xsd:simpleType>
      </xsd:element>
    </xsd:schema>
    """.write(to: stash, atomically: true, encoding: .utf8)
    let wrapper = scratch.appendingPathComponent("wrapper.xsd")
    try """
    <?xml version="1.0"?>
    <xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:stash:test:wrapper">
      <xsd:import namespace="http://www.topografix.com/GPX/1/1" schemaLocation="\(folder.appendingPathComponent("gpx.xsd").path)"/>
      <xsd:import namespace="http://www.garmin.com/xmlschemas/TrackPointExtension/v2"
        schemaLocation="\(folder.appendingPathComponent("TrackPointExtensionv2.xsd").path)"/>
      <xsd:import namespace="urn:stash:gpx:1" schemaLocation="\(stash.path)"/>
    </xsd:schema>
    """.write(to: wrapper, atomically: true, encoding: .utf8)
    return GPXSchemaValidator(wrapper: wrapper)
  }

  /// xmllint's verdict on `text`: nil when valid, else its complaint.
  func problems(_ text: String) throws -> String? {
    let file = wrapper.deletingLastPathComponent().appendingPathComponent("\(UUID().uuidString).gpx")
    try text.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try runProcess("xmllint", ["--noout", "--nonet", "--schema", wrapper.path, file.path])
    return result.status == 0 ? nil : result.standardError
  }
}
