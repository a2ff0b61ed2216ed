import Foundation

/// One HTTP exchange, described completely up front so a client can run it on any thread.
public struct HTTPRequest: Sendable {
    public enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
        case patch = "PATCH"
        case head = "HEAD"
    }

    public var url: String
    /// The URL as errors and logs may show it. A webhook URL is often its own credential
    /// (Discord, Slack), so its callers pass a redacted form here.
    public var displayURL: String
    public var method: Method
    /// Extra request headers. `Accept`, `Accept-Encoding` and `User-Agent` are set by the client
    /// unless given here.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]?
    public var followRedirects: Bool
    /// `nil` sends once and reports the first failure (webhook deliveries retry on their own schedule).
    public var retry: RetryPolicy?
    public var connectTimeout: Duration
    public var totalTimeout: Duration
    /// Validators of a cached copy; a 304 answer means the cached copy is still current.
    public var conditional: Validators?
    /// The largest body taken (after decompression); a larger one fails as `tooLarge`.
    public var maxBodyBytes: Int = HTTPRequest.defaultMaxBodyBytes

    /// 16 MiB: the largest NHL answer, a late-game play-by-play, is under 1 MB.
    public static let defaultMaxBodyBytes = 16 << 20

    public init(
        url: String,
        method: Method = .get,
        headers: [(name: String, value: String)] = [],
        body: [UInt8]? = nil,
        followRedirects: Bool = true,
        retry: RetryPolicy? = .standard,
        connectTimeout: Duration = .seconds(10),
        totalTimeout: Duration = .seconds(30),
        conditional: Validators? = nil
    ) {
        self.url = url
        self.displayURL = url
        self.method = method
        self.headers = headers
        self.body = body
        self.followRedirects = followRedirects
        self.retry = retry
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.conditional = conditional
    }
}

/// The validators a server gave for a body, sent back as `If-None-Match` / `If-Modified-Since`.
public struct Validators: Sendable, Equatable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    public var isEmpty: Bool { etag == nil && lastModified == nil }
}

public struct HTTPResponse: Sendable {
    /// The HTTP status; a successful `file://` read reports 200.
    public var status: Int
    /// Header names lower-cased; for a redirected request, the final response's headers.
    public var headers: [String: String]
    public var body: [UInt8]
    /// The URL that answered, after redirects.
    public var effectiveURL: String

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = [], effectiveURL: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.effectiveURL = effectiveURL
    }

    public var isNotModified: Bool { status == 304 }
    public var validators: Validators {
        Validators(etag: headers["etag"], lastModified: headers["last-modified"])
    }
}

/// Sends requests. Non-2xx statuses other than 304 are thrown as `HTTPError` so callers
/// handle one failure path.
public protocol HTTPClient: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

extension HTTPClient {
    public func get(_ url: String, conditional: Validators? = nil) async throws -> HTTPResponse {
        try await send(HTTPRequest(url: url, conditional: conditional))
    }
}
