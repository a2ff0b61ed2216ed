import Foundation
import Testing

@testable import FaceoffBase
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL

@Suite("CurlHTTPClient against a loopback server", .timeLimit(.minutes(5)))
struct CurlHTTPClientTests {
    let fastRetry = RetryPolicy(
        maxAttempts: 3, baseDelay: .milliseconds(100), maxDelay: .seconds(1), maxTotal: .seconds(10))

    @Test func okSendsTheAdvertisedHeaders() async throws {
        let server = try LoopbackHTTPServer { _ in .json(#"{"ok":true}"#, headers: [("ETag", "\"v1\"")]) }
        defer { server.stop() }
        let response = try await CurlHTTPClient().get(server.baseURL + "/v1/standings/now")
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":true}"#)
        #expect(response.validators.etag == "\"v1\"")
        let request = try #require(server.requests.first)
        #expect(request.path == "/v1/standings/now")
        #expect(request.headers["accept"] == "application/json")
        #expect(request.headers["accept-encoding"]?.contains("gzip") == true)
        #expect(request.headers["user-agent"]?.hasPrefix("Faceoff/\(FaceoffInfo.version)") == true)
        #expect(request.headers["if-none-match"] == nil)
    }

    @Test func conditionalGetSendsValidatorsAndReports304() async throws {
        let server = try LoopbackHTTPServer { request in
            request.headers["if-none-match"] == "\"v1\"" && request.headers["if-modified-since"] != nil
                ? .response(status: 304, headers: [("ETag", "\"v1\"")])
                : .json("{}")
        }
        defer { server.stop() }
        let validators = Validators(etag: "\"v1\"", lastModified: "Sat, 21 Nov 2026 10:00:00 GMT")
        let response = try await CurlHTTPClient().get(server.baseURL + "/x", conditional: validators)
        #expect(response.isNotModified)
        #expect(response.body.isEmpty)
        #expect(server.requests.first?.headers["if-modified-since"] == "Sat, 21 Nov 2026 10:00:00 GMT")
    }

    @Test func followsRedirectsWhenAskedAndOnlyThen() async throws {
        let server = try LoopbackHTTPServer { request in
            request.path == "/v1/standings/now"
                ? .response(status: 307, headers: [("Location", "/v1/standings/2026-11-21")])
                : .json(#"{"date":"2026-11-21"}"#)
        }
        defer { server.stop() }
        let followed = try await CurlHTTPClient().get(server.baseURL + "/v1/standings/now")
        #expect(String(decoding: followed.body, as: UTF8.self).contains("2026-11-21"))
        #expect(followed.effectiveURL.hasSuffix("/v1/standings/2026-11-21"))

        let request = HTTPRequest(url: server.baseURL + "/v1/standings/now", followRedirects: false, retry: nil)
        await #expect(throws: HTTPError.self) { try await CurlHTTPClient().send(request) }
        #expect(server.requests.count == 3)
    }

    @Test func decodesGzipBodies() async throws {
        let plain = Array(String(repeating: #"{"team":"TOR"}"#, count: 50).utf8)
        let compressed = try gzip(plain)
        #expect(compressed.count < plain.count)
        let server = try LoopbackHTTPServer { _ in
            .response(status: 200, headers: [("Content-Encoding", "gzip"), ("Content-Type", "application/json")], body: compressed)
        }
        defer { server.stop() }
        let response = try await CurlHTTPClient().get(server.baseURL + "/gz")
        #expect(response.body == plain)
    }

    @Test func notFoundIsNotRetried() async throws {
        let server = try LoopbackHTTPServer { _ in
            .response(status: 404, headers: [("Content-Type", "text/html")], body: Array("<html>nope</html>".utf8))
        }
        defer { server.stop() }
        let clock = TestClock()
        let error = await #expect(throws: HTTPError.self) {
            try await CurlHTTPClient(clock: clock).send(HTTPRequest(url: server.baseURL + "/missing", retry: fastRetry))
        }
        #expect(error?.kind == .status(404))
        #expect(error?.description.contains(server.baseURL + "/missing") == true)
        #expect(server.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func honoursRetryAfterOn429() async throws {
        let attempts = Counter()
        let server = try LoopbackHTTPServer { _ in
            attempts.next() == 0 ? .response(status: 429, headers: [("Retry-After", "3")]) : .json(#"{"ok":1}"#)
        }
        defer { server.stop() }
        let clock = TestClock()
        let response = try await CurlHTTPClient(clock: clock).send(HTTPRequest(url: server.baseURL + "/r", retry: fastRetry))
        #expect(response.status == 200)
        #expect(server.requests.count == 2)
        #expect(clock.sleeps == [.seconds(3)])
    }

    @Test func retriesServerErrorsWithBackoffThenSucceeds() async throws {
        let attempts = Counter()
        let server = try LoopbackHTTPServer { _ in
            attempts.next() < 2 ? .response(status: 500) : .json(#"{"ok":1}"#)
        }
        defer { server.stop() }
        let clock = TestClock()
        let response = try await CurlHTTPClient(clock: clock).send(HTTPRequest(url: server.baseURL + "/flaky", retry: fastRetry))
        #expect(response.status == 200)
        #expect(server.requests.count == 3)
        // Exponential with jitter in the upper half: 50–100 ms, then 100–200 ms.
        #expect(clock.sleeps.count == 2)
        #expect(clock.sleeps[0] >= .milliseconds(50) && clock.sleeps[0] <= .milliseconds(100))
        #expect(clock.sleeps[1] >= .milliseconds(100) && clock.sleeps[1] <= .milliseconds(200))
    }

    @Test func stopsRetryingAfterMaxAttempts() async throws {
        let server = try LoopbackHTTPServer { _ in .response(status: 503) }
        defer { server.stop() }
        let error = await #expect(throws: HTTPError.self) {
            try await CurlHTTPClient(clock: TestClock()).send(HTTPRequest(url: server.baseURL + "/down", retry: fastRetry))
        }
        #expect(error?.kind == .status(503))
        #expect(server.requests.count == 3)
    }

    @Test func retryAfterBeyondTheBudgetGivesUpAtOnce() async throws {
        let server = try LoopbackHTTPServer { _ in .response(status: 429, headers: [("Retry-After", "3600")]) }
        defer { server.stop() }
        let clock = TestClock()
        await #expect(throws: HTTPError.self) {
            try await CurlHTTPClient(clock: clock).send(HTTPRequest(url: server.baseURL + "/slow-down", retry: fastRetry))
        }
        #expect(server.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func noAttemptOutlivesTheRetryBudget() async throws {
        let server = try LoopbackHTTPServer { _ in .hang }
        defer { server.stop() }
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10), maxDelay: .milliseconds(10), maxTotal: .milliseconds(400))
        let started = ContinuousClock.now
        let error = await #expect(throws: HTTPError.self) {
            try await CurlHTTPClient().send(HTTPRequest(url: server.baseURL + "/slow", retry: policy, totalTimeout: .seconds(60)))
        }
        #expect(error?.kind == .timeout)
        // One attempt would take 60 s on its own; the 400 ms budget cuts it short (the bound is
        // loose for a loaded machine running the tests in parallel).
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func errorsShowTheDisplayURLNotTheSecretOne() async throws {
        let server = try LoopbackHTTPServer { _ in
            .response(status: 401, headers: [("Content-Type", "text/plain")], body: Array("bad token".utf8))
        }
        defer { server.stop() }
        var request = HTTPRequest(url: server.baseURL + "/api/webhooks/123/s3cr3t", retry: nil)
        request.displayURL = server.baseURL + "/api/webhooks/…"
        let error = await #expect(throws: HTTPError.self) { try await CurlHTTPClient().send(request) }
        #expect(error?.description.contains("s3cr3t") == false)
        #expect(error?.description.contains("/api/webhooks/…") == true)
    }

    @Test func aHungServerTimesOut() async throws {
        let server = try LoopbackHTTPServer { _ in .hang }
        defer { server.stop() }
        let request = HTTPRequest(url: server.baseURL + "/hang", retry: nil, totalTimeout: .milliseconds(300))
        let error = await #expect(throws: HTTPError.self) { try await CurlHTTPClient().send(request) }
        #expect(error?.kind == .timeout)
    }

    @Test func cancellingTheTaskAbandonsTheTransfer() async throws {
        let server = try LoopbackHTTPServer { _ in .hang }
        defer { server.stop() }
        let started = ContinuousClock.now
        let task = Task {
            try await CurlHTTPClient().send(HTTPRequest(url: server.baseURL + "/hang", retry: nil, totalTimeout: .seconds(30)))
        }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        // Without cancellation this would wait out the 30 s timeout.
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test func aTruncatedBodyIsAnError() async throws {
        let server = try LoopbackHTTPServer { _ in .truncated(declaredLength: 500, body: Array(#"{"games":["#.utf8)) }
        defer { server.stop() }
        let error = await #expect(throws: HTTPError.self) {
            try await CurlHTTPClient().send(HTTPRequest(url: server.baseURL + "/cut", retry: nil))
        }
        #expect(error?.kind == .truncatedBody)
    }

    @Test func connectionRefusedIsNamed() async throws {
        let refusing = LoopbackHTTPServer.refusingPort()
        defer { refusing.release() }
        let url = "http://127.0.0.1:\(refusing.port)/gone"
        let error = await #expect(throws: HTTPError.self) {
            try await CurlHTTPClient().send(HTTPRequest(url: url, retry: nil))
        }
        #expect(error?.kind == .connectionRefused)
        #expect(error?.description.contains("refused") == true)
    }

    @Test func readsFileMirrorsThroughTheSameClient() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("v1/standings"), withIntermediateDirectories: true)
        try Data(#"{"standings":[]}"#.utf8).write(to: directory.appendingPathComponent("v1/standings/now"))

        let client = CurlHTTPClient(clock: TestClock())
        let response = try await client.get("file://\(directory.path)/v1/standings/now")
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"standings":[]}"#)

        let error = await #expect(throws: HTTPError.self) {
            try await client.send(HTTPRequest(url: "file://\(directory.path)/v1/standings/2020-01-01", retry: fastRetry))
        }
        #expect(error?.kind == .notFound)

        // A FIFO (or a device) in the mirror is refused at once, never read: nothing would
        // ever end the read. A link to a file is read as the file.
        #expect(mkfifo(directory.appendingPathComponent("v1/standings/fifo").path, 0o600) == 0)
        let fifo = await #expect(throws: HTTPError.self) {
            try await client.send(HTTPRequest(url: "file://\(directory.path)/v1/standings/fifo", retry: fastRetry))
        }
        #expect(fifo?.description.contains("holds only files; this is a FIFO") == true, "\(fifo?.description ?? "")")
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("v1/standings/link").path,
            withDestinationPath: directory.appendingPathComponent("v1/standings/now").path)
        #expect(try await client.get("file://\(directory.path)/v1/standings/link").status == 200)
    }

    @Test func postsABodyWithoutFollowingRedirects() async throws {
        let server = try LoopbackHTTPServer { _ in .response(status: 204) }
        defer { server.stop() }
        let body = Array(#"{"kind":"goal"}"#.utf8)
        let request = HTTPRequest(
            url: server.baseURL + "/hook", method: .post, headers: [("Authorization", "Bearer x\r\nEvil: 1")],
            body: body, followRedirects: false, retry: nil)
        let response = try await CurlHTTPClient().send(request)
        #expect(response.status == 204)
        let received = try #require(server.requests.first)
        #expect(received.method == "POST")
        #expect(received.body == body)
        #expect(received.headers["content-type"] == "application/json")
        #expect(received.headers["authorization"] == "Bearer xEvil: 1")
        #expect(received.headers["evil"] == nil)
    }
}

@Suite(.timeLimit(.minutes(5))) struct RetryPolicyTests {
    @Test func delaysGrowAndAreCapped() {
        let policy = RetryPolicy(maxAttempts: 10, baseDelay: .seconds(1), maxDelay: .seconds(8), maxTotal: .seconds(60))
        #expect(policy.delay(afterAttempt: 1, retryAfter: nil, unit: 1) == .seconds(1))
        #expect(policy.delay(afterAttempt: 2, retryAfter: nil, unit: 1) == .seconds(2))
        #expect(policy.delay(afterAttempt: 3, retryAfter: nil, unit: 0) == .seconds(2))
        #expect(policy.delay(afterAttempt: 9, retryAfter: nil, unit: 1) == .seconds(8))
        #expect(policy.delay(afterAttempt: 2, retryAfter: .seconds(30), unit: 0) == .seconds(30))
    }

    @Test func parsesRetryAfterInBothForms() {
        #expect(parseRetryAfter("120") == .seconds(120))
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let later = DateFormatter()
        later.locale = Locale(identifier: "en_US_POSIX")
        later.timeZone = TimeZone(identifier: "GMT")
        later.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        #expect(parseRetryAfter(later.string(from: now.addingTimeInterval(90)), now: now) == .seconds(90))
        #expect(parseRetryAfter("soon") == nil)
    }

    @Test func transientErrorsAreTheRetryableOnes() {
        #expect(HTTPError(.status(429), url: "u").isTransient)
        #expect(HTTPError(.status(408), url: "u").isTransient)
        #expect(HTTPError(.status(502), url: "u").isTransient)
        #expect(HTTPError(.timeout, url: "u").isTransient)
        #expect(!HTTPError(.status(404), url: "u").isTransient)
        #expect(!HTTPError(.status(401), url: "u").isTransient)
        #expect(!HTTPError(.tls, url: "u").isTransient)
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    /// Returns the current count, then increments it.
    func next() -> Int {
        lock.withLock {
            defer { value += 1 }
            return value
        }
    }
}

func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/gzip")
    process.arguments = ["-c", "-n"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    input.fileHandleForWriting.write(Data(bytes))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    exited.wait()
    return Array(data)
}
