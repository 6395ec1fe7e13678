import StashRecover
import Testing

@Suite struct ModuleTests {
  @Test func moduleLinks() {
    _ = StashRecover.self
  }
}
