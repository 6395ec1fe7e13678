/// How a sweep behaves; the CLI's flags map onto these.
public struct SweepOptions: Sendable {
  /// The time now, seconds since 1970 (a parameter so tests control "recent").
  public var now: Double
  /// A capture whose audio or parts changed less than this many seconds ago may still be recording.
  public var recentWindow: Double
  /// Sweep captures that may still be recording too (`--include-recent`).
  public var includeRecent: Bool
  /// Repair audio files with a torn tail (`--repair-audio`).
  public var repairAudio: Bool
  /// Accept the loss that parts kept beside a finished file are the sign of (`--accept-loss`):
  /// note it in the transcript and remove the parts (FORMAT.md §6.6).
  public var acceptLoss = false
  /// Sweep only the captures of these bases, and no leftover temporaries (`stash lint --fix` with
  /// rules selected or ignored: only what the findings kept call for); nil sweeps everything.
  public var only: Set<String>? = nil

  /// Options; by default a capture touched in the last two minutes is left alone.
  public init(now: Double, recentWindow: Double = 120, includeRecent: Bool = false, repairAudio: Bool = false)
  {
    self.now = now
    self.recentWindow = recentWindow
    self.includeRecent = includeRecent
    self.repairAudio = repairAudio
  }
}
