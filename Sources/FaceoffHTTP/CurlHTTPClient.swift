import CCurl
import FaceoffBase
import Foundation
import Logging
import Synchronization

/// `HTTPClient` over libcurl: https and file:// through one code path.
///
/// Each attempt creates, uses and frees its own easy handle on a dispatch queue of its own,
/// so the blocking `curl_easy_perform` never occupies Swift's cooperative thread pool.
/// A progress callback checks a flag that task cancellation sets, so a cancelled task
/// abandons its transfer within libcurl's progress interval (about a second) instead of
/// waiting out the timeout.
public struct CurlHTTPClient<C: Clock>: HTTPClient where C.Duration == Duration {
    private let clock: C
    private let logger: Logger

    public init(clock: C, logger: Logger = Logger(label: "faceoff.http")) {
        self.clock = clock
        self.logger = logger
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let policy = request.retry ?? RetryPolicy(maxAttempts: 1, baseDelay: .zero, maxDelay: .zero, maxTotal: .zero)
        let start = clock.now
        var attempt = 0
        while true {
            attempt += 1
            try Task.checkCancellation()
            var attemptRequest = request
            if request.retry != nil {
                // No attempt may run past the whole exchange's budget.
                let remaining = policy.maxTotal - start.duration(to: clock.now)
                attemptRequest.totalTimeout = max(.milliseconds(1), min(request.totalTimeout, remaining))
            }
            do {
                return try await performOnce(attemptRequest)
            } catch let error as HTTPError where error.isTransient && attempt < policy.maxAttempts {
                let wait = policy.delay(
                    afterAttempt: attempt, retryAfter: error.retryAfter, unit: Double.random(in: 0..<1))
                let elapsed = start.duration(to: clock.now)
                guard elapsed + wait <= policy.maxTotal else {
                    logger.debug(
                        "giving up: the next retry would exceed the time budget",
                        metadata: ["url": "\(request.displayURL)", "attempt": "\(attempt)", "error": "\(error)"])
                    throw error
                }
                // Each attempt is detail: what failed for good (or an outage) is said by the caller.
                logger.debug(
                    "request failed; retrying",
                    metadata: [
                        "url": "\(request.displayURL)", "attempt": "\(attempt)", "error": "\(error)",
                        "retry_in": "\(DurationText.log(wait))",
                    ])
                try await clock.sleep(for: wait)
            }
        }
    }

    private func performOnce(_ request: HTTPRequest) async throws -> HTTPResponse {
        var mirrored = request
        mirrored.url = Self.mirrored(request.url)
        let request = mirrored
        if let other = Self.notAFile(request.url) {
            // A FIFO would hold the read forever (no timeout applies to a file), a device
            // would pour out bytes: only a regular file is read.
            throw HTTPError(.invalidURL, url: request.url, detail: "a file:// mirror holds only files; this is \(other)")
        }
        let cancelFlag = CancelFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                CurlGlobal.queue.async {
                    continuation.resume(with: Result { try CurlTransfer.perform(request, cancelFlag: cancelFlag) })
                }
            }
        } onCancel: {
            cancelFlag.cancel()
        }
    }
}

extension CurlHTTPClient {
    /// A `file://` mirror's file for a URL: the URL's path, or, where that path is a folder
    /// (an API whose `teams` is an answer and `teams/13/roster` another), the folder's
    /// `index.json`, as a web server serves a folder's index.
    /// A query is part of the file's name (`scoreboard?dates=20241215`), so each day is a file
    /// of its own and a missing one is missing, never another day's.
    static func mirrored(_ url: String) -> String {
        guard url.hasPrefix("file://") else { return url }
        if url.contains("?") { return url.replacingOccurrences(of: "?", with: "%3F") }
        guard let path = URL(string: url)?.path else { return url }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return url }
        return (url.hasSuffix("/") ? url : url + "/") + "index.json"
    }

    /// What a `file://` URL names when it is there but is no regular file (a FIFO, a
    /// device, a socket), in words; nil for a regular file, a missing one or another scheme.
    static func notAFile(_ url: String) -> String? {
        guard url.hasPrefix("file://"), let path = URL(string: url)?.resolvingSymlinksInPath().path,
            let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
        else { return nil }
        switch type {
        case .typeRegular, .typeDirectory: return nil
        case .typeCharacterSpecial, .typeBlockSpecial: return "a device"
        case .typeSocket: return "a socket"
        default: return "a FIFO or another special file"
        }
    }

    /// Why no request can be made (libcurl could not be loaded), or nil. Loads libcurl.
    public static var unavailableReason: String? {
        CurlGlobal.loadFailure.map { "\(HTTPError.noHTTPLibrary) (\($0))" }
    }
}

extension CurlHTTPClient where C == ContinuousClock {
    public init(logger: Logger = Logger(label: "faceoff.http")) {
        self.init(clock: ContinuousClock(), logger: logger)
    }
}

final class CancelFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func cancel() { flag.store(true, ordering: .relaxed) }
    var isCancelled: Bool { flag.load(ordering: .relaxed) }
}

enum CurlGlobal {
    /// nil once libcurl is loaded and initialised; else what went wrong.
    static let loadFailure: String? = {
        var message = [CChar](repeating: 0, count: 512)
        guard faceoff_curl_load(&message, message.count) != 0 else { return nil }
        return text(of: message)
    }()

    /// The text a C function wrote into `buffer`, up to its NUL.
    static func text(of buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    static let queue = DispatchQueue(label: "faceoff.curl", qos: .utility, attributes: .concurrent)
}

/// The state of one transfer, reachable from libcurl's C callbacks through a raw pointer.
private final class TransferState {
    var body: [UInt8] = []
    var headers: [String: String] = [:]
    let cancelFlag: CancelFlag
    let maxBodyBytes: Int
    /// The body passed `maxBodyBytes`: the write callback stopped the transfer.
    var tooLarge = false

    init(cancelFlag: CancelFlag, maxBodyBytes: Int) {
        self.cancelFlag = cancelFlag
        self.maxBodyBytes = maxBodyBytes
    }
}

private enum CurlTransfer {
    static func perform(_ request: HTTPRequest, cancelFlag: CancelFlag) throws -> HTTPResponse {
        if cancelFlag.isCancelled { throw CancellationError() }
        if let failure = CurlGlobal.loadFailure { throw HTTPError(.noHTTPLibrary, url: request.displayURL, detail: failure) }
        guard let handle = faceoff_curl_easy_init() else {
            throw HTTPError(.transport, url: request.displayURL, detail: "curl_easy_init failed")
        }
        defer { faceoff_curl_easy_cleanup(handle) }

        let state = TransferState(cancelFlag: cancelFlag, maxBodyBytes: request.maxBodyBytes)
        let statePointer = Unmanaged.passUnretained(state).toOpaque()
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

        var headerList: UnsafeMutablePointer<curl_slist>? = nil
        defer { faceoff_curl_slist_free_all(headerList) }
        for line in headerLines(for: request) {
            headerList = faceoff_curl_slist_append(headerList, line)
        }

        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errorPointer in
            faceoff_curl_setopt_string(handle, CURLOPT_URL, request.url)
            faceoff_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https,file")
            faceoff_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
            faceoff_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, request.followRedirects ? 1 : 0)
            faceoff_curl_setopt_long(handle, CURLOPT_MAXREDIRS, 5)
            faceoff_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "gzip, deflate")
            faceoff_curl_setopt_string(handle, CURLOPT_USERAGENT, FaceoffInfo.userAgent)
            faceoff_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList)
            faceoff_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(request.connectTimeout))
            faceoff_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds(request.totalTimeout))
            faceoff_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            faceoff_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorPointer.baseAddress)

            faceoff_curl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, writeCallback)
            faceoff_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, statePointer)
            faceoff_curl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, headerCallback)
            faceoff_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, statePointer)
            faceoff_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
            faceoff_curl_setopt_xferinfo_callback(handle, progressCallback)
            faceoff_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, statePointer)

            switch request.method {
            case .get:
                break
            case .head:
                faceoff_curl_setopt_long(handle, CURLOPT_NOBODY, 1)
            case .post, .patch:
                let body = request.body ?? []
                faceoff_curl_setopt_long(handle, CURLOPT_POST, 1)
                if request.method == .patch { faceoff_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, "PATCH") }
                faceoff_curl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
                body.withUnsafeBufferPointer { bytes in
                    // COPYPOSTFIELDS copies the bytes, so the buffer need not outlive this call.
                    _ = faceoff_curl_setopt_pointer(
                        handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                }
            }
            return withExtendedLifetime(state) { faceoff_curl_easy_perform(handle) }
        }

        let detail = CurlGlobal.text(of: errorBuffer)
        var effectiveURL = request.url
        var urlPointer: UnsafeMutablePointer<CChar>? = nil
        if faceoff_curl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &urlPointer) == CURLE_OK, let urlPointer {
            effectiveURL = String(cString: urlPointer)
        }
        // Errors name the URL as the caller allows it to be shown.
        let shownURL = request.displayURL == request.url ? effectiveURL : request.displayURL

        if code != CURLE_OK {
            if code == CURLE_ABORTED_BY_CALLBACK { throw CancellationError() }
            if state.tooLarge { throw HTTPError(.tooLarge(limit: request.maxBodyBytes), url: shownURL) }
            var osErrno = 0
            faceoff_curl_getinfo_long(handle, CURLINFO_OS_ERRNO, &osErrno)
            throw HTTPError(kind(of: code, osErrno: Int32(osErrno)), url: shownURL, detail: request.displayURL == request.url ? detail : "")
        }

        var status = 0
        faceoff_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        // file:// has no status line; a read that succeeded is as good as a 200.
        if status == 0 { status = 200 }

        let response = HTTPResponse(
            status: status, headers: state.headers, body: state.body, effectiveURL: effectiveURL)
        if (200..<300).contains(status) || status == 304 {
            return response
        }
        throw HTTPError(
            .status(status), url: shownURL, detail: statusDetail(response),
            retryAfter: response.headers["retry-after"].flatMap { parseRetryAfter($0) })
    }

    static func headerLines(for request: HTTPRequest) -> [String] {
        var lines: [String] = []
        let given = Set(request.headers.map { $0.name.lowercased() })
        if !given.contains("accept") { lines.append("Accept: application/json") }
        if let conditional = request.conditional {
            if let etag = conditional.etag { lines.append("If-None-Match: \(etag)") }
            if let lastModified = conditional.lastModified { lines.append("If-Modified-Since: \(lastModified)") }
        }
        for header in request.headers {
            // A CR or LF in a header value would let a config value inject headers.
            // ("\r\n" is one Character in Swift, so filter scalars, not characters.)
            let value = String(String.UnicodeScalarView(header.value.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }))
            lines.append("\(header.name): \(value)")
        }
        if request.method == .post || request.method == .patch, !given.contains("content-type") {
            lines.append("Content-Type: application/json")
        }
        // libcurl adds "Expect: 100-continue" to larger POSTs; receivers don't need the round trip.
        if request.method == .post || request.method == .patch { lines.append("Expect:") }
        return lines
    }

    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    static func kind(of code: CURLcode, osErrno: Int32) -> HTTPError.Kind {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .dnsFailure
        case CURLE_COULDNT_CONNECT:
            return osErrno == ECONNREFUSED ? .connectionRefused : .connectionFailed
        case CURLE_OPERATION_TIMEDOUT:
            return .timeout
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE:
            return .tls
        case CURLE_PARTIAL_FILE:
            return .truncatedBody
        case CURLE_BAD_CONTENT_ENCODING:
            return .badEncoding
        case CURLE_FILE_COULDNT_READ_FILE, CURLE_REMOTE_FILE_NOT_FOUND:
            return .notFound
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return .invalidURL
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR:
            return .connectionFailed
        default:
            return .transport
        }
    }

    static func statusDetail(_ response: HTTPResponse) -> String {
        let type = response.headers["content-type"] ?? ""
        guard type.contains("text") || type.contains("json") else { return "" }
        let text = String(decoding: response.body.prefix(160), as: UTF8.self)
            .split(whereSeparator: \.isNewline).joined(separator: " ")
        return text
    }
}

/// `Retry-After` is either whole seconds or an HTTP date.
func parseRetryAfter(_ value: String, now: Date = Date()) -> Duration? {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    if let seconds = Int(trimmed) { return .seconds(max(0, seconds)) }
    guard let date = HTTPDate.parse(trimmed) else { return nil }
    return .seconds(max(0, date.timeIntervalSince(now).rounded(.up)))
}

private let writeCallback: faceoff_curl_data_callback = { data, size, count, userdata in
    let length = size * count
    guard let data, let userdata else { return length }
    let state = Unmanaged<TransferState>.fromOpaque(userdata).takeUnretainedValue()
    guard state.body.count + length <= state.maxBodyBytes else {
        // Anything but `length` makes libcurl stop with a write error.
        state.tooLarge = true
        return 0
    }
    data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
        state.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
    }
    return length
}

private let headerCallback: faceoff_curl_data_callback = { data, size, count, userdata in
    let length = size * count
    guard let data, let userdata else { return length }
    let state = Unmanaged<TransferState>.fromOpaque(userdata).takeUnretainedValue()
    let line = data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
        String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
    }
    if line.hasPrefix("HTTP/") {
        // A new status line: a redirect or a 100 Continue came before. Keep the last response's headers.
        state.headers = [:]
    } else if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        state.headers[name] = value
    }
    return length
}

private let progressCallback: faceoff_curl_xferinfo_callback = { userdata, _, _, _, _ in
    guard let userdata else { return 0 }
    let state = Unmanaged<TransferState>.fromOpaque(userdata).takeUnretainedValue()
    return state.cancelFlag.isCancelled ? 1 : 0
}
