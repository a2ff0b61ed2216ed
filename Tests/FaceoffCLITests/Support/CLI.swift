import FaceoffBase
import FaceoffHTTP
import FaceoffKit
import FaceoffNHL
import Foundation
import Testing

/// Runs the built `faceoff` binary as a user would, in a throwaway home directory.
struct CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url = url.deletingLastPathComponent()
        }
        return url
    }()

    /// The executable sits beside the test bundle in the build folder. FACEOFF_TEST_BINARY
    /// names another one, e.g. `.build/release/faceoff` to check how a release build is linked.
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["FACEOFF_TEST_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("faceoff")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug/faceoff")
    }()

    static let mirror = root.appendingPathComponent("Tests/Fixtures/mirror/v1")

    let home: URL

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("faceoff-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: home) }

    var configFile: URL { home.appendingPathComponent(".config/faceoff/config.toml") }

    /// A copy of the project's mirror in this home (`…/mirror/v1`), for a test to take files
    /// out of or put answers in, as an API changes or goes.
    func copyMirror() throws -> URL {
        let mirror = home.appendingPathComponent("mirror/v1")
        try FileManager.default.createDirectory(at: mirror.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.mirror, to: mirror)
        return mirror
    }

    /// - Parameter executable: what to run instead of `faceoff` (`script` to give it a terminal).
    func run(_ arguments: [String], executable: String? = nil, environment extra: [String: String] = [:]) async throws -> Result {
        var environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "NO_COLOR": "1"]
        environment.merge(extra) { $1 }
        return try await Self.execute(executable ?? Self.binary.path, arguments, environment: environment)
    }

    /// Runs `script` in Python with `db`, Python's own sqlite3 connection to the store at
    /// `path` (a reader and writer independent of Faceoff's), committing at the end.
    static func sqlite(_ path: String, _ script: String) async throws -> Result {
        try await execute(
            "/usr/bin/python3", ["-c", "import sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\n" + script + "\ndb.commit()\n", path])
    }

    /// Runs a program to its end and collects its output and status.
    ///
    /// It waits without holding a thread: tests run on the few threads of the cooperative pool
    /// (two on a 2-core machine), and a test that blocked one for a long command stalled every
    /// other test in the process, whose own timeouts then expired. The pipes are read, and the
    /// exit awaited, on Dispatch's threads.
    static func execute(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) async throws -> Result {
        await slots.acquire()
        do {
            let result = try await executeNow(executable, arguments, environment: environment)
            await slots.release()
            return result
        } catch {
            await slots.release()
            throw error
        }
    }

    /// How many programs the tests run at once: one more than the cores. With every test free
    /// to start programs, fifty at once overloaded two cores and once crashed libdispatch's
    /// event loop (a known bug under many concurrent child processes and their pipes).
    static let slots = Slots(ProcessInfo.processInfo.activeProcessorCount + 1)

    /// Through FaceoffKit's `ProcessRunner` (posix_spawn), not Foundation's `Process`, whose
    /// `run()` in Swift 6.3.1 reads past a buffer while listing /proc/self/fd and crashed the
    /// test process once in CI (fixed upstream after 6.3.1). It waits on a Dispatch thread.
    private static func executeNow(_ executable: String, _ arguments: [String], environment: [String: String]?) async throws -> Result {
        let result = try await ProcessRunner.run(
            executable, arguments, environment: environment ?? ProcessInfo.processInfo.environment, timeout: .seconds(900), keep: 1 << 28)
        return Result(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }
}

/// A counting semaphore that waits without holding a thread.
actor Slots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) { free = count }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}
