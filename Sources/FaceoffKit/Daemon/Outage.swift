import FaceoffHTTP
import FaceoffStore
import Foundation
import Logging
import Synchronization

/// Whether the NHL API can be reached, as the daemon's requests find it: an outage is logged
/// once when it begins and once when it ends (not on every poll), and its start is kept in
/// the store so `faceoff status` can say its data is stale and since when.
///
/// An outage is a request that got no answer at all (no DNS, refused, dropped, timed out). A
/// server that answered, even with an error status, is reachable: that failure is the
/// caller's to report.
public final class Outage: Sendable {
    let logger: Logger
    package let store: Store?
    let now: @Sendable () -> Date
    private let since = Mutex<Date?>(nil)

    public init(logger: Logger, store: Store?, now: @escaping @Sendable () -> Date) {
        self.logger = logger
        self.store = store
        self.now = now
    }

    /// When the current outage began; nil while the API answers.
    public var start: Date? { since.withLock { $0 } }

    public static func isUnreachable(_ error: any Error) -> Bool {
        guard let error = error as? HTTPError else { return false }
        switch error.kind {
        case .dnsFailure, .connectionRefused, .connectionFailed, .timeout, .transport: return true
        default: return false
        }
    }

    /// A request failed: true when it was an outage (then it has been logged here).
    @discardableResult
    public func failed(_ error: any Error) async -> Bool {
        guard Self.isUnreachable(error) else { return false }
        let date = now()
        let began = since.withLock { state -> Bool in
            if state != nil { return false }
            state = date
            return true
        }
        if began {
            logger.warning(
                "the NHL API is unreachable; keeping the last good calendars and retrying every poll", metadata: ["error": "\(error)"])
            do { try await DaemonState(store: store).set(.outageSince, date) } catch {
                logger.debug("outage not recorded", metadata: ["error": "\(error)"])
            }
        }
        return true
    }

    /// A request got an answer.
    public func answered() async {
        guard
            let began = since.withLock({ state -> Date? in
                defer { state = nil }
                return state
            })
        else { return }
        logger.notice("the NHL API is reachable again", metadata: ["after": "\(Int(now().timeIntervalSince(began).rounded())) s"])
        do { try await DaemonState(store: store).set(.outageSince, nil) } catch {
            logger.debug("outage end not recorded", metadata: ["error": "\(error)"])
        }
    }
}

/// The NHL client's HTTP, watched for outages.
public struct OutageWatchingHTTPClient: HTTPClient {
    let base: any HTTPClient
    let outage: Outage

    public init(_ base: any HTTPClient, outage: Outage) {
        self.base = base
        self.outage = outage
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        do {
            let response = try await base.send(request)
            await outage.answered()
            return response
        } catch {
            // A status (even 404 or 503) is an answer; TLS or URL trouble says nothing either way.
            if await !outage.failed(error), let error = error as? HTTPError, error.status != nil || error.kind == .notFound {
                await outage.answered()
            }
            throw error
        }
    }
}
