import StashFormat

/// StashRecover holds every write stash makes to a memo folder: the crash-recovery sweep, titles,
/// deletion, audio repair. Each write is atomic and touches only names the format defines.
public enum StashRecover {}
