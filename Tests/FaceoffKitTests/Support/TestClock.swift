import FaceoffDaemon
import FaceoffKit
import Foundation

/// A clock whose time moves only when someone sleeps on it: a sleep returns at once and
/// advances `now` to its deadline, and every requested sleep is recorded.
final class TestClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var recorded: [Duration] = []
    private var hook: (@Sendable (Duration) -> Void)?

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .zero }
    var sleeps: [Duration] { lock.withLock { recorded } }

    /// Called with every sleep's length before the sleep moves the clock: the moment to change
    /// the world "while" someone sleeps.
    func onSleep(_ hook: @escaping @Sendable (Duration) -> Void) { lock.withLock { self.hook = hook } }

    func advance(by duration: Duration) {
        lock.withLock { current = current.advanced(by: duration) }
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        let hook = lock.withLock { self.hook }
        hook?(now.duration(to: deadline))
        lock.withLock {
            recorded.append(current.duration(to: deadline))
            if current < deadline { current = deadline }
        }
    }
}

/// Where the project's files are, found from this source file.
enum TestPaths {
    static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url = url.deletingLastPathComponent()
        }
        return url
    }()

    /// The APIs' recorded answers: `../shared` beside the repository, or the folder that
    /// `FACEOFF_TEST_SHARED` names (CI points it at a missing one to prove that every test
    /// reading the recordings is skipped without them).
    static let shared: URL = {
        if let path = ProcessInfo.processInfo.environment["FACEOFF_TEST_SHARED"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared", isDirectory: true)
    }()

    static let fixtures = repositoryRoot.appendingPathComponent("Tests/Fixtures")
    static let mirror = fixtures.appendingPathComponent("mirror/v1")
    static var mirrorBase: String { "file://\(mirror.path)/" }

    /// A fresh directory under the system's temporary folder, removed by the caller when it likes.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("faceoff-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
