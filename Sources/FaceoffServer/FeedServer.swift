import CompressNIO
import FaceoffBase
import FaceoffCalendar
import FaceoffHTTP
import FaceoffKit
import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// Serves the feeds over HTTP for calendar apps that subscribe by URL.
///
/// Feeds come from the calendar directory. A request for a feed older than `staleAfter`
/// starts a regeneration (from the cache, with conditional GETs) and waits for it at most
/// `waitLimit`; past that the last good file is served and the regeneration finishes behind.
public struct FeedServer: Sendable {
    public struct Settings: Sendable {
        public var host: String
        public var port: Int
        public var token: String
        public var publicURL: String
        public var staleAfter: Duration = .seconds(5 * 60)
        public var waitLimit: Duration = .seconds(2)
        /// How long a connection may take to send a request's headers, new or kept alive.
        public var headerLimit: Duration = .seconds(10)
        /// How long a request may take to be answered and written out.
        public var requestLimit: Duration = .seconds(30)
        /// Open connections at most; past it the oldest one still sending its headers (or
        /// idle) is closed. Calendar apps open one or two each: 128 is plenty, and fits a
        /// 256-descriptor limit with room for the store and libcurl (the systemd unit sets
        /// LimitNOFILE=1024).
        public var maxConnections = 128

        public init(host: String, port: Int, token: String, publicURL: String) {
            self.host = host
            self.port = port
            self.token = token
            self.publicURL = publicURL
        }
    }

    let publisher: CalendarPublisher
    /// Only these feeds are served, by file name without `.ics`.
    let feeds: [String: FeedKind]
    let order: [String]
    let settings: Settings
    let logger: Logger
    let refresher: FeedRefresher
    /// "host:port" as bound (port 0 becomes the real one), for links when a request has no Host.
    private let bound = BoundAddress()

    public init(publisher: CalendarPublisher, feeds: [FeedKind], settings: Settings, logger: Logger = Logger(label: "faceoff.serve")) {
        self.publisher = publisher
        self.feeds = Dictionary(feeds.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        order = feeds.map(\.name)
        self.settings = settings
        self.logger = logger
        refresher = FeedRefresher(publisher: publisher, staleAfter: settings.staleAfter, logger: logger)
    }

    /// Runs until the task is cancelled. `onReady` gets where it can be opened once the socket
    /// is bound.
    public func run(onReady: @escaping @Sendable (ServedLink) -> Void) async throws {
        let host = settings.host
        let connections = ConnectionGuard(
            limits: .init(
                waiting: TimeAmount(settings.headerLimit), busy: TimeAmount(settings.requestLimit), maxConnections: settings.maxConnections)
        )
        let server = HTTPServer(host: host, port: settings.port, name: "Faceoff", channelHandlers: { [connections.makeHandler()] }) {
            request in
            try await respond(request)
        }
        // The regenerations requests ask for run beside the server, and end with it.
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await refresher.run() }
            defer { refresher.finish() }
            do {
                try await server.run(logger: logger) { [bound, settings] address in
                    bound.withLock { $0 = address }
                    onReady(
                        ServedLink(
                            bound: address, host: host, token: settings.token, publicURL: settings.publicURL, lan: ServedLink.lanAddress()))
                }
            } catch let error as IOError {
                throw FeedServerError(host: host, port: settings.port, errno: error.errnoCode)
            } catch is SocketAddressError, is SocketAddressError.UnknownHost {
                throw FeedServerError(host: host, port: settings.port, errno: EADDRNOTAVAIL)
            }
        }
    }

    /// `/` (the index) and `/calendars/NAME.ics`, by GET or HEAD; anything else is not found.
    private func respond(_ request: Request) async throws -> Response {
        guard request.method == .get || request.method == .head, let path = HTTPServer.components(request) else { return notFound() }
        switch path.count {
        case 0: return try await index(request)
        case 2 where path[0] == "calendars": return try await feed(request, file: path[1])
        default: return notFound()
        }
    }

    private func allowed(_ request: Request) -> Bool {
        guard !settings.token.isEmpty else { return true }
        guard let given = request.uri.queryParameters["token"] else { return false }
        return Self.sameSecret(String(given), settings.token)
    }

    /// Equal, in a time that depends on the lengths only, not on where the first difference is.
    static func sameSecret(_ given: String, _ secret: String) -> Bool {
        let (a, b) = (Array(given.utf8), Array(secret.utf8))
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<b.count { difference |= (index < a.count ? a[index] : 0) ^ b[index] }
        return difference == 0
    }

    private func notFound() -> Response {
        Response(
            status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: "not found\n")))
    }

    private func index(_ request: Request) async throws -> Response {
        guard allowed(request) else { return notFound() }
        var base = settings.publicURL
        if base.isEmpty {
            let host = request.head.authority ?? bound.withLock { $0 } ?? "\(settings.host):\(settings.port)"
            base = "http://\(host)/"
        }
        if !base.hasSuffix("/") { base += "/" }
        let query = ServedLink.tokenQuery(settings.token)
        // Links to 127.0.0.1 open on this machine only: say so where a phone's user reads.
        let host = URLComponents(string: base)?.host ?? ""
        let local =
            ServedLink.isLoopback(host)
            ? "<p><strong>These links work on this machine only</strong> (they point at \(FeedServer.escape(host)), which a phone or another computer cannot reach). To subscribe from another device, serve on your network (<code>faceoff serve --listen 0.0.0.0:8765</code>, with a <code>[serve] token</code>) and open this page at this machine's address, or set <code>[serve] public_url</code>.</p>\n"
            : ""
        var rows = ""
        for name in order {
            let http = "\(base)calendars/\(name).ics\(query)"
            let webcal = http.replacingOccurrences(of: "https://", with: "webcal://").replacingOccurrences(of: "http://", with: "webcal://")
            let label = FeedServer.escape(FeedServer.title(for: feeds[name]!))
            // A link too long for a QR code (a very long token) says so rather than going without.
            let code =
                QRCode.svg(webcal, label: "QR code of the \(label) link").map { "<br>\($0)" }
                ?? "<br><small>(no QR code: the link is too long for one; a shorter [serve] token makes one)</small>"
            rows +=
                "<li><a href=\"\(FeedServer.escape(webcal))\">\(label)</a> · <a href=\"\(FeedServer.escape(http))\">\(FeedServer.escape(name)).ics</a>\(code)</li>\n"
        }
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Faceoff calendars</title></head>
            <body><h1>Faceoff calendars</h1>
            <p>Subscribe in your calendar app: the first link opens it (webcal://), the second is the plain feed URL. On a phone, point the camera at a link's QR code.</p>
            \(local)            <ul>
            \(rows)</ul></body></html>

            """
        return Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    private func feed(_ request: Request, file: String) async throws -> Response {
        guard allowed(request), file.hasSuffix(".ics"),
            let kind = feeds[String(file.dropLast(4))]
        else { return notFound() }

        await refresher.refreshIfStale(kind, waitingAtMost: settings.waitLimit)
        // Body and validators from one open file, so a regeneration renaming a new file into
        // place can't pair the old body with the new date.
        guard let (data, modified) = FeedServer.read(publisher.path(for: kind)) else {
            return Response(
                status: .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8", .retryAfter: "30"],
                body: ResponseBody(
                    byteBuffer: ByteBuffer(string: "this feed isn't ready yet (its schedule could not be fetched); try again shortly\n")))
        }
        let gzip = FeedServer.acceptsGzip(request.headers[.acceptEncoding])
        let fingerprint = FeedServer.fingerprint(data)
        // Each representation has its own strong validator (RFC 9110 8.8.3).
        let etag = gzip ? "\"\(fingerprint)-gzip\"" : "\"\(fingerprint)\""
        let lastModified = HTTPDate.format(modified)
        var headers: HTTPFields = [
            .contentType: "text/calendar; charset=utf-8", .eTag: etag, .lastModified: lastModified,
            .cacheControl: "max-age=300", .vary: "Accept-Encoding",
        ]
        if let match = request.headers[.ifNoneMatch] {
            let tags = match.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if tags.contains(where: { $0 == etag || $0 == "*" || $0 == "W/\(etag)" }) {
                return Response(status: .notModified, headers: headers)
            }
        } else if let since = request.headers[.ifModifiedSince].flatMap(HTTPDate.parse),
            Int(modified.timeIntervalSince1970) <= Int(since.timeIntervalSince1970)
        {
            return Response(status: .notModified, headers: headers)
        }
        var body = ByteBuffer(bytes: data)
        if gzip {
            body = try body.compress(with: .gzip())
            headers[.contentEncoding] = "gzip"
        }
        headers[.contentLength] = String(body.readableBytes)
        if request.method == .head {
            return Response(status: .ok, headers: headers, body: ResponseBody(contentLength: body.readableBytes) { _ in })
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }

    /// Whether Accept-Encoding allows gzip (a q=0 refuses it).
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        for part in header.lowercased().split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let coding = pieces.first, coding == "gzip" || coding == "x-gzip" else { continue }
            let quality = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
        }
        return false
    }

    /// A file's bytes and modification time, read through one descriptor.
    static func read(_ path: String) -> (Data, Date)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var info = stat()
        guard fstat(handle.fileDescriptor, &info) == 0, let data = try? handle.readToEnd() else { return nil }
        let modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        return (data, modified)
    }

    static func title(for kind: FeedKind) -> String {
        switch kind {
        case .team(let team): TeamKey(written: team)?.team?.name ?? team
        case .favourites: "Favourites (all followed teams)"
        case .all: "Whole league"
        }
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// A stable content hash for ETags.
    static func fingerprint(_ data: Data) -> String {
        var hash = StableHash()
        hash.mix(data)
        return hash.hex
    }
}

/// One regeneration per feed at a time; requests share it. The regenerations run as children
/// of `run()`, which the server runs beside the HTTP server: a request asks for one and waits for
/// it a limited time, and one still running when the server stops ends with it.
actor FeedRefresher {
    let publisher: CalendarPublisher
    let staleAfter: Duration
    let logger: Logger
    private var running: [String: Latch] = [:]
    private var lastAttempt: [String: ContinuousClock.Instant] = [:]
    private let requests: AsyncStream<(FeedKind, Latch)>
    private let asked: AsyncStream<(FeedKind, Latch)>.Continuation

    init(publisher: CalendarPublisher, staleAfter: Duration, logger: Logger) {
        self.publisher = publisher
        self.staleAfter = staleAfter
        self.logger = logger
        (requests, asked) = AsyncStream.makeStream()
    }

    /// Regenerates what requests ask for until `finish()`, then waits for those under way.
    func run() async {
        await withDiscardingTaskGroup { group in
            for await (kind, done) in requests {
                group.addTask {
                    await self.regenerate(kind)
                    await self.finished(kind.name)
                    done.open()
                }
            }
        }
    }

    nonisolated func finish() { asked.finish() }

    func refreshIfStale(_ kind: FeedKind, waitingAtMost limit: Duration) async {
        let name = kind.name
        let path = publisher.path(for: kind)
        let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date
        let fileIsFresh = modified.map { Date().timeIntervalSince($0) < Double(staleAfter.components.seconds) } ?? false
        let triedRecently = lastAttempt[name].map { ContinuousClock.now - $0 < staleAfter } ?? false
        let done: Latch
        if let current = running[name] {
            done = current
        } else if fileIsFresh || triedRecently {
            return
        } else {
            lastAttempt[name] = .now
            done = Latch()
            running[name] = done
            asked.yield((kind, done))
        }
        // Wait for the regeneration, but never longer than the limit.
        await done.wait(atMost: limit)
    }

    private func regenerate(_ kind: FeedKind) async {
        for report in await publisher.publish([kind]) {
            for warning in report.warnings {
                logger.warning("feed regenerated without a team", metadata: ["feed": "\(kind.name)", "why": "\(warning)"])
            }
            if let error = report.error {
                // Said as it is: there may be no good one yet.
                let kept =
                    FileManager.default.fileExists(atPath: publisher.path(for: kind)) ? "serving the last good one" : "none to serve yet"
                logger.warning("feed not regenerated; \(kept)", metadata: ["feed": "\(kind.name)", "error": "\(error)"])
            } else {
                logger.info(
                    "feed regenerated", metadata: ["feed": "\(kind.name)", "events": "\(report.events)", "changed": "\(report.changed)"])
            }
        }
    }

    private func finished(_ name: String) { running[name] = nil }
}

final class BoundAddress: Sendable {
    private let value = Mutex<String?>(nil)
    func withLock<T>(_ body: (inout String?) -> T) -> T { value.withLock { body(&$0) } }
}

/// The feed server could not listen, in words.
public struct FeedServerError: ReportedError, Sendable, CustomStringConvertible {
    public let host: String
    public let port: Int
    public let errno: Int32

    public var description: String {
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let why =
            switch errno {
            case EADDRINUSE:
                "that port is in use (another `faceoff serve`, or `faceoff run` with [serve] enabled?); pick another with --listen or [serve] listen"
            case EADDRNOTAVAIL: "\(host) is not an address of this machine; use 127.0.0.1, ::1, 0.0.0.0 or one of its own addresses"
            case EACCES: "ports below 1024 need root; use a higher one, such as 8765"
            default: String(cString: strerror(errno))
            }
        return "cannot listen on \(address): \(why)"
    }
}
