import Foundation
import Synchronization

/// Runs a program with an argument list (never through a shell) and a deadline: a program
/// that hangs is terminated, then killed.
public enum ProcessRunner {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var timedOut: Bool
    }

    public enum Failure: Error, Sendable, CustomStringConvertible {
        case notFound(String)
        case cannotStart(String, String)
        public var description: String {
            switch self {
            case .notFound(let program): return "\(program) is not installed (or not on PATH)"
            case .cannotStart(let program, let why): return "cannot run \(program): \(why)"
            }
        }
    }

    /// The program's full path, looked up on `PATH` as a shell would.
    public static func locate(_ program: String, environment: [String: String]) -> String? {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    public static func run(
        _ program: String, _ arguments: [String], environment: [String: String], timeout: Duration
    ) async throws(Failure) -> Result {
        guard let path = locate(program, environment: environment) else { throw .notFound(program) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let box = ProcessBox(process)
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                box.process.terminationHandler = { _ in continuation.resume() }
                do { try box.process.run() } catch {
                    box.process.terminationHandler = nil
                    continuation.resume(throwing: error)
                    return
                }
                // The deadline: SIGTERM, then SIGKILL a second later.
                Task {
                    try? await Task.sleep(for: timeout)
                    guard !box.finished.withLock({ $0 }), box.process.isRunning else { return }
                    box.timedOut.withLock { $0 = true }
                    box.process.terminate()
                    try? await Task.sleep(for: .seconds(1))
                    if box.process.isRunning { kill(box.process.processIdentifier, SIGKILL) }
                }
            }
        } catch {
            throw .cannotStart(program, error.localizedDescription)
        }
        box.finished.withLock { $0 = true }
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return Result(status: process.terminationStatus, stdout: stdout, stderr: stderr, timedOut: box.timedOut.withLock { $0 })
    }
}

/// `Process` is not Sendable; the deadline task only signals it.
private final class ProcessBox: @unchecked Sendable {
    let process: Process
    let timedOut = Mutex(false)
    let finished = Mutex(false)
    init(_ process: Process) { self.process = process }
}
