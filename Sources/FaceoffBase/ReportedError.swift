/// An error the user reads: what it says, and the exit status a command ends with when it is
/// the reason (1: the work could not be done; 2: the call, the config or a template is wrong).
/// Each error type says so where it is declared, so the CLI's report never lists them.
public protocol ReportedError: Error, CustomStringConvertible {
    var exitStatus: Int32 { get }
    /// The line for stderr: "faceoff: " and the description, unless the error words it all.
    var report: String { get }
}

extension ReportedError {
    public var exitStatus: Int32 { 1 }
    public var report: String { "faceoff: \(description)" }
}

/// A mistake in how a command was called: exit status 2.
public struct UsageError: ReportedError, Sendable {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
    public var exitStatus: Int32 { 2 }
}

/// Something went wrong while doing the work: exit status 1.
public struct RuntimeError: ReportedError, Sendable {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
