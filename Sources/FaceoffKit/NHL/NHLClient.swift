import Foundation
import Logging

/// How a fetch may use the network.
public enum FetchMode: Sendable, Equatable {
    /// Use a fresh cached copy, otherwise ask the server (conditionally).
    case normal
    /// Answer from the cache alone, however old.
    case offline
}

/// A decoded response and where it came from.
public struct Fetched<Value: Sendable>: Sendable {
    public enum Origin: Sendable, Equatable {
        /// Fetched now (a 304 counts: the server confirmed the copy).
        case network
        /// A cached copy still within its freshness.
        case cache(age: TimeInterval)
        /// An old copy, used because the server could not be asked (offline) or failed.
        case stale(age: TimeInterval, reason: String)
    }

    public var value: Value
    public var origin: Origin
    public var url: String

    /// A sentence for stderr when the data is not current, e.g. "using data from 3 h ago (offline)".
    public var staleness: String? {
        guard case .stale(let age, let reason) = origin else { return nil }
        return "using data from \(AgeText.describe(age)) ago (\(reason))"
    }
}

/// The NHL web API through the response cache.
public struct NHLClient: Sendable {
    public let base: String
    let http: any HTTPClient
    let cache: ResponseCache?
    let mode: FetchMode
    let now: @Sendable () -> Date
    let logger: Logger
    /// Retries for each request; a fan-out over many resources wants fewer.
    var retry: RetryPolicy? = .standard

    /// `base` must already be normalised (ends in `/v1/`).
    public init(
        base: String = Config.defaultAPIBase,
        http: any HTTPClient,
        cache: ResponseCache?,
        mode: FetchMode = .normal,
        now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "faceoff.nhl")
    ) {
        self.base = base
        self.http = http
        self.cache = cache
        self.mode = mode
        self.now = now
        self.logger = logger
    }

    /// The same client with another retry policy.
    public func retrying(_ policy: RetryPolicy?) -> NHLClient {
        var copy = self
        copy.retry = policy
        return copy
    }

    /// `revalidate` asks the server (conditionally) even when the cached copy is fresh: a
    /// watcher polling a game wants the feed as it is now.
    public func fetch<Response>(_ endpoint: Endpoint<Response>, revalidate: Bool = false) async throws -> Fetched<Response> {
        let url = base + endpoint.path
        let cached = cachedEntry(url)
        let date = now()

        if mode == .offline {
            guard let cached else { throw NHLError(.notCached, url: url) }
            return Fetched(value: try decode(Response.self, cached.body, url: url), origin: .stale(age: cached.age(at: date), reason: "offline"), url: url)
        }
        if !revalidate, let cached, cached.isFresh(at: date), let value = try? decode(Response.self, cached.body, url: url) {
            return Fetched(value: value, origin: .cache(age: cached.age(at: date)), url: url)
        }

        do {
            let response = try await http.send(HTTPRequest(url: url, retry: retry, conditional: cached?.validators))
            if response.isNotModified {
                guard let cached else { throw NHLError(.unexpectedNotModified, url: url) }
                let value = try decode(Response.self, cached.body, url: url)
                store { try $0.revalidated(url, at: date, freshness: endpoint.freshness(value, date)) }
                return Fetched(value: value, origin: .network, url: url)
            }
            // Decode before storing, so a broken answer never replaces a good copy.
            let value = try decode(Response.self, response.body, url: url)
            let entry = CachedResponse(
                url: url, body: response.body, validators: response.validators, fetchedAt: date,
                freshness: endpoint.freshness(value, date))
            store { try $0.save(entry) }
            return Fetched(value: value, origin: .network, url: url)
        } catch let error where !(error is CancellationError) {
            guard let cached, isWorthFallingBack(error), let value = try? decode(Response.self, cached.body, url: url) else {
                throw error
            }
            // The caller says so to the user (Fetched.staleness); the log keeps the detail.
            logger.debug("request failed; using the cached copy", metadata: ["url": "\(url)", "error": "\(error)"])
            return Fetched(value: value, origin: .stale(age: cached.age(at: date), reason: "\(error)"), url: url)
        }
    }

    private func isWorthFallingBack(_ error: any Error) -> Bool {
        if let error = error as? HTTPError { return error.kind != .notFound && error.status != 404 }
        return error is NHLError
    }

    private func cachedEntry(_ url: String) -> CachedResponse? {
        guard let cache else { return nil }
        do {
            return try cache.entry(for: url)
        } catch {
            logger.warning("cannot read the response cache; asking the server", metadata: ["error": "\(error)"])
            return nil
        }
    }

    private func store(_ body: (ResponseCache) throws -> Void) {
        guard let cache else { return }
        do {
            try body(cache)
        } catch {
            logger.warning("cannot write the response cache", metadata: ["error": "\(error)"])
        }
    }

    func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8], url: String) throws(NHLError) -> T {
        guard let first = body.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else {
            throw NHLError(.notJSON, url: url, detail: "the body is empty")
        }
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            let start = String(decoding: body.prefix(40), as: UTF8.self).split(whereSeparator: \.isNewline).joined(separator: " ")
            throw NHLError(.notJSON, url: url, detail: "it starts with \"\(start)\"")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch let error as DecodingError {
            throw NHLError(.undecodable, url: url, detail: DecodingErrorText.describe(error))
        } catch {
            throw NHLError(.undecodable, url: url, detail: "\(error)")
        }
    }
}

public struct NHLError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        case notJSON
        case undecodable
        case notCached
        case unexpectedNotModified
    }

    public let code: Code
    public let url: String
    public let detail: String

    init(_ code: Code, url: String, detail: String = "") {
        self.code = code
        self.url = url
        self.detail = detail
    }

    public var description: String {
        switch code {
        case .notJSON: "\(url): the response is not JSON (\(detail)); the API may be down or the api_base wrong"
        case .undecodable: "\(url): the response could not be read: \(detail)"
        case .notCached: "\(url): no cached copy to use offline; run once without --offline"
        case .unexpectedNotModified: "\(url): the server answered 304 Not Modified to a request that had no cached copy"
        }
    }
}

enum DecodingErrorText {
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let components = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
            let joined = components.joined()
            return joined.hasPrefix(".") ? String(joined.dropFirst()) : (joined.isEmpty ? "the top level" : joined)
        }
        switch error {
        case .typeMismatch(let type, let context): return "at \(path(context)): expected \(type)"
        case .valueNotFound(let type, let context): return "at \(path(context)): missing \(type)"
        case .keyNotFound(let key, let context): return "at \(path(context)): missing key '\(key.stringValue)'"
        case .dataCorrupted(let context): return "at \(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

/// "45 s", "12 min", "3 h", "2 days".
public enum AgeText {
    public static func describe(_ seconds: TimeInterval) -> String {
        switch seconds {
        case ..<60: return "\(Int(seconds)) s"
        case ..<3600: return "\(Int(seconds / 60)) min"
        case ..<(48 * 3600): return "\(Int(seconds / 3600)) h"
        default: return "\(Int(seconds / 86_400)) days"
        }
    }
}
