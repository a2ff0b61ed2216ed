import FaceoffKit
import FaceoffNHL
import Foundation
import Synchronization
import Testing

/// A program started in the background: its stdout lines as they come, killed at the end.
final class Background: @unchecked Sendable {
    let process = Process()
    private let lines = Mutex<[String]>([])
    private let partial = Mutex(Data())
    private let errors = Mutex(Data())
    /// The status, and whether a signal ended it, once the termination handler has run.
    private let exited = Mutex<(status: Int32, signalled: Bool)?>(nil)
    /// The end of stdout was read: `output` has every line the process wrote.
    private let outputEnded = Mutex(false)

    init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        // Each pipe is read by a blocking loop on a thread of its own, not a readabilityHandler:
        // tearing down Foundation's dispatch read source races the descriptor's close, which
        // crashed the test process in libdispatch's event loop now and then
        // (swift-corelibs-foundation #5507).
        Self.drain(err.fileHandleForReading) { [weak self] data in
            guard let data else { return }
            self?.errors.withLock { $0.append(data) }
        }
        process.terminationHandler = { [weak self] process in
            self?.exited.withLock { $0 = (process.terminationStatus, process.terminationReason == .uncaughtSignal) }
        }
        Self.drain(out.fileHandleForReading) { [weak self] data in
            guard let self else { return }
            guard let data else {
                outputEnded.withLock { $0 = true }
                return
            }
            partial.withLock { buffer in
                buffer.append(data)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    lines.withLock { $0.append(line) }
                }
            }
        }
        try process.run()
    }

    /// Reads `handle` to its end on a thread of its own, handing each chunk to `body`, then
    /// nil. The thread holds the handle, so its descriptor stays open until the end is read.
    private static func drain(_ handle: FileHandle, _ body: @escaping @Sendable (Data?) -> Void) {
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(handle.fileDescriptor, &buffer, buffer.count)
                if count > 0 {
                    body(Data(buffer[0..<count]))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            body(nil)
        }
        thread.start()
    }

    var output: [String] { lines.withLock { $0 } }
    var stderr: String { String(decoding: errors.withLock { $0 }, as: UTF8.self) }
    /// The exit status (the signal's number for a process killed by one), as soon as the
    /// kernel has it: read without reaping, since Foundation's monitor, which reaps the child
    /// and calls the termination handler, can be seconds late in a loaded test process.
    var status: Int32? { ending?.status }

    /// Whether a signal ended it (its status is then the signal's number); nil while running.
    /// Foundation's `terminationReason` must not be asked before its own monitor saw the end.
    var signalled: Bool? { ending?.signalled }

    private var ending: (status: Int32, signalled: Bool)? {
        if let ended = exited.withLock({ $0 }) { return ended }
        var info = siginfo_t()
        guard waitid(P_PID, id_t(process.processIdentifier), &info, WEXITED | WNOHANG | WNOWAIT) == 0,
            info._sifields._sigchld.si_pid == process.processIdentifier
        else { return exited.withLock { $0 } }
        return (info._sifields._sigchld.si_status, info.si_code != CLD_EXITED)
    }

    /// Waits (up to `timeout`) for the process to end; its status, or nil if it did not.
    func exit(within timeout: TimeInterval) async -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let status { return status }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return status
    }

    /// Waits (up to `timeout`) for the process to end and its stdout to be read to the end, so
    /// that `output` is all it printed (a line written just before a kill may still be in the
    /// pipe when the exit is seen). The end may never come while another program the test
    /// runner started at that moment holds a copy of the pipe (Foundation's Process leaves
    /// it inheritable); a second with nothing more to read after the exit counts as the end.
    func finished(within timeout: TimeInterval) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var exitedAt: Date?
        var read = (lines: output.count, partial: partial.withLock { $0.count })
        while Date() < deadline {
            if status != nil, outputEnded.withLock({ $0 }) { return true }
            let now = (lines: output.count, partial: partial.withLock { $0.count })
            if now != read { exitedAt = nil }
            read = now
            if status != nil {
                exitedAt = exitedAt ?? Date()
                if let exitedAt, Date().timeIntervalSince(exitedAt) >= 1 { return true }
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    func signal(_ number: Int32) { Glibc.kill(process.processIdentifier, number) }

    /// Waits (up to `timeout`) until `condition` holds for the lines so far.
    func wait(timeout: TimeInterval = 60, until condition: ([String]) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(output) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition(output)
    }

    func kill() { Glibc.kill(process.processIdentifier, SIGKILL) }
}
