import Foundation
import StashTestSupport
import Testing

/// Validates GPX text with the real xmllint against the GPX 1.1 schema, Garmin's
/// TrackPointExtension v2 and a small schema for Stash's accuracy, combined by a wrapper schema
/// built in a temporary folder (gpx.xsd takes extensions laxly, so without the wrapper the
/// Garmin elements would go unchecked).
struct GPXSchemaValidator {
  let wrapper: URL

  /// The schemas vendored under `Tests/Schemas` (their README says where they come from).
  static var schemaFolder: URL {
    Fixtures.repositoryRoot.appendingPathComponent("Tests/Schemas")
  }

  /// A validator, or a recorded test failure saying what is missing (never a silent skip).
  static func make() throws -> GPXSchemaValidator? {
    let folder = schemaFolder
    for name in ["gpx.xsd", "TrackPointExtensionv2.xsd"]
    where !FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
      Issue.record("The vendored schema Tests/Schemas/\(name) is missing from the checkout")
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
