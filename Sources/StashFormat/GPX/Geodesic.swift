#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Distances on the WGS84 ellipsoid, the datum GPX coordinates are in.
package enum Geodesic {
  /// WGS84 semi-major axis, metres.
  static let equatorialRadius = 6_378_137.0
  /// WGS84 flattening.
  static let flattening = 1 / 298.257_223_563
  /// The IUGG mean Earth radius, metres, for the spherical fallback.
  static let meanRadius = 6_371_008.8

  /// Metres along the ellipsoid between two points, by Vincenty's inverse formula (accurate to
  /// well under a millimetre). For nearly antipodal points, where Vincenty does not converge,
  /// the great-circle distance on the mean sphere is used instead (within about 0.5%).
  package static func distance(
    latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double
  ) -> Double {
    if latitude1 == latitude2 && longitude1 == longitude2 { return 0 }
    let a = equatorialRadius
    let f = flattening
    let b = a * (1 - f)
    let radians = Double.pi / 180
    let l = (longitude2 - longitude1) * radians
    let u1 = atan((1 - f) * tan(latitude1 * radians))
    let u2 = atan((1 - f) * tan(latitude2 * radians))
    let sinU1 = sin(u1)
    let cosU1 = cos(u1)
    let sinU2 = sin(u2)
    let cosU2 = cos(u2)
    var lambda = l
    for _ in 0..<200 {
      let sinLambda = sin(lambda)
      let cosLambda = cos(lambda)
      let crossTerm = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
      let sinSigma = ((cosU2 * sinLambda) * (cosU2 * sinLambda) + crossTerm * crossTerm).squareRoot()
      if sinSigma == 0 { return 0 }
      let cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
      let sigma = atan2(sinSigma, cosSigma)
      let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
      let cosSquaredAlpha = 1 - sinAlpha * sinAlpha
      let cos2SigmaM = cosSquaredAlpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cosSquaredAlpha : 0
      let c = f / 16 * cosSquaredAlpha * (4 + f * (4 - 3 * cosSquaredAlpha))
      let previous = lambda
      lambda =
        l + (1 - c) * f * sinAlpha
        * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
      if abs(lambda - previous) < 1e-12 {
        let uSquared = cosSquaredAlpha * (a * a - b * b) / (b * b)
        let bigA = 1 + uSquared / 16384 * (4096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
        let bigB = uSquared / 1024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
        let deltaSigma =
          bigB * sinSigma
          * (cos2SigmaM + bigB / 4
            * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) - bigB / 6 * cos2SigmaM
              * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        return b * bigA * (sigma - deltaSigma)
      }
    }
    return greatCircleDistance(
      latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2)
  }

  /// Metres along a great circle of the mean Earth sphere (haversine).
  package static func greatCircleDistance(
    latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double
  ) -> Double {
    let radians = Double.pi / 180
    let dLatitude = (latitude2 - latitude1) * radians
    let dLongitude = (longitude2 - longitude1) * radians
    let h =
      sin(dLatitude / 2) * sin(dLatitude / 2) + cos(latitude1 * radians) * cos(latitude2 * radians)
      * sin(dLongitude / 2) * sin(dLongitude / 2)
    return 2 * meanRadius * asin(min(1, h.squareRoot()))
  }
}
