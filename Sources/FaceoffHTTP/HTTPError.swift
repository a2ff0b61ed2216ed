import FaceoffBase

/// A failed HTTP exchange: what went wrong and with which URL, phrased for a person.
public struct HTTPError: ReportedError, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case dnsFailure
        case connectionRefused
        case connectionFailed
        case timeout
        case tls
        case status(Int)
        case truncatedBody
        /// Larger than `HTTPRequest.maxBodyBytes`.
        case tooLarge(limit: Int)
        /// Sent compressed, but the compressed data is corrupt.
        case badEncoding
        case notFound
        case tooManyRedirects
        case invalidURL
        case transport
        /// libcurl could not be loaded: nothing can be fetched until it is installed.
        case noHTTPLibrary
    }

    public let kind: Kind
    public let url: String
    /// The transport's own words (libcurl's error buffer), for logs.
    public let detail: String
    /// For 429 and 503: how long the server asked us to wait.
    public let retryAfter: Duration?

    public init(_ kind: Kind, url: String, detail: String = "", retryAfter: Duration? = nil) {
        self.kind = kind
        self.url = url
        self.detail = detail
        self.retryAfter = retryAfter
    }

    public var status: Int? {
        if case .status(let code) = kind { return code }
        return nil
    }

    /// Worth another attempt: the failure may pass on its own.
    public var isTransient: Bool {
        switch kind {
        case .timeout, .connectionRefused, .connectionFailed, .dnsFailure, .truncatedBody, .transport:
            return true
        case .status(let code):
            return code == 408 || code == 429 || (500...599).contains(code)
        case .tls, .notFound, .tooManyRedirects, .invalidURL, .noHTTPLibrary, .tooLarge, .badEncoding:
            return false
        }
    }

    static let noHTTPLibrary = "libcurl could not be loaded; install it with `sudo apt-get install libcurl4`"

    public var description: String {
        let what: String
        switch kind {
        case .dnsFailure: what = "could not resolve the host name (check the network or the API base URL)"
        case .connectionRefused: what = "the connection was refused (is the server running?)"
        case .connectionFailed: what = "could not connect"
        case .timeout: what = "the server did not answer in time (it may be down or slow; try again later)"
        case .tls: what = "the TLS handshake or certificate check failed"
        case .status(let code): what = "the server answered HTTP \(code)"
        case .truncatedBody: what = "the response body was cut short"
        case .tooLarge(let limit):
            what = "the answer is larger than \(limit >> 20) MB, far more than any answer of the leagues' APIs; not reading it"
        case .badEncoding: what = "the answer was sent compressed, but its compressed data is corrupt"
        case .notFound: what = "not found"
        case .tooManyRedirects: what = "too many redirects"
        case .invalidURL: what = "the URL is not valid"
        case .transport: what = "the transfer failed"
        case .noHTTPLibrary: what = Self.noHTTPLibrary
        }
        return "\(url): \(reason(what))"
    }

    /// What went wrong without the URL, for a message that names it already.
    public var reason: String {
        let full = description
        return full.hasPrefix("\(url): ") ? String(full.dropFirst(url.count + 2)) : full
    }

    private func reason(_ what: String) -> String { detail.isEmpty ? what : "\(what) (\(detail))" }
}
