import Foundation
import Logging
import Testing

@testable import FaceoffAPI
@testable import FaceoffBase
@testable import FaceoffCalendar
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL
@testable import FaceoffServer

/// `FeedServer` on 127.0.0.1, asked by the project's own libcurl client.
@Suite(.timeLimit(.minutes(5))) struct FeedServerTests {
    /// Starts a server and returns its base URL and the task to cancel.
    static func start(_ server: FeedServer) async throws -> (String, Task<Void, any Error>) {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let task = Task { try await server.run { continuation.yield($0.base) } }
        var iterator = stream.makeAsyncIterator()
        guard let base = await iterator.next() else { throw CalendarError("the server did not start") }
        return (base, task)
    }

    /// A generous wait for the first feed, built on demand (slow on a loaded machine);
    /// `aSlowAPINeverHoldsARequestLong` tests the limit itself.
    func server(
        _ harness: CalendarHarness, token: String = "", publicURL: String = "", staleAfter: Duration = .seconds(300),
        waitLimit: Duration = .seconds(30)
    ) throws -> FeedServer {
        var settings = FeedServer.Settings(host: "127.0.0.1", port: 0, token: token, publicURL: publicURL)
        settings.staleAfter = staleAfter
        settings.waitLimit = waitLimit
        return FeedServer(
            publisher: try harness.publisher(), feeds: [.team("TOR"), .team("MTL"), .favourites(["TOR", "MTL"])], settings: settings)
    }

    let http = CurlHTTPClient(clock: TestClock())

    func get(_ url: String, headers: [(String, String)] = [], method: HTTPRequest.Method = .get) async throws -> HTTPResponse {
        do {
            return try await http.send(
                HTTPRequest(url: url, method: method, headers: headers.map { (name: $0.0, value: $0.1) }, retry: nil))
        } catch let error as HTTPError {
            if case .status(let code) = error.kind { return HTTPResponse(status: code, effectiveURL: url) }
            throw error
        }
    }

    @Test func servesFeedsWithValidatorsAndConditionalAnswers() async throws {
        let harness = try CalendarHarness()
        let (base, task) = try await Self.start(try server(harness))
        defer { task.cancel() }
        #expect(base.hasPrefix("http://127.0.0.1:"))

        let first = try await get(base + "calendars/TOR.ics")
        #expect(first.status == 200)
        #expect(first.headers["content-type"] == "text/calendar; charset=utf-8")
        let body = String(decoding: first.body, as: UTF8.self)
        #expect(body.hasPrefix("BEGIN:VCALENDAR\r\n"))
        #expect(FeedWriter.eventCount(body) == 8)
        // What is served is what was written.
        #expect(body == (try harness.text("TOR")))
        let etag = try #require(first.headers["etag"])
        let lastModified = try #require(first.headers["last-modified"])
        // libcurl asked for gzip, and got it.
        #expect(first.headers["content-encoding"] == "gzip")

        #expect(try await get(base + "calendars/TOR.ics", headers: [("If-None-Match", etag)]).status == 304)
        #expect(try await get(base + "calendars/TOR.ics", headers: [("If-Modified-Since", lastModified)]).status == 304)
        #expect(try await get(base + "calendars/TOR.ics", headers: [("If-None-Match", "\"other\"")]).status == 200)

        let head = try await get(base + "calendars/TOR.ics", method: .head)
        #expect(head.status == 200)
        #expect(head.headers["etag"] == etag)
        #expect(head.headers["content-length"] == first.headers["content-length"])

        // The plain body has a validator of its own, and gzip;q=0 means no gzip.
        let plain = try await get(base + "calendars/TOR.ics", headers: [("Accept-Encoding", "gzip;q=0, identity")])
        #expect(plain.headers["content-encoding"] == nil)
        #expect(plain.headers["etag"] != etag)
        #expect(String(decoding: plain.body, as: UTF8.self) == body)

        #expect(try await get(base + "calendars/favourites.ics").status == 200)
        // Only the feeds it was given.
        #expect(try await get(base + "calendars/BOS.ics").status == 404)
        #expect(try await get(base + "calendars/TOR.txt").status == 404)
        #expect(try await get(base + "elsewhere").status == 404)
    }

    @Test func theIndexLinksEveryFeed() async throws {
        let harness = try CalendarHarness()
        let (base, task) = try await Self.start(try server(harness, publicURL: "https://hockey.example.org/faceoff"))
        defer { task.cancel() }
        let index = try await get(base)
        #expect(index.status == 200)
        let html = String(decoding: index.body, as: UTF8.self)
        for feed in ["TOR", "MTL", "favourites"] {
            #expect(html.contains("href=\"webcal://hockey.example.org/faceoff/calendars/\(feed).ics\""))
            #expect(html.contains("href=\"https://hockey.example.org/faceoff/calendars/\(feed).ics\""))
        }
        #expect(!html.contains("all.ics"))
        #expect(!html.contains("this machine only"))
    }

    /// Opened at 127.0.0.1, the index's links (and their QR codes) point there: the page says
    /// that no other device can open them, and how to serve the network.
    @Test func anIndexOfLoopbackLinksSaysSo() async throws {
        let harness = try CalendarHarness()
        let (base, task) = try await Self.start(try server(harness))
        defer { task.cancel() }
        let html = String(decoding: try await get(base).body, as: UTF8.self)
        #expect(html.contains("These links work on this machine only</strong> (they point at 127.0.0.1"), "\(html)")
        #expect(html.contains("faceoff serve --listen 0.0.0.0:8765"))
    }

    /// Where `serve` says it can be opened: a wildcard address becomes this machine's address
    /// on the network (0.0.0.0 opens nothing), the link carries the token, and a loopback
    /// link is said to work on this machine only.
    @Test func theServedLinkIsOneAPhoneCanOpen() {
        let open = ServedLink(bound: "0.0.0.0:8766", host: "0.0.0.0", token: "s3cr+t", publicURL: "", lan: "192.168.1.20")
        #expect(open.base == "http://192.168.1.20:8766/")
        #expect(open.link == "http://192.168.1.20:8766/?token=s3cr%2Bt" && !open.thisMachineOnly)
        let alone = ServedLink(bound: "0.0.0.0:8766", host: "0.0.0.0", token: "", publicURL: "", lan: nil)
        #expect(alone.base == "http://127.0.0.1:8766/" && alone.thisMachineOnly)
        let local = ServedLink(bound: "127.0.0.1:8765", host: "127.0.0.1", token: "t", publicURL: "", lan: "192.168.1.20")
        #expect(local.link == "http://127.0.0.1:8765/?token=t" && local.thisMachineOnly)
        let proxied = ServedLink(bound: "127.0.0.1:8765", host: "127.0.0.1", token: "t", publicURL: "https://x.example/f", lan: nil)
        #expect(proxied.link == "https://x.example/f/?token=t" && !proxied.thisMachineOnly)
    }

    /// `serve --qr` draws the link in the terminal; zxing-cpp reads it back from the text.
    @Test(.enabled(if: QRReader.python != nil, "needs .venv with zxing-cpp and numpy (.ci/run makes it)"))
    func theTerminalsQRCodeReadsBackAsTheLink() async throws {
        let link = "http://192.168.1.20:8766/?token=s3cr%2Bt%26x%3D1"
        let text = try #require(QRCode.text(link))
        #expect(try await QRReader.readText(text) == link)
    }

    @Test func aTokenHidesEverythingWithoutIt() async throws {
        let harness = try CalendarHarness()
        let (base, task) = try await Self.start(try server(harness, token: "s3cr+t&x=1"))
        defer { task.cancel() }
        let encoded = "s3cr%2Bt%26x%3D1"
        #expect(try await get(base + "calendars/TOR.ics").status == 404)
        #expect(try await get(base + "calendars/TOR.ics?token=wrong").status == 404)
        #expect(try await get(base).status == 404)
        #expect(try await get(base + "calendars/TOR.ics?token=\(encoded)").status == 200)
        let index = String(decoding: try await get(base + "?token=\(encoded)").body, as: UTF8.self)
        // The links carry the token so that it survives the query string.
        #expect(index.contains("/calendars/TOR.ics?token=\(encoded)"))
        #expect(index.contains("<svg"))
    }

    /// A token too long for any QR code (5,000 characters): the index says why there is no
    /// code instead of leaving it out silently; the links still work.
    @Test func aTokenTooLongForAQRCodeIsSaid() async throws {
        let harness = try CalendarHarness()
        let token = String(repeating: "k", count: 5_000)
        let (base, task) = try await Self.start(try server(harness, token: token))
        defer { task.cancel() }
        let index = String(decoding: try await get(base + "?token=\(token)").body, as: UTF8.self)
        #expect(!index.contains("<svg"))
        #expect(index.contains("no QR code: the link is too long for one"))
        #expect(try await get(base + "calendars/TOR.ics?token=\(token)").status == 200)
    }

    /// Each link on the index has its QR code, and a QR reader (zxing-cpp, an independent
    /// decoder) reads the link back from it, token and all.
    @Test(.enabled(if: QRReader.python != nil, "needs .venv with zxing-cpp and numpy (.ci/run makes it)"))
    func eachLinkHasAQRCodeThatReadsBackAsTheLink() async throws {
        let harness = try CalendarHarness()
        let (base, task) = try await Self.start(try server(harness, token: "s3cr+t&x=1"))
        defer { task.cancel() }
        let index = String(decoding: try await get(base + "?token=s3cr%2Bt%26x%3D1").body, as: UTF8.self)
        let links = index.matches(of: /<li><a href="(webcal:[^"]+)"/).map {
            String($0.output.1).replacingOccurrences(of: "&amp;", with: "&")
        }
        let codes = index.matches(of: /<svg[^>]*>.*?<\/svg>/).map { String($0.output) }
        #expect(!links.isEmpty && codes.count == links.count, "\(links.count) links, \(codes.count) codes")
        for (link, code) in zip(links, codes) {
            #expect(try await QRReader.read(code) == link)
        }
    }

    /// A regeneration that fails says what is true of the file: "serving the last good one"
    /// only when there is one, "none to serve yet" when there never was.
    @Test func aFailedRegenerationSaysWhetherThereIsAFeedToServe() async throws {
        let harness = try CalendarHarness()
        let lines = LogLines()
        let client = APIClient(service: .nhl, base: "file:///nonexistent/v1/", http: CurlHTTPClient(clock: TestClock()), cache: nil)
        let service = CalendarService(
            clients: [client], state: CalendarState(store: harness.store), templates: try TemplateSet(overrides: nil),
            options: CalendarSettings())
        let directory = harness.directory.appendingPathComponent("calendars")
        let publisher = CalendarPublisher(service: service, directory: directory.path, allowEmpty: false)
        var settings = FeedServer.Settings(host: "127.0.0.1", port: 0, token: "", publicURL: "")
        settings.staleAfter = .zero
        let (base, task) = try await Self.start(
            FeedServer(publisher: publisher, feeds: [.team("TOR")], settings: settings, logger: lines.logger()))
        defer { task.cancel() }
        #expect(try await get(base + "calendars/TOR.ics").status == 503)
        #expect(await eventually(within: hangGuard) { lines.all.contains { $0.1 == "feed not regenerated; none to serve yet" } })
        #expect(!lines.all.contains { $0.1.contains("last good one") })
        // A feed from an earlier, better day: served, and said so.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".write(to: directory.appendingPathComponent("TOR.ics"), atomically: true, encoding: .utf8)
        #expect(try await get(base + "calendars/TOR.ics").status == 200)
        #expect(await eventually(within: hangGuard) { lines.all.contains { $0.1 == "feed not regenerated; serving the last good one" } })
    }

    @Test func aSlowAPINeverHoldsARequestLong() async throws {
        let harness = try CalendarHarness()
        // A good feed exists, written an hour ago.
        _ = try await harness.publisher().publish([.team("TOR")])
        let path = harness.directory.appendingPathComponent("calendars/TOR.ics").path
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: path)
        let good = try harness.text("TOR")

        // Now the API hangs.
        let hanging = try LoopbackHTTPServer { _ in .hang }
        defer { hanging.stop() }
        let client = APIClient(service: .nhl, base: hanging.baseURL + "/v1/", http: CurlHTTPClient(clock: TestClock()), cache: nil)
        let service = CalendarService(
            clients: [client], state: CalendarState(store: harness.store), templates: try TemplateSet(overrides: nil),
            options: CalendarSettings())
        let publisher = CalendarPublisher(
            service: service, directory: harness.directory.appendingPathComponent("calendars").path, allowEmpty: false)
        var settings = FeedServer.Settings(host: "127.0.0.1", port: 0, token: "", publicURL: "")
        settings.staleAfter = .seconds(60)
        settings.waitLimit = .milliseconds(500)
        let (base, task) = try await Self.start(FeedServer(publisher: publisher, feeds: [.team("TOR")], settings: settings))
        defer { task.cancel() }

        let started = ContinuousClock.now
        let response = try await get(base + "calendars/TOR.ics")
        #expect(ContinuousClock.now - started < .seconds(15))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == good)
    }

    /// The connection limits, at a second each so the test is quick: a client that never
    /// finishes its headers and an idle kept-alive one are closed; two requests pipelined on
    /// one connection are both answered.
    @Test func connectionsThatHoldTheServerAreClosed() async throws {
        let harness = try CalendarHarness()
        var settings = FeedServer.Settings(host: "127.0.0.1", port: 0, token: "", publicURL: "")
        settings.headerLimit = .seconds(1)
        settings.requestLimit = .seconds(2)
        let (base, task) = try await Self.start(FeedServer(publisher: try harness.publisher(), feeds: [.team("TOR")], settings: settings))
        defer { task.cancel() }
        let port = try #require(URL(string: base)?.port)
        let probe = try await ProcessRunner.run(
            "python3",
            [
                "-c",
                #"""
                import socket, sys, time
                port = int(sys.argv[1])
                def closed_after(s):
                    start = time.monotonic()
                    while s.recv(65536):
                        pass
                    return round(time.monotonic() - start, 2)
                silent = socket.create_connection(("127.0.0.1", port), timeout=10)
                silent.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
                print("silent", closed_after(silent))
                idle = socket.create_connection(("127.0.0.1", port), timeout=10)
                idle.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                print("idle", closed_after(idle))
                piped = socket.create_connection(("127.0.0.1", port), timeout=10)
                piped.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n" * 2)
                answers = b""
                while answers.count(b"HTTP/1.1 200") < 2:
                    chunk = piped.recv(65536)
                    if not chunk:
                        break
                    answers += chunk
                print("pipelined", answers.count(b"HTTP/1.1 200"))
                """#, String(port),
            ], environment: ["PATH": "/usr/bin:/bin"], timeout: .seconds(60))
        #expect(probe.status == 0, "\(probe.stderr)")
        let seconds = Dictionary(
            probe.stdout.split(separator: "\n").compactMap { line -> (String, Double)? in
                let words = line.split(separator: " ")
                return words.count == 2 ? (String(words[0]), Double(words[1]) ?? -1) : nil
            }, uniquingKeysWith: { first, _ in first })
        // Closed by the server (not by the client's own 10 s timeout), about a second in.
        #expect((0.5..<5).contains(seconds["silent"] ?? -1), "\(probe.stdout)")
        #expect((0.5..<5).contains(seconds["idle"] ?? -1), "\(probe.stdout)")
        #expect(seconds["pipelined"] == 2, "\(probe.stdout)")
    }

    /// More clients than the cap, each sending a whole request at once: every one gets an
    /// answer (the feed, or 503 with Retry-After), none a reset. 50 against a cap of 20: within
    /// the 32 more that wait their turn (past those the oldest waiting one is closed, by design).
    @Test func pastTheCapClientsAreAnsweredNotReset() async throws {
        let harness = try CalendarHarness()
        _ = try await harness.publisher().publish([.team("TOR")])
        var settings = FeedServer.Settings(host: "127.0.0.1", port: 0, token: "", publicURL: "")
        settings.maxConnections = 20
        let (base, task) = try await Self.start(FeedServer(publisher: try harness.publisher(), feeds: [.team("TOR")], settings: settings))
        defer { task.cancel() }
        let port = try #require(URL(string: base)?.port)
        let probe = try await ProcessRunner.run(
            "python3",
            [
                "-c",
                #"""
                import socket, sys, threading, collections
                port = int(sys.argv[1])
                outcomes = collections.Counter()
                lock = threading.Lock()
                start = threading.Barrier(50)
                def client():
                    try:
                        s = socket.create_connection(("127.0.0.1", port), timeout=20)
                        start.wait()
                        s.sendall(b"GET /calendars/TOR.ics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                        answer = b""
                        while True:
                            chunk = s.recv(65536)
                            if not chunk:
                                break
                            answer += chunk
                        line = answer.split(b"\r\n", 1)[0].decode()
                        if line.startswith("HTTP/1.1 503") and b"retry-after: 2" not in answer.lower():
                            line += " without Retry-After"
                        outcome = line or "closed without an answer"
                    except ConnectionResetError:
                        outcome = "reset"
                    with lock:
                        outcomes[outcome] += 1
                threads = [threading.Thread(target=client) for _ in range(50)]
                for t in threads: t.start()
                for t in threads: t.join()
                for outcome, count in outcomes.items(): print(count, outcome)
                """#, String(port),
            ], environment: ["PATH": "/usr/bin:/bin"], timeout: .seconds(60))
        #expect(probe.status == 0, "\(probe.stderr)")
        let lines = probe.stdout.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.hasSuffix("HTTP/1.1 200 OK") || $0.hasSuffix("HTTP/1.1 503 Service Unavailable") }, "\(probe.stdout)")
        #expect(lines.contains { $0.hasSuffix("200 OK") }, "\(probe.stdout)")
    }

    @Test func theTokenComparisonLooksAtEveryByte() {
        #expect(FeedServer.sameSecret("s3cret", "s3cret"))
        for wrong in ["", "s3cre", "s3cret!", "S3cret", "x3cret", "s3crex", "s3cret\u{0}"] {
            #expect(!FeedServer.sameSecret(wrong, "s3cret"), "\(wrong)")
        }
    }
}

/// The HTTP server's own log: a stop's cancellation is no error; real errors stay errors.
@Suite struct ServerLogTests {
    @Test func aStopsCancellationIsLoggedAtDebugAndOtherErrorsAsTheyAre() {
        for level in [Logger.Level.info, .debug] {
            let lines = LogLines()
            var base = lines.logger()
            base.logLevel = level
            let logger = HTTPServer.serverLogger(base)
            logger.error("Waiting on child channel: CancellationError()")
            logger.error("Failed to bind: address in use")
            logger.info("Server started")
            let expected: [(Logger.Level, String)] =
                (level == .debug ? [(.debug, "Waiting on child channel: CancellationError()")] : [])
                + [(.error, "Failed to bind: address in use"), (.info, "Server started")]
            #expect(lines.all.map(\.0) == expected.map(\.0) && lines.all.map(\.1) == expected.map(\.1), "\(lines.all)")
        }
    }
}
