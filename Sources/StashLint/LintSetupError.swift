/// A lint setting that cannot be used: a configuration file or option that is malformed, names
/// no rule, or a rule where files go; or rule pages that cannot be written. The message names the
/// file and line, or the option, and says what fits. The CLI prints it as a usage error (exit 2).
package struct LintSetupError: Error, Sendable {
  package var message: String

  package init(message: String) {
    self.message = message
  }
}
