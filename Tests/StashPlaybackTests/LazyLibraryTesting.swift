import Foundation
import StashTestSupport
import Testing

/// What the tests of the libraries opened on first use (LazyCodecTests, LazySpeedFilterTests) share.
enum LazyLibraryTesting {
  /// The shared libraries `program`'s ELF names (its DT_NEEDED entries), read with readelf.
  static func needed(_ program: String) throws -> [String] {
    let dynamic = try runProcess("/usr/bin/readelf", ["-d", Fixtures.product(program).path])
    #expect(dynamic.status == 0, "\(dynamic.standardError)")
    return dynamic.standardOutput.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap {
      line in
      line.firstRange(of: "[").flatMap { open in
        line[open.upperBound...].firstRange(of: "]").map { String(line[open.upperBound..<$0.lowerBound]) }
      }
    }
  }

  /// Builds `folder/<soname>`: a real shared library of that soname holding only `source` (C), with
  /// the toolchain's clang, to stand in for a library that lacks the calls.
  static func fakeLibrary(_ soname: String, in folder: URL, source: String) throws -> URL {
    let c = folder.appendingPathComponent("fake.c")
    try source.write(to: c, atomically: true, encoding: .utf8)
    let library = folder.appendingPathComponent(soname)
    let built = try runProcess(
      "clang", ["-shared", "-fPIC", "-Wl,-soname,\(soname)", "-o", library.path, c.path])
    #expect(built.status == 0, "\(built.standardError)")
    return library
  }
}
