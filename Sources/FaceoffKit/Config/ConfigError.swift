import FaceoffBase
/// A problem with the config file, placed at a line and phrased as what to do about it.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as the user knows it (with `~` for the home directory).
    public var file: String
    public var line: Int?
    public var message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}

/// Every problem found in one config file, in file order.
public struct ConfigErrors: ReportedError, Sendable, Equatable, CustomStringConvertible {
    public var errors: [ConfigError]

    public init(_ errors: [ConfigError]) { self.errors = errors }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

extension ConfigErrors {
    public var exitStatus: Int32 { 2 }
    /// Its own lines: each error with its line in the config.
    public var report: String { description }
}
