import Foundation
import Logging
import Synchronization

/// HTTP POSTs of JSON, signed per Standard Webhooks, delivered from the outbox: in order per
/// sink, retried with backoff until the event's expiry, never a redirect followed.
public final class WebhookSink: DurableSink {
    public let name: String
    let config: SinkConfig
    let url: String
    let renderer: Renderer
    let http: any HTTPClient
    let outbox: Outbox?
    let signer: WebhookSigner?
    let schedule: RetrySchedule
    let now: @Sendable () -> Date
    let logger: Logger
    private let wake = WakeSignal()
    private let disabled = Mutex<String?>(nil)

    /// When attempts after the first are made: the delays of the issue (5 s, 30 s, 2 min,
    /// 10 min, then every 10 min), with jitter. Tests shrink them.
    public struct RetrySchedule: Sendable {
        public var delays: [Duration]
        public var jitter: Double
        /// How often the worker looks for rows another process queued.
        public var idleCheck: Duration
        public static let standard = RetrySchedule(
            delays: [.seconds(5), .seconds(30), .seconds(120), .seconds(600)], jitter: 0.2, idleCheck: .seconds(30))

        public init(delays: [Duration], jitter: Double, idleCheck: Duration) {
            self.delays = delays
            self.jitter = jitter
            self.idleCheck = idleCheck
        }

        /// The wait after `attempts` failed attempts.
        func delay(after attempts: Int) -> Duration {
            let base = delays[min(max(attempts - 1, 0), delays.count - 1)]
            guard jitter > 0 else { return base }
            return base * Double.random(in: (1 - jitter)...(1 + jitter))
        }
    }

    public init(
        config: SinkConfig, renderer: Renderer, http: any HTTPClient, outbox: Outbox?, schedule: RetrySchedule = .standard,
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "faceoff.webhook")
    ) {
        name = config.displayName
        self.config = config
        url = config.url ?? ""
        self.renderer = renderer
        self.http = http
        // A lease owner of its own: two sinks (or a sink before and after a reload) of one
        // process never take each other's rows.
        self.outbox = outbox.map { Outbox(store: $0.store, owner: $0.owner + ":" + UUID().uuidString.prefix(6)) }
        signer = config.secret.flatMap(WebhookSigner.init(secret:))
        self.schedule = schedule
        self.now = now
        self.logger = logger
        if let outbox, let reason = try? outbox.disabledReason(sink: name, url: url) {
            disabled.withLock { $0 = reason }
            logger.warning("webhook sink stays disabled", metadata: ["sink": "\(name)", "reason": "\(reason)"])
        }
    }

    /// The URL as logs and errors show it: a webhook URL is often its own credential.
    public var displayURL: String { Self.redact(url) }

    static func redact(_ url: String) -> String {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host else { return "<webhook url>" }
        let port = components.port.map { ":\($0)" } ?? ""
        let path = components.path.isEmpty || components.path == "/" ? "/" : "/…"
        return "\(scheme)://\(host)\(port)\(path)"
    }

    public var disabledReason: String? { disabled.withLock { $0 } }

    // MARK: Sink

    /// Without a store (test-alert, replay): one attempt now, reported.
    public func send(_ event: GameEvent) async -> Delivery {
        if let reason = disabledReason { return .skipped(reason) }
        let body: [UInt8]
        do { body = try renderer.webhookBody(event, preset: config.preset, url: url) } catch { return .failed(error.description) }
        switch await attempt(id: event.id, body: body) {
        case .delivered(let status): return .delivered("HTTP \(status)")
        case .retry(let why, _), .refused(let why): return .failed(why)
        case .gone(let why): return .failed(why)
        case .cancelled: return .failed("cancelled")
        }
    }

    /// Puts the alert in the outbox; throws when the store can't take it (a full disk), so
    /// the router can still send it once, directly.
    public func enqueue(_ event: GameEvent, at date: Date) throws(StoreError) -> Delivery {
        guard let outbox else { return .failed("no store for the outbox") }
        if let reason = disabledReason {
            // Claimed all the same: a sink that is off does not owe this alert later.
            _ = try? Ledger(store: outbox.store).claim(event, sink: name, at: date)
            return .skipped(reason)
        }
        let body: [UInt8]
        do {
            body = try renderer.webhookBody(event, preset: config.preset, url: url)
        } catch {
            logger.error("alert not sent: its template is broken", metadata: ["sink": "\(name)", "event": "\(event.id)", "error": "\(error)"])
            return .failed(error.description)
        }
        let expires = date.addingTimeInterval(Double(config.expiry.components.seconds))
        guard try outbox.enqueue(event, sink: name, body: body, at: date, expiresAt: expires) else { return .duplicate }
        wake.fire()
        return .queued
    }

    public func settle(timeout: Duration) async -> Bool {
        guard let outbox else { return true }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if disabledReason != nil { return true }
            guard let pending = try? outbox.pending(sink: name), !pending.isEmpty else { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return ((try? outbox.pending(sink: name))?.isEmpty) ?? false
    }

    // MARK: The outbox worker

    public func run() async {
        guard let outbox else { return }
        let lease = Double(10 + 20)
        // What a previous run left owed is tried at once on start: how long ago its last
        // attempt failed is not a reason to wait now.
        var resumed = false
        // Rows the receiver took whose deletion failed (a full disk): never sent again.
        var taken: Set<Int64> = []
        // The store refused a lease last time (logged once until it works again).
        var storeFailing = false
        while !Task.isCancelled {
            if disabledReason != nil { return }
            let item: Outbox.Item?
            do { item = try outbox.head(sink: name) } catch {
                logger.error("cannot read the outbox; trying again", metadata: ["sink": "\(name)", "error": "\(error)"])
                await pause(schedule.idleCheck)
                continue
            }
            guard let item else {
                await pause(schedule.idleCheck)
                continue
            }
            if taken.contains(item.id) {
                if (try? outbox.delivered(item)) == nil { await pause(schedule.idleCheck, wakeable: false) }
                continue
            }
            let current = now()
            if item.expiresAt <= current {
                logger.error("alert expired undelivered", metadata: [
                    "sink": "\(name)", "event": "\(item.eventID)", "attempts": "\(item.attempts)", "last_error": "\(item.lastError ?? "-")",
                ])
                try? outbox.drop(item)
                continue
            }
            if resumed, item.nextAttemptAt > current {
                // The head waits, and so does everything behind it: order is kept.
                await pause(.seconds(item.nextAttemptAt.timeIntervalSince(current)), wakeable: false)
                continue
            }
            resumed = true
            do {
                guard try outbox.lease(item, until: current.addingTimeInterval(lease), now: current) else {
                    // Another process is delivering it.
                    await pause(.seconds(1), wakeable: false)
                    continue
                }
                storeFailing = false
            } catch {
                // A full or read-only disk: the row stays owed, and is sent once the store can
                // say so (sending without a lease could send it twice).
                if !storeFailing {
                    logger.error("cannot take the next alert from the outbox; it waits there until the store can be written", metadata: [
                        "sink": "\(name)", "event": "\(item.eventID)", "error": "\(error)",
                    ])
                }
                storeFailing = true
                await pause(schedule.idleCheck, wakeable: false)
                continue
            }
            let outcome = await attempt(id: item.eventID, body: item.body)
            let metadata: Logger.Metadata = ["sink": "\(name)", "event": "\(item.eventID)", "attempt": "\(item.attempts + 1)"]
            switch outcome {
            case .delivered(let status):
                logger.info("alert delivered", metadata: metadata.merging(["status": "\(status)"]) { $1 })
                do { try outbox.delivered(item) } catch {
                    taken.insert(item.id)
                    logger.error("cannot record a delivery in the store; it will not be sent again", metadata: metadata.merging(["error": "\(error)"]) { $1 })
                }
            case .cancelled:
                // Stopping: the row stays, unleased and uncounted, for the next start.
                try? outbox.release(item)
                return
            case .retry(let why, let after):
                let wait = max(after ?? .zero, schedule.delay(after: item.attempts + 1))
                let at = now().addingTimeInterval(Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18)
                if at >= item.expiresAt {
                    logger.error("alert expired undelivered", metadata: metadata.merging(["error": "\(why)"]) { $1 })
                    try? outbox.drop(item)
                } else {
                    logger.warning("delivery failed; will retry", metadata: metadata.merging(["error": "\(why)", "retry_in": "\(wait)"]) { $1 })
                    // Even if the store can't take the new time, never hammer the receiver.
                    if (try? outbox.retry(item, at: at, error: why)) == nil { await pause(wait, wakeable: false) }
                }
            case .refused(let why):
                logger.error("receiver refused the alert; not retrying", metadata: metadata.merging(["error": "\(why)"]) { $1 })
                try? outbox.drop(item)
            case .gone(let why):
                disabled.withLock { $0 = why }
                try? outbox.disable(sink: name, url: url, reason: why, at: now())
                let dropped = (try? outbox.dropAll(sink: name)) ?? 0
                logger.warning("webhook sink disabled: the receiver is gone", metadata: metadata.merging(["error": "\(why)", "dropped": "\(dropped)"]) { $1 })
                return
            }
        }
    }

    /// Sleeps, or until a new row is queued.
    private func pause(_ duration: Duration, wakeable: Bool = true) async {
        guard wakeable else {
            try? await Task.sleep(for: duration)
            return
        }
        await wake.wait(timeout: duration)
    }

    enum Attempt: Sendable {
        case delivered(Int)
        case cancelled
        case retry(String, after: Duration?)
        case refused(String)
        case gone(String)
    }

    /// One signed POST: a fresh timestamp and signature on every attempt, the same id.
    func attempt(id: String, body: [UInt8]) async -> Attempt {
        let timestamp = Int(now().timeIntervalSince1970)
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/json"),
            ("webhook-id", id),
            ("webhook-timestamp", String(timestamp)),
        ]
        if let signer { headers.append(("webhook-signature", signer.signature(id: id, timestamp: timestamp, body: body))) }
        for (header, value) in config.headers.sorted(by: { $0.key < $1.key }) { headers.append((header, value)) }
        var request = HTTPRequest(
            url: WebhookTarget.postURL(url, preset: config.preset), method: .post, headers: headers, body: body, followRedirects: false,
            retry: nil, connectTimeout: .seconds(10), totalTimeout: .seconds(10))
        request.displayURL = displayURL
        do {
            let response = try await http.send(request)
            return .delivered(response.status)
        } catch let error as HTTPError {
            let said = error.detail.isEmpty ? "" : " (\(Self.scrub(error.detail, secrets: secrets)))"
            guard let status = error.status else { return .retry("\(displayURL): \(Self.scrub(error.description, secrets: secrets))", after: nil) }
            switch status {
            case 410: return .gone("\(displayURL) answered 410 Gone\(said); fix the url in the config to enable the sink again")
            case 300..<400: return .refused("\(displayURL) answered \(status), a redirect, which webhooks don't follow; set url to the final address")
            case 408, 429, 500..<600: return .retry("\(displayURL) answered \(status)\(said)", after: error.retryAfter)
            default: return .refused("\(displayURL) answered \(status)\(said)")
            }
        } catch is CancellationError {
            return .cancelled
        } catch {
            if Task.isCancelled { return .cancelled }
            return .retry("\(displayURL): \(error)", after: nil)
        }
    }

    private var secrets: [String] {
        [config.secret, url].compactMap { $0 } + Array(config.headers.values)
    }

    /// Takes any secret out of text a receiver sent back (some echo the request).
    static func scrub(_ text: String, secrets: [String]) -> String {
        var text = text
        for secret in secrets where secret.count >= 6 { text = text.replacingOccurrences(of: secret, with: "<redacted>") }
        return text
    }
}
