import Foundation
import Synchronization

/// Runs a program with an argument list (never through a shell) and a deadline: a program
/// that hangs is killed.
public enum ProcessRunner {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var timedOut: Bool
        /// The program ended, but something it started (outside its process group, where the
        /// deadline's kill doesn't reach) kept its output open past the deadline; Faceoff
        /// stopped waiting for it then.
        public var leftRunning = false
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

    /// - Parameter input: what the program reads on standard input (else /dev/null).
    public static func run(
        _ program: String, _ arguments: [String], environment: [String: String], timeout: Duration, input: [UInt8]? = nil
    ) async throws(Failure) -> Result {
        guard let path = locate(program, environment: environment) else { throw .notFound(program) }
        // A program that exits without reading its input must not take Faceoff with it: the
        // write then fails with EPIPE instead of raising SIGPIPE (children get it back).
        _ = ignoreBrokenPipes
        // posix_spawn, not Foundation's Process: the child gets a process group of its own (so a
        // timeout kills whatever it started too) and default signal handling (a Swift
        // process's children otherwise inherit a mask that blocks SIGTERM). Process also waits
        // for its pipes to close before it reports an exit, which a lingering child can delay.
        var output: [Int32] = [0, 0], errors: [Int32] = [0, 0], feed: [Int32] = [-1, -1]
        guard pipe(&output) == 0, pipe(&errors) == 0, input == nil || pipe(&feed) == 0 else {
            let why = String(cString: strerror(errno))
            for fd in output + errors + feed where fd > 0 { close(fd) }
            throw .cannotStart(program, why)
        }
        let pipes = output + errors + (input == nil ? [] : feed)
        // Close-on-exec: another program started meanwhile (on another thread) must not inherit
        // them, or this one's output would not end until that one does. The child's copies on
        // 1 and 2 are made by dup2, which clears the flag. (Glibc's module has no pipe2.)
        for fd in pipes { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input == nil {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        } else {
            posix_spawn_file_actions_adddup2(&actions, feed[0], 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        for fd in pipes { posix_spawn_file_actions_addclose(&actions, fd) }
        closeOnExecAll()
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        close(output[1])
        close(errors[1])
        if input != nil { close(feed[0]) }
        guard spawned == 0 else {
            close(output[0])
            close(errors[0])
            if input != nil { close(feed[1]) }
            throw .cannotStart(program, String(cString: strerror(spawned)))
        }
        if let input {
            // On a thread of its own: a program that reads slowly (or not at all) blocks only it.
            let writeEnd = feed[1]
            DispatchQueue.global().async {
                input.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let written = write(writeEnd, bytes.baseAddress! + offset, bytes.count - offset)
                        if written > 0 { offset += written } else if written < 0, errno == EINTR { continue } else { break }
                    }
                }
                close(writeEnd)
            }
        }
        let child = pid
        let state = ChildState()
        let milliseconds = Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) {
            // The program, or something it left running with its output open: the whole group goes.
            guard !state.finished.withLock({ $0 }) else { return }
            if !state.exited.withLock({ $0 }) { state.timedOut.withLock { $0 = true } }
            kill(-child, SIGKILL)
            // What escaped the group (setsid) may still hold the output: stop reading it.
            state.abandoned.withLock { $0 = true }
        }
        let (outRead, errRead) = (output[0], errors[0])
        // Cancelled (shutting down): the program goes at once, not at its deadline.
        return await withTaskCancellationHandler {
            await wait(child, outRead, errRead, state: state)
        } onCancel: {
            if !state.finished.withLock({ $0 }) {
                kill(-child, SIGKILL)
                state.abandoned.withLock { $0 = true }
            }
        }
    }

    private static func wait(_ child: pid_t, _ outRead: Int32, _ errRead: Int32, state: ChildState) async -> Result {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
            // One thread of its own per program: its output is read and its exit reaped there,
            // with poll, never on Dispatch's few shared threads, where blocking reads of
            // several programs at once would wait for each other.
            let thread = Thread {
                var out: [UInt8] = [], err: [UInt8] = []
                var open: [(fd: Int32, isOut: Bool)] = [(outRead, true), (errRead, false)]
                var status: Int32 = 0
                var reaped = false
                var buffer = [UInt8](repeating: 0, count: 4096)
                while !open.isEmpty {
                    if !reaped, waitpid(child, &status, WNOHANG) == child {
                        reaped = true
                        state.exited.withLock { $0 = true }
                    }
                    if state.abandoned.withLock({ $0 }) { break }
                    var fds = open.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
                    let ready = poll(&fds, nfds_t(fds.count), 100)
                    if ready < 0, errno != EINTR { break }
                    guard ready > 0 else { continue }
                    var ended: Set<Int32> = []
                    for (index, entry) in open.enumerated() where fds[index].revents != 0 {
                        let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, 4096) }
                        if count > 0 {
                            if entry.isOut { out += buffer[0..<count] } else { err += buffer[0..<count] }
                        } else if count == 0 || errno != EINTR {
                            ended.insert(entry.fd)
                        }
                    }
                    open.removeAll { ended.contains($0.fd) }
                }
                close(outRead)
                close(errRead)
                if !reaped { while waitpid(child, &status, 0) < 0, errno == EINTR {} }
                state.exited.withLock { $0 = true }
                state.finished.withLock { $0 = true }
                let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
                let timedOut = state.timedOut.withLock { $0 }
                continuation.resume(returning: Result(
                    status: exit, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
                    timedOut: timedOut, leftRunning: !timedOut && state.abandoned.withLock { $0 }))
            }
            thread.start()
        }
    }
}

/// Marks every descriptor above stderr close-on-exec, so a program started gets nothing of
/// Faceoff's but its standard streams: a descriptor Faceoff inherited without the flag (its
/// supervisor's pipe, say) would otherwise stay open in a program that outlives it, and
/// whoever waits for that pipe to end would wait for the program too.
private func closeOnExecAll() {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
    for entry in entries {
        guard let fd = Int32(entry), fd > 2 else { continue }
        let flags = fcntl(fd, F_GETFD)
        if flags >= 0, flags & FD_CLOEXEC == 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
    }
}

/// SIGPIPE ignored, once per process.
private let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

/// What the deadline, the cancellation handler and the waiter share about one child.
private final class ChildState: Sendable {
    /// The program has exited.
    let exited = Mutex(false)
    /// ...and its output has ended (nothing it started holds it open).
    let finished = Mutex(false)
    let timedOut = Mutex(false)
    /// Past the deadline (or cancelled): the output is no longer waited for.
    let abandoned = Mutex(false)
}
