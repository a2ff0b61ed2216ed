import Foundation
import Logging

/// The log's one setup per process: the first command to ask sets the level and the form.
public enum LoggingBootstrap {
    nonisolated(unsafe) private static var done = false
    private static let lock = NSLock()

    /// - Parameter journal: stderr goes to the systemd journal, which stamps the time itself
    ///   and reads a `<N>` syslog priority at the start of each line.
    public static func once(level: Logger.Level, journal: Bool = false) {
        lock.withLock {
            guard !done else { return }
            done = true
            LoggingSystem.bootstrap { label in
                if journal { return LogLineHandler(label: label, logLevel: level) }
                return LogLineHandler(label: label, logLevel: level, timestamped: true)
            }
        }
    }
}

/// One line per message on stderr, the message first and then its keys. For the journal,
/// "<priority>label: message key=value ...", as journald shows best: no timestamp of our own,
/// the level as a syslog priority. On a terminal, "2026-11-25T19:33:32Z info label: message
/// key=value ...": every time in UTC, as the log's own keys write them.
public struct LogLineHandler: LogHandler {
    let label: String
    public var logLevel: Logger.Level
    var timestamped = false
    public var metadata: Logger.Metadata = [:]

    public init(label: String, logLevel: Logger.Level, timestamped: Bool = false) {
        self.label = label
        self.logLevel = logLevel
        self.timestamped = timestamped
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let priority: Int
        let message = event.message
        let explicit = event.metadata
        switch event.level {
        case .trace, .debug: priority = 7
        case .info: priority = 6
        case .notice: priority = 5
        case .warning: priority = 4
        case .error: priority = 3
        case .critical: priority = 2
        }
        let all = metadata.merging(explicit ?? [:]) { $1 }
        let facts = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let prefix = timestamped ? "\(Date().formatted(.iso8601)) \(event.level) " : "<\(priority)>"
        let text = "\(prefix)\(label): \(message)\(facts.isEmpty ? "" : " " + facts)\n"
        FileHandle.standardError.write(Data(text.utf8))
    }
}
