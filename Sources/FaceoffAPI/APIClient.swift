import FaceoffBase
import FaceoffHTTP
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

    /// An old copy's age and why it stands in for a fresh answer; nil when the value is current.
    public var stale: (age: TimeInterval, reason: String)? {
        guard case .stale(let age, let reason) = origin else { return nil }
        return (age, reason)
    }

    /// A sentence for stderr when the data is not current, e.g. "using data from 3 h ago (offline)".
    public var staleness: String? { stale.map { "using data from \(AgeText.describe($0.age)) ago (\($0.reason))" } }
}

/// Which API a client speaks to: its name and the setting that points at it, for the errors
/// that say to check it, and its public base. Each API's target defines its own
/// (`APIService.nhl`, `APIService.espn`).
public struct APIService: Sendable, Equatable {
    /// "the NHL API"
    public let name: String
    /// "`api_base` in the config (or --api-base)"
    public let setting: String
    /// The public API's base URL, what the setting defaults to.
    public let defaultBase: String

    public init(name: String, setting: String, defaultBase: String) {
        self.name = name
        self.setting = setting
        self.defaultBase = defaultBase
    }
}

/// A JSON API through the response cache: conditional GET, retries, the sanity checks of each
/// endpoint, and a good copy kept over a worse answer.
public struct APIClient: Sendable {
    public let service: APIService
    public let base: String
    let http: any HTTPClient
    let cache: ResponseCache?
    let mode: FetchMode
    let now: @Sendable () -> Date
    let logger: Logger
    /// Retries for each request; a fan-out over many resources wants fewer.
    var retry: RetryPolicy? = .standard

    /// `base` must already be normalised (ends in `/`; the NHL's in `/v1/`).
    public init(
        service: APIService,
        base: String? = nil,
        http: any HTTPClient,
        cache: ResponseCache?,
        mode: FetchMode = .normal,
        now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "faceoff.nhl")
    ) {
        self.service = service
        self.base = base ?? service.defaultBase
        self.http = http
        self.cache = cache
        self.mode = mode
        self.now = now
        self.logger = logger
    }

    /// Whether `path` (under the base) has a `..` segment anywhere, its query too (a file://
    /// mirror keeps the query in the file's name), as written or percent-encoded (`%2e%2e`,
    /// `..%2f`): each piece is decoded on its own, so one bad escape hides no other.
    static func leavesBase(_ path: String) -> Bool {
        let separators: Set<Character> = ["/", "\\", "?", "&", "="]
        func pieces(_ text: Substring) -> [Substring] { text.split(omittingEmptySubsequences: false) { separators.contains($0) } }
        return pieces(path[...]).contains { piece in
            let decoded = piece.removingPercentEncoding.map { Substring($0) } ?? piece
            return pieces(decoded).contains { $0 == ".." } || decoded.lowercased().contains("%2e")
        }
    }

    /// The same client with another retry policy.
    public func retrying(_ policy: RetryPolicy?) -> APIClient {
        var copy = self
        copy.retry = policy
        return copy
    }

    /// `revalidate` asks the server (conditionally) even when the cached copy is fresh: a
    /// watcher polling a game wants the feed as it is now.
    public func fetch<Response>(_ endpoint: Endpoint<Response>, revalidate: Bool = false) async throws -> Fetched<Response> {
        let url = base + endpoint.path
        // A path typed by hand (`faceoff api ../../etc/passwd`) never climbs out of the base:
        // with a file:// mirror that would read any file of the machine.
        if Self.leavesBase(endpoint.path) { throw APIError(.outsideBase, url: url) }
        let cached = cachedEntry(url)
        let date = now()

        if mode == .offline {
            guard let cached else { throw APIError(.notCached, url: url) }
            return Fetched(
                value: try decode(endpoint, cached.body, url: url), origin: .stale(age: cached.age(at: date), reason: "offline"), url: url)
        }
        if !revalidate, let cached, cached.isFresh(at: date), let value = try? decode(endpoint, cached.body, url: url) {
            return Fetched(value: value, origin: .cache(age: cached.age(at: date)), url: url)
        }

        do {
            let response: HTTPResponse
            do {
                response = try await http.send(HTTPRequest(url: url, retry: retry, conditional: cached?.validators))
                logger.debug("GET", metadata: ["url": "\(url)", "status": "\(response.status)"])
            } catch let error as HTTPError where error.kind == .notFound || error.status == 404 {
                logger.debug("GET", metadata: ["url": "\(url)", "status": "404"])
                throw endpoint.missing.map { APIError(.notFound, url: url, detail: $0) }
                    ?? APIError(.wrongServer, url: url, detail: service.wrongServerDetail)
            }
            if response.isNotModified {
                guard let cached else { throw APIError(.unexpectedNotModified, url: url) }
                let value = try decode(endpoint, cached.body, url: url)
                await store { try await $0.revalidated(url, at: date, freshness: endpoint.freshness(value, date)) }
                return Fetched(value: value, origin: .network, url: url)
            }
            // Decode and check before storing, so a broken, empty or gutted answer never replaces a good copy.
            let value = try decode(endpoint, response.body, url: url)
            if let cached, let good = try? decode(endpoint, cached.body, url: url), let why = endpoint.regression(value, good) {
                throw APIError(.wrongAnswer, url: url, detail: why)
            }
            let entry = CachedResponse(
                url: url, body: response.body, validators: response.validators, fetchedAt: date,
                freshness: endpoint.freshness(value, date))
            await store { try await $0.save(entry) }
            return Fetched(value: value, origin: .network, url: url)
        } catch let error where !(error is CancellationError) {
            guard let cached, isWorthFallingBack(error), let value = try? decode(endpoint, cached.body, url: url) else {
                throw error
            }
            // The caller says so to the user (Fetched.staleness); the log keeps the detail.
            logger.debug("request failed; using the cached copy", metadata: ["url": "\(url)", "error": "\(error)"])
            return Fetched(value: value, origin: .stale(age: cached.age(at: date), reason: "\(error)"), url: url)
        }
    }

    /// Any failure but "no such player or game".
    private func isWorthFallingBack(_ error: any Error) -> Bool {
        if let error = error as? APIError { return error.code != .notFound }
        return error is HTTPError
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

    private func store(_ body: (ResponseCache) async throws -> Void) async {
        guard let cache else { return }
        do {
            try await body(cache)
        } catch {
            logger.warning("cannot write the response cache", metadata: ["error": "\(error)"])
        }
    }

    /// The answer decoded and checked: one that fails `Endpoint.problem` is an error.
    func decode<T>(_ endpoint: Endpoint<T>, _ body: [UInt8], url: String) throws(APIError) -> T {
        let value = try decode(T.self, body, url: url)
        if let problem = endpoint.problem(value) { throw APIError(.wrongAnswer, url: url, detail: problem) }
        return value
    }

    func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8], url: String) throws(APIError) -> T {
        guard let first = body.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else {
            throw APIError(.notJSON, url: url, detail: "the body is empty; \(service.name) may be down, or check \(service.setting)")
        }
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            let start = String(decoding: body.prefix(40), as: UTF8.self).split(whereSeparator: \.isNewline).joined(separator: " ")
            throw APIError(
                .notJSON, url: url, detail: "it starts with \"\(start)\"; \(service.name) may be down, or check \(service.setting)")
        }
        do {
            return try APIText.decode(T.self, from: body)
        } catch let error as DecodingError {
            throw APIError(.undecodable, url: url, detail: DecodingErrorText.describe(error))
        } catch {
            throw APIError(.undecodable, url: url, detail: "\(error)")
        }
    }
}

public struct APIError: ReportedError, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        case notJSON
        case undecodable
        case notCached
        case unexpectedNotModified
        /// Valid JSON, but empty or about something else than what was asked.
        case wrongAnswer
        /// A 404 for something the user named: it does not exist (`detail` says what).
        case notFound
        /// A 404 for a resource the API always has: the server is not that API.
        case wrongServer
        /// The path asked for climbs out of the API's base (`..`): refused before any request.
        case outsideBase
    }

    public let code: Code
    public let url: String
    public let detail: String

    package init(_ code: Code, url: String, detail: String = "") {
        self.code = code
        self.url = url
        self.detail = detail
    }

    public var description: String {
        switch code {
        case .notJSON: "\(url): the response is not JSON: \(detail)"
        case .undecodable: "\(url): the response could not be read: \(detail)"
        case .notCached: "\(url): no cached copy to use offline; run once without --offline"
        case .unexpectedNotModified: "\(url): the server answered 304 Not Modified to a request that had no cached copy"
        case .wrongAnswer: "\(url): the answer was empty or wrong (\(detail)); not using it"
        case .notFound: "\(detail) (\(url) answered 404 Not Found)"
        case .wrongServer: "\(url) answered 404 Not Found, \(detail)"
        case .outsideBase: "\(url): the path leaves the API's base (a '..' in it); give a path under the base, such as standings/now"
        }
    }
}

/// A decoding error in plain words, with where in the JSON it happened.
public enum DecodingErrorText {
    public static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let components = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
            let joined = components.joined()
            return joined.hasPrefix(".") ? String(joined.dropFirst()) : (joined.isEmpty ? "the top level" : joined)
        }
        switch error {
        case .typeMismatch(let type, let context):
            // Foundation says "Expected to decode Dictionary<String, Any> but found an array instead."
            let said = context.debugDescription
            let found = said.range(of: "but found ").flatMap { start in
                said.range(of: " instead", range: start.upperBound..<said.endIndex).map { String(said[start.upperBound..<$0.lowerBound]) }
            }
            let foundText = found.map { ", found \(Self.words(forFound: $0))" } ?? ""
            return "at \(path(context)): expected \(words(for: type))\(foundText)"
        case .valueNotFound(let type, let context): return "at \(path(context)): missing \(words(for: type))"
        case .keyNotFound(let key, let context): return "at \(path(context)): missing key '\(key.stringValue)'"
        case .dataCorrupted(let context): return "at \(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    /// A Swift type as the JSON it stands for: "an object", "a list", "a number".
    static func words(for type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Dictionary") || name.hasPrefix("KeyedDecodingContainer") { return "an object" }
        if name.hasPrefix("Array") || name.hasPrefix("UnkeyedDecodingContainer") { return "a list" }
        if name == "String" { return "text" }
        if name == "Bool" { return "true or false" }
        if ["Int", "Int64", "Int32", "Double", "Float", "Decimal"].contains(name) { return "a number" }
        return "a value of type \(name)"
    }

    static func words(forFound found: String) -> String {
        switch found {
        case "an array": "a list"
        case "a dictionary": "an object"
        case "a string", "a string/data": "text"
        case "a bool", "bool": "true or false"
        default: found
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

/// What the API writes reaches terminals and notification servers: its JSON's strings lose
/// their control characters (escape sequences that retitle a terminal, clear it or write the
/// clipboard start with ESC or a C1 control) before decoding, so no answer, cached or fresh,
/// carries one. Newlines and tabs stay.
public enum APIText {
    /// An API answer (or a recording of one) decoded, its strings without control characters.
    public static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(withoutControls(body)))
    }

    static func withoutControls(_ body: [UInt8]) -> [UInt8] {
        // Most answers have neither an escaped control nor a C1 character: no copy then.
        guard body.contains(where: { $0 == UInt8(ascii: "\\") || $0 == 0xC2 || $0 == 0x7F }) else { return body }
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var index = 0
        let space = Array("\\u0020".utf8)
        func hex(_ byte: UInt8) -> Int? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
            default: nil
            }
        }
        while index < body.count {
            let byte = body[index]
            if byte == UInt8(ascii: "\\"), index + 1 < body.count {
                let next = body[index + 1]
                if next == UInt8(ascii: "u"), index + 5 < body.count,
                    let a = hex(body[index + 2]), let b = hex(body[index + 3]), let c = hex(body[index + 4]), let d = hex(body[index + 5])
                {
                    let code = a << 12 | b << 8 | c << 4 | d
                    let control = (code < 0x20 && code != 0x0A && code != 0x09) || (0x7F...0x9F).contains(code)
                    if control { out += space } else { out += body[index..<index + 6] }
                    index += 6
                    continue
                }
                // \b \f \r: controls too; any other escape (\\ \" \n \t \/) as it is.
                if [UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "r")].contains(next) { out += space } else { out += [byte, next] }
                index += 2
                continue
            }
            // U+0080...U+009F raw in UTF-8 (C2 80...C2 9F), and DEL: a space.
            if byte == 0xC2, index + 1 < body.count, (0x80...0x9F).contains(body[index + 1]) {
                out.append(UInt8(ascii: " "))
                index += 2
                continue
            }
            out.append(byte == 0x7F ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return out
    }
}

extension APIService {
    /// What a 404 for a resource the API always has says.
    var wrongServerDetail: String {
        "which \(name) never does for it: the server is not \(name) as expected; check \(setting)"
    }
}
