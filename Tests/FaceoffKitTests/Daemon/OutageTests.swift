import Foundation
import Logging
import Synchronization
import Testing

@testable import FaceoffBase
@testable import FaceoffDaemon
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffStore

/// Log lines kept in memory, to count what an outage logs; with a test clock, when each was
/// logged by it.
final class LogLines: Sendable {
    private let lines = Mutex<[(Logger.Level, String, Duration?)]>([])
    private let clock: TestClock?

    init(clock: TestClock? = nil) { self.clock = clock }

    var all: [(Logger.Level, String)] { lines.withLock { $0.map { ($0.0, $0.1) } } }
    func append(_ level: Logger.Level, _ message: String) { lines.withLock { $0.append((level, message, clock?.now.offset)) } }
    /// The test clock's time when `message` was first logged.
    func first(_ message: String) -> Duration? { lines.withLock { $0.first { $0.1 == message }?.2 } }

    func logger() -> Logger {
        Logger(label: "test") { _ in Handler(lines: self) }
    }

    struct Handler: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { lines.append(event.level, "\(event.message)") }
    }
}

@Suite(.timeLimit(.minutes(5))) struct OutageTests {
    /// Answers or fails as the test says, request by request.
    final class Switchable: HTTPClient {
        let failure = Mutex<HTTPError.Kind?>(nil)
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            if let kind = failure.withLock({ $0 }) { throw HTTPError(kind, url: request.url) }
            return HTTPResponse(status: 200, body: Array("{}".utf8), effectiveURL: request.url)
        }
    }

    @Test func anOutageIsLoggedOnceWhenItBeginsAndOnceWhenItEnds() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store(path: directory.appendingPathComponent("f.sqlite").path)
        let lines = LogLines()
        let clock = Mutex(Date(timeIntervalSince1970: 1_764_000_000))
        let outage = Outage(logger: lines.logger(), store: store, now: { clock.withLock { $0 } })
        let http = Switchable()
        let client = OutageWatchingHTTPClient(http, outage: outage)
        _ = try await client.get("http://127.0.0.1:1/v1/a")
        #expect(lines.all.isEmpty)
        // 12 polls with no network, by two kinds of failure.
        http.failure.withLock { $0 = .connectionRefused }
        for poll in 0..<12 {
            if poll == 6 { http.failure.withLock { $0 = .timeout } }
            await #expect(throws: HTTPError.self) { try await client.get("http://127.0.0.1:1/v1/a") }
            clock.withLock { $0 += 5 }
        }
        #expect(lines.all.count == 1)
        #expect(lines.all.first?.0 == .warning)
        #expect(lines.all.first?.1.contains("unreachable") == true)
        // status can tell since when.
        let reader = try #require(try Store.reader(path: store.path))
        #expect(DaemonState(store: reader).date(.outageSince) == Date(timeIntervalSince1970: 1_764_000_000))
        // Back: one line, and the mark is gone.
        http.failure.withLock { $0 = nil }
        _ = try await client.get("http://127.0.0.1:1/v1/a")
        _ = try await client.get("http://127.0.0.1:1/v1/a")
        #expect(lines.all.count == 2)
        #expect(lines.all.last?.1.contains("reachable again") == true)
        #expect(DaemonState(store: reader).date(.outageSince) == nil)
    }

    @Test func aServerThatAnswersWithAnErrorIsNoOutage() async throws {
        let lines = LogLines()
        let outage = Outage(logger: lines.logger(), store: nil, now: { Date() })
        let http = Switchable()
        http.failure.withLock { $0 = .status(503) }
        let client = OutageWatchingHTTPClient(http, outage: outage)
        await #expect(throws: HTTPError.self) { try await client.get("http://127.0.0.1:1/v1/a") }
        #expect(outage.start == nil)
        #expect(lines.all.isEmpty)
    }

    @Test func aTLSFailureNeitherStartsNorEndsAnOutage() async throws {
        let lines = LogLines()
        let outage = Outage(logger: lines.logger(), store: nil, now: { Date() })
        let http = Switchable()
        let client = OutageWatchingHTTPClient(http, outage: outage)
        http.failure.withLock { $0 = .dnsFailure }
        await #expect(throws: HTTPError.self) { try await client.get("http://127.0.0.1:1/v1/a") }
        http.failure.withLock { $0 = .tls }
        await #expect(throws: HTTPError.self) { try await client.get("http://127.0.0.1:1/v1/a") }
        #expect(outage.start != nil)
        #expect(lines.all.count == 1)
    }

    @Test func statusSaysItsDataIsStaleAndSinceWhen() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store(path: directory.appendingPathComponent("f.sqlite").path)
        let since = Date(timeIntervalSince1970: 1_764_003_600)  // 17:00 UTC
        var config = Config()
        config.teams = ["TOR"]
        config.timezone = "UTC"
        #expect(StatusLine(store: store, config: config, now: since).report().staleSince == nil)
        try await DaemonState(store: store).set(.outageSince, since)
        let report = StatusLine(store: store, config: config, now: since.addingTimeInterval(600)).report()
        #expect(report.staleSince == since)
        #expect(report.text.hasSuffix(" · offline since 17:00"), "\(report.text)")
    }
}
