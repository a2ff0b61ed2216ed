import Foundation

/// Who holds a row that is being worked on (an outbox lease, a ledger claim being sent):
/// "pid:random", so that a later process given the same pid is not taken for this one.
public enum ProcessOwner {
    /// This process.
    public static let current = "\(getpid()):\(UUID().uuidString.prefix(8))"

    /// Whether the process named by `owner` is still running (same pid, on this machine).
    public static func isAlive(_ owner: String) -> Bool {
        guard let pid = owner.split(separator: ":").first.flatMap({ pid_t($0) }) else { return false }
        // This process (any of its sinks), not an earlier one that had the same pid.
        if pid == getpid() { return owner == current || owner.hasPrefix(current + ":") }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
