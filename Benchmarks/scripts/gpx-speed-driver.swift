// The GPX benchmark's driver, compiled by gpx-speed.sh together with StashFormat's sources into
// one optimised executable (the package gets no benchmark target).
//   generate DIR MEGABYTES   writes a route set of ~1 MB walks with GPXWriter
//   read FILE...             reads every file with GPXReader; prints
//                            "<points> <bytes> <wall seconds> <CPU seconds>"
#if canImport(Glibc)
  import Glibc
#endif

func now() -> Double {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// A walk of `count` points a second apart, with every field the phone writes.
func walk(index: Int, count: Int) -> GPXDocument {
  var state = UInt64(index) &* 0x9E37_79B9_7F4A_7C15 | 1
  func random() -> Double {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    return Double(state >> 11) / Double(1 << 53)
  }
  var latitude = 40 + random() * 20
  var longitude = -10 + random() * 30
  var elevation = random() * 500
  var time = 1_780_000_000.0 + Double(index) * 86_400
  var points: [GPXPoint] = []
  points.reserveCapacity(count)
  for _ in 0..<count {
    latitude += (random() - 0.5) * 0.0002
    longitude += (random() - 0.5) * 0.0002
    elevation += (random() - 0.5) * 2
    time += 1
    var point = GPXPoint(
      latitude: (latitude * 1e7).rounded() / 1e7, longitude: (longitude * 1e7).rounded() / 1e7,
      elevation: (elevation * 10).rounded() / 10, time: time + Double(Int(random() * 1000)) / 1000)
    point.speed = (random() * 300).rounded() / 100
    point.course = (random() * 3600).rounded() / 10
    point.horizontalAccuracy = (random() * 200).rounded() / 10 + 3
    points.append(point)
  }
  let half = count / 2
  let track = GPXTrack(
    name: "Walk \(index)",
    segments: [GPXSegment(points: Array(points[..<half])), GPXSegment(points: Array(points[half...]))])
  return GPXDocument(
    creator: "stash benchmark", metadata: GPXMetadata(name: "Walk \(index)", time: time), tracks: [track])
}

let arguments = CommandLine.arguments
switch arguments.count > 1 ? arguments[1] : "" {
case "generate":
  let folder = arguments[2]
  let target = Int(arguments[3])! * 1_000_000
  var written = 0
  var index = 0
  while written < target {
    let text = GPXWriter.serialize(walk(index: index, count: 2_500))
    let path = "\(folder)/walk\(index)_track.gpx"
    let file = fopen(path, "w")!
    fputs(text, file)
    fclose(file)
    written += text.utf8.count
    index += 1
  }
  print("\(index) files, \(written) bytes")
case "read":
  var points = 0
  var bytes = 0
  var damaged = 0
  let start = now()
  for path in arguments.dropFirst(2) {
    let document = try GPXReader.read(path: path)
    points += document.pointCount
    if document.isDamaged { damaged += 1 }
    bytes += Int(try ReadOnlyFile(path: path).size)
  }
  let seconds = now() - start
  var usage = rusage()
  getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  let cpu =
    Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
    + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
  if damaged > 0 { fputs("\(damaged) files read as damaged\n", stderr) }
  print("\(points) \(bytes) \(seconds) \(cpu)")
default:
  fputs("usage: gpx-speed-driver generate DIR MEGABYTES | read FILE...\n", stderr)
  exit(2)
}
