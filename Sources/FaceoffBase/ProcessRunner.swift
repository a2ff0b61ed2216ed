import CSpawn
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

    /// How much of each output stream is kept: its last 32 KB. The rest is read and dropped,
    /// so a program that writes without pause costs no memory and still ends at its deadline.
    public static let keptOutput = 32 * 1024

    /// The last `limit` bytes of a stream, and whether any were dropped before them.
    struct Tail {
        let limit: Int
        private(set) var bytes: [UInt8] = []
        private(set) var dropped = false

        init(limit: Int) { self.limit = limit }

        mutating func append(_ chunk: ArraySlice<UInt8>) {
            bytes += chunk
            // Trimmed in batches, so each byte is moved about once.
            if bytes.count > 2 * limit {
                bytes.removeFirst(bytes.count - limit)
                dropped = true
            }
        }

        /// The text kept, "…" first when the start was dropped.
        var text: String {
            guard dropped || bytes.count > limit else { return String(decoding: bytes, as: UTF8.self) }
            return "…" + String(decoding: bytes.suffix(limit), as: UTF8.self)
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
    /// - Parameter keep: how much of each output stream is kept (its end).
    public static func run(
        _ program: String, _ arguments: [String], environment: [String: String], timeout: Duration, input: [UInt8]? = nil,
        keep: Int = keptOutput
    ) async throws(Failure) -> Result {
        guard let path = locate(program, environment: environment) else { throw .notFound(program) }
        // A program that exits without reading its input must not take Faceoff with it: the
        // write then fails with EPIPE instead of raising SIGPIPE (children get it back).
        _ = ignoreBrokenPipes
        // posix_spawn, not Foundation's Process: the child gets a process group of its own (so a
        // timeout kills whatever it started too) and default signal handling (a Swift
        // process's children otherwise inherit a mask that blocks SIGTERM). Process also waits
        // for its pipes to close before it reports an exit, which a lingering child can delay.
        var output: [Int32] = [0, 0]
        var errors: [Int32] = [0, 0]
        var feed: [Int32] = [-1, -1]
        // Close-on-exec from the start: another program started meanwhile (on another thread)
        // must not inherit them, or this one's output would not end until that one does. The
        // child's copies on 0, 1 and 2 are made by dup2, which clears the flag.
        guard faceoff_pipe_cloexec(&output) == 0, faceoff_pipe_cloexec(&errors) == 0, input == nil || faceoff_pipe_cloexec(&feed) == 0
        else {
            let why = String(cString: strerror(errno))
            for fd in output + errors + feed where fd > 0 { close(fd) }
            throw .cannotStart(program, why)
        }
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
        // Nothing of Faceoff's but the standard streams: a descriptor Faceoff inherited without
        // the flag (its supervisor's pipe, say) would otherwise stay open in a program that
        // outlives it, and whoever waits for that pipe to end would wait for the program too.
        // Closed in the child only; the caller's descriptors are never touched (Foundation's
        // Process, elsewhere in the same process, relies on a socket its child inherits).
        faceoff_spawn_close_from(&actions, 3)
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
        var spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        // "Text file busy": the program is being written this instant (an editor saving a
        // script, or any process holding it open for writing). A moment later it runs.
        for _ in 0..<10 where spawned == ETXTBSY {
            try? await Task.sleep(for: .milliseconds(50))
            spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        }
        close(output[1])
        close(errors[1])
        if input != nil { close(feed[0]) }
        guard spawned == 0 else {
            close(output[0])
            close(errors[0])
            if input != nil { close(feed[1]) }
            throw .cannotStart(program, String(cString: strerror(spawned)))
        }
        let child = pid
        let state = ChildState()
        let io = ChildIO(output: output[0], errors: errors[0], input: input.map { (feed[1], $0) }, keep: keep)
        let deadline = ContinuousClock.now.advanced(by: timeout)
        // Cancelled (shutting down): the program goes at once, not at its deadline.
        return await withTaskCancellationHandler {
            await wait(child, io, deadline: deadline, state: state)
        } onCancel: {
            if !state.finished.withLock({ $0 }) {
                kill(-child, SIGKILL)
                state.abandoned.withLock { $0 = true }
            }
        }
    }

    /// The parent's ends of a program's pipes, and what it is to read on its stdin.
    struct ChildIO: Sendable {
        let output: Int32
        let errors: Int32
        let input: (fd: Int32, bytes: [UInt8])?
        let keep: Int
    }

    /// One thread of its own per program, never Dispatch's few shared threads (where blocking
    /// work of several programs, or of anything else in the process, made a deadline fire
    /// seconds late): it writes the input, reads the output, keeps the deadline and reaps the
    /// program, all in one poll loop. At the deadline the process group is killed and the
    /// output no longer waited for (what detached itself with setsid may hold it open).
    private static func wait(_ child: pid_t, _ io: ChildIO, deadline: ContinuousClock.Instant, state: ChildState) async -> Result {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
            let thread = Thread {
                var out = Tail(limit: io.keep)
                var err = Tail(limit: io.keep)
                var reading: [(fd: Int32, isOut: Bool)] = [(io.output, true), (io.errors, false)]
                var pending = io.input?.bytes[...] ?? []
                var writeEnd = io.input?.fd
                if let fd = writeEnd {
                    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                    if pending.isEmpty {
                        close(fd)
                        writeEnd = nil
                    }
                }
                var status: Int32 = 0
                var reaped = false
                var buffer = [UInt8](repeating: 0, count: 65_536)
                // Until the output has ended and the program has exited (one may come long
                // before the other), or the deadline.
                while !reading.isEmpty || !reaped {
                    if !reaped, waitpid(child, &status, WNOHANG) == child {
                        reaped = true
                        state.exited.withLock { $0 = true }
                    }
                    if ContinuousClock.now >= deadline, !state.abandoned.withLock({ $0 }) {
                        if !reaped { state.timedOut.withLock { $0 = true } }
                        kill(-child, SIGKILL)
                        state.abandoned.withLock { $0 = true }
                    }
                    if state.abandoned.withLock({ $0 }) { break }
                    if reading.isEmpty, writeEnd == nil {
                        if !reaped { usleep(20_000) }
                        continue
                    }
                    var fds = reading.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
                    if let fd = writeEnd { fds.append(pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)) }
                    let ready = poll(&fds, nfds_t(fds.count), 50)
                    if ready < 0, errno != EINTR { break }
                    guard ready > 0 else { continue }
                    if let fd = writeEnd, fds[reading.count].revents != 0 {
                        // A program that exits without reading it: EPIPE (SIGPIPE is ignored).
                        let written = pending.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                        if written > 0 { pending = pending.dropFirst(written) }
                        if pending.isEmpty || (written < 0 && errno != EAGAIN && errno != EINTR) {
                            close(fd)
                            writeEnd = nil
                        }
                    }
                    var ended: Set<Int32> = []
                    for (index, entry) in reading.enumerated() where fds[index].revents != 0 {
                        let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                        if count > 0 {
                            if entry.isOut { out.append(buffer[0..<count]) } else { err.append(buffer[0..<count]) }
                        } else if count == 0 || errno != EINTR {
                            ended.insert(entry.fd)
                        }
                    }
                    reading.removeAll { ended.contains($0.fd) }
                }
                if let fd = writeEnd { close(fd) }
                close(io.output)
                close(io.errors)
                if !reaped { while waitpid(child, &status, 0) < 0, errno == EINTR {} }
                state.exited.withLock { $0 = true }
                state.finished.withLock { $0 = true }
                let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
                let timedOut = state.timedOut.withLock { $0 }
                continuation.resume(
                    returning: Result(
                        status: exit, stdout: out.text, stderr: err.text,
                        timedOut: timedOut, leftRunning: !timedOut && state.abandoned.withLock { $0 }))
            }
            thread.start()
        }
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
