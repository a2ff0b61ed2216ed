import FaceoffBase
import FaceoffHTTP
import FaceoffKit
import FaceoffStore
import Foundation
import Logging
import Synchronization

/// HTTP POSTs of JSON, signed per Standard Webhooks, delivered from the outbox: in order per
/// sink, retried with backoff until the event's expiry, never a redirect followed. This file
/// is what one delivery is (the body, the signature, what an answer means); the outbox worker
/// and its retry policy are in OutboxWorker.swift.
public final class WebhookSink: DurableSink, EditingSink {
    public let name: String
    let options: SinkConfig.Webhook
    let url: String
    let renderer: Renderer
    let http: any HTTPClient
    let outbox: Outbox?
    let signer: WebhookSigner?
    let schedule: RetrySchedule
    let now: @Sendable () -> Date
    /// What the outbox worker's waits sleep on (`now` is the same time as a date).
    let clock: any Clock<Duration>
    let logger: Logger
    /// Fired when a row is queued: the outbox worker looks at once.
    let wake = WakeSignal()
    let disabled = Mutex<String?>(nil)
    /// When it holds alerts (muted, quiet): its outbox then sends nothing queued either.
    let hold: SinkHold?

    public init(
        name: String, options: SinkConfig.Webhook, renderer: Renderer, http: any HTTPClient, outbox: Outbox?,
        schedule: RetrySchedule = .standard,
        now: @escaping @Sendable () -> Date = { Date() }, clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "faceoff.webhook"), hold: SinkHold? = nil
    ) {
        self.clock = clock
        self.hold = hold
        self.name = name
        self.options = options
        url = options.url
        self.renderer = renderer
        self.http = http
        // A lease owner of its own: two sinks (or a sink before and after a reload) of one
        // process never take each other's rows.
        self.outbox = outbox.map { Outbox(store: $0.store, owner: $0.owner + ":" + UUID().uuidString.prefix(6)) }
        signer = options.secret.flatMap(WebhookSigner.init(secret:))
        self.schedule = schedule
        self.now = now
        self.logger = logger
        if let outbox, let reason = try? outbox.disabledReason(sink: name, url: url) {
            disabled.withLock { $0 = reason }
            logger.warning("webhook sink stays disabled", metadata: ["sink": "\(name)", "reason": "\(reason)"])
        }
    }

    private func worker(_ settled: @escaping OutboxSettled = { _, _ in }) -> OutboxWorker {
        var worker = OutboxWorker(
            // An attempt's 10 s timeout, and a margin.
            name: name, outbox: outbox, schedule: schedule, lease: .seconds(30), wake: wake, now: now, logger: logger,
            disabledReason: { [self] in disabledReason },
            attempt: { [self] id, body in await attempt(id: id, body: body) },
            gone: { [self] why in
                disabled.withLock { $0 = why }
                try? await outbox?.disable(sink: name, url: url, reason: why, at: now())
            }, clock: clock, hold: hold, passesHold: { [self] id in edits(eventID: id) })
        worker.settled = settled
        return worker
    }

    /// Delivers the outbox's rows for this sink, until cancelled or disabled (a 410).
    public func run(settled: @escaping OutboxSettled) async { await worker(settled).run() }

    /// Waits until nothing is owed for this sink (or `timeout` passes); true when nothing is.
    public func settle(timeout: Duration) async -> Bool { await worker().settle(timeout: timeout) }

    /// The URL as logs and errors show it: a webhook URL is often its own credential.
    public var displayURL: String { SinkConfig.Webhook.shown(url) }

    public var disabledReason: String? { disabled.withLock { $0 } }

    // MARK: Sink

    /// Without a store (test-alert, replay): one attempt now, reported.
    public func send(_ event: GameEvent) async -> Delivery {
        if let reason = disabledReason { return .skipped(reason) }
        let body: [UInt8]
        do { body = try renderer.webhookBody(event, preset: options.preset, url: url) } catch { return .failed(error.description) }
        switch await post(id: event.id, body: body).outcome {
        case .delivered(let status): return .delivered("HTTP \(status)")
        case .retry(let why, _), .refused(let why): return .failed(why)
        case .gone(let why): return .failed(why)
        case .cancelled: return .failed("cancelled")
        }
    }

    /// Puts the alert in the outbox; throws when the store can't take it (a full disk), so
    /// the router can still send it once, directly.
    public func enqueue(_ event: GameEvent, at date: Date) async throws(StoreError) -> Delivery {
        guard let outbox else { return .failed("no store for the outbox") }
        if let reason = disabledReason {
            // Claimed all the same: a sink that is off does not owe this alert later.
            _ = try? await Ledger(store: outbox.store).passOver(event, sink: name, at: date)
            return .skipped(reason)
        }
        let body: [UInt8]
        do {
            body = try renderer.webhookBody(event, preset: options.preset, url: url)
        } catch {
            logger.error(
                "alert not sent: its template is broken", metadata: ["sink": "\(name)", "event": "\(event.id)", "error": "\(error)"])
            return .failed(error.description)
        }
        let expires = date.addingTimeInterval(Double(options.expiry.components.seconds))
        guard try await outbox.enqueue(event, sink: name, body: body, at: date, expiresAt: expires) else { return .duplicate }
        wake.fire()
        return .queued
    }

    public func edits(_ event: GameEvent) -> Bool { edits(eventID: event.id) }

    /// The alert of `eventID` is a correction that edits a message this sink sent.
    func edits(eventID: String) -> Bool {
        guard options.edit == .on, options.editsCorrections, let outbox, let goal = GameEvent.correctedGoal(of: eventID) else {
            return false
        }
        return SentMessages(store: outbox.store).message(sink: name, event: goal) != nil
    }

    /// One delivery: a signed POST; at a receiver that can edit its messages (Discord, ntfy,
    /// unless `edit = false`), a correction edits its goal's message instead (or as well, with
    /// `edit = "both"`), and a goal's message id is kept for that.
    func attempt(id: String, body: [UInt8]) async -> OutboxAttempt {
        guard options.editsCorrections, let sent = outbox.map({ SentMessages(store: $0.store) }) else {
            return await post(id: id, body: body).outcome
        }
        let isGoal = GameEvent.parts(of: id)?.kind == .goal
        let goal = GameEvent.correctedGoal(of: id)
        let original = goal.flatMap { sent.message(sink: name, event: $0) }
        switch options.preset {
        case .discord:
            if let original {
                let edited = await post(
                    id: id, body: DiscordEdit.body(body, striking: id.contains(":goal_overturned:")),
                    to: DiscordEdit.messageURL(url, message: original), method: .patch)
                // A message deleted in Discord meanwhile (404): a new one instead.
                if edited.status != 404, options.edit != .both || edited.outcome.isFailure { return edited.outcome }
            }
            guard isGoal else { return await post(id: id, body: body).outcome }
            let posted = await post(id: id, body: body, to: DiscordEdit.waitURL(url))
            if let message = posted.response.flatMap(DiscordEdit.messageID) {
                try? await sent.record(sink: name, event: id, message: message, at: now())
            }
            return posted.outcome
        case .ntfy:
            let sequence = isGoal ? NtfyEdit.sequence(of: id) : original
            if let sequence {
                let published = await post(id: id, body: NtfyEdit.body(body, sequence: sequence), headers: [("X-Sequence-ID", sequence)])
                if isGoal, !published.outcome.isFailure {
                    try? await sent.record(sink: name, event: id, message: sequence, at: now())
                }
                if isGoal || options.edit != .both || published.outcome.isFailure { return published.outcome }
            }
            return await post(id: id, body: body).outcome
        default:
            return await post(id: id, body: body).outcome
        }
    }

    /// One signed request: a fresh timestamp and signature on every attempt, the same id. What
    /// it came to, the status a receiver answered with, and its answer when it took it.
    func post(
        id: String, body: [UInt8], to target: String? = nil, method: HTTPRequest.Method = .post, headers extra: [(String, String)] = []
    ) async -> (outcome: OutboxAttempt, status: Int?, response: HTTPResponse?) {
        let timestamp = Int(now().timeIntervalSince1970)
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/json"),
            ("webhook-id", id),
            ("webhook-timestamp", String(timestamp)),
        ]
        if let signer {
            // Never sent unsigned: the receiver would refuse it, or worse, trust it.
            do { headers.append(("webhook-signature", try signer.signature(id: id, timestamp: timestamp, body: body))) } catch {
                return (.retry(error.description, after: nil), nil, nil)
            }
        }
        for (header, value) in extra { headers.append((header, value)) }
        for (header, value) in options.headers.sorted(by: { $0.key < $1.key }) { headers.append((header, value)) }
        var request = HTTPRequest(
            url: target ?? WebhookTarget.postURL(url, preset: options.preset), method: method, headers: headers, body: body,
            followRedirects: false, retry: nil, connectTimeout: .seconds(10), totalTimeout: .seconds(10))
        request.displayURL = displayURL
        do {
            let response = try await http.send(request)
            return (.delivered("\(response.status)"), response.status, response)
        } catch let error as HTTPError {
            return (outcome(of: error), error.status, nil)
        } catch is CancellationError {
            return (.cancelled, nil, nil)
        } catch {
            if Task.isCancelled { return (.cancelled, nil, nil) }
            return (.retry("\(displayURL): \(error)", after: nil), nil, nil)
        }
    }

    /// What an HTTP error means for the alert: retried, refused, or the receiver gone.
    private func outcome(of error: HTTPError) -> OutboxAttempt {
        let said = error.detail.isEmpty ? "" : " (\(Self.scrub(error.detail, secrets: secrets)))"
        guard let status = error.status else {
            return .retry("\(displayURL): \(Self.scrub(error.reason, secrets: secrets))", after: nil)
        }
        switch status {
        case 410: return .gone("\(displayURL) answered 410 Gone\(said); fix the url in the config to enable the sink again")
        case 300..<400:
            return .refused("\(displayURL) answered \(status), a redirect, which webhooks don't follow; set url to the final address")
        case 408, 429, 500..<600: return .retry("\(displayURL) answered \(status)\(said)", after: error.retryAfter)
        default: return .refused("\(displayURL) answered \(status)\(said)")
        }
    }

    private var secrets: [String] {
        [options.secret, url].compactMap { $0 } + Array(options.headers.values)
    }

    /// Takes any secret out of text a receiver sent back (some echo the request).
    static func scrub(_ text: String, secrets: [String]) -> String {
        var text = text
        for secret in secrets where secret.count >= 6 { text = text.replacingOccurrences(of: secret, with: "<redacted>") }
        return text
    }
}
