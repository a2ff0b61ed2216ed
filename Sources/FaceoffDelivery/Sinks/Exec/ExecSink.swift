import FaceoffBase
import FaceoffKit
import FaceoffStore
import Foundation
import Logging
import Mustache

/// Runs a program for each alert (a goal light, a horn, a scene): an argument list, never a
/// shell, each argument a template over the event's keys; the event's JSON on standard input
/// and its main facts in `FACEOFF_*` environment variables. One program at a time per sink, in
/// event order (its lane, or its outbox worker), killed with everything it started after
/// `timeout`. At most once by default (the ledger's claim is final before the program starts);
/// with `retry = true`, through the outbox: retried on the webhook schedule until `expiry`,
/// also after a crash.
public final class ExecSink: DurableSink {
    public let name: String
    let options: SinkConfig.Exec
    let renderer: Renderer
    let environment: [String: String]
    /// The command's words, `~` expanded, parsed as templates.
    let words: [(text: String, template: MustacheTemplate?)]
    let outbox: Outbox?
    let schedule: RetrySchedule
    let now: @Sendable () -> Date
    /// What the outbox worker's waits sleep on (`now` is the same time as a date).
    let clock: any Clock<Duration>
    let logger: Logger
    let wake = WakeSignal()
    /// When it holds alerts (muted, quiet): its outbox then runs nothing queued either.
    let hold: SinkHold?
    /// Held while the program runs: one at a time per sink across processes too (`run` and
    /// `watch` on one store).
    let lockPath: String

    /// What one run is: rendered when the alert is taken, so a retry runs the same thing.
    struct Invocation: Codable, Sendable {
        var arguments: [String]
        var environment: [String: String]
        var input: String
    }

    /// - Parameter outbox: used only with `retry = true` (nil: no store, one attempt).
    public init(
        name: String, options: SinkConfig.Exec, renderer: Renderer, environment: [String: String], paths: Paths, outbox: Outbox?,
        schedule: RetrySchedule = .standard, now: @escaping @Sendable () -> Date = { Date() },
        clock: any Clock<Duration> = ContinuousClock(), logger: Logger = Logger(label: "faceoff.exec"), hold: SinkHold? = nil
    ) {
        self.clock = clock
        self.hold = hold
        self.name = name
        self.options = options
        self.renderer = renderer
        self.environment = environment
        words = options.command.enumerated().map { index, word in
            let expanded = paths.expand(word)
            return (expanded, try? TemplateSet.parse(expanded, file: "command[\(index)]"))
        }
        // Without retry nothing is queued, but rows queued while the sink had it are still run.
        self.outbox = outbox.map { Outbox(store: $0.store, owner: $0.owner + ":" + UUID().uuidString.prefix(6)) }
        // Beside the store the processes share (else where it would be).
        let folder = outbox.map { ($0.store.path as NSString).deletingLastPathComponent } ?? paths.stateHome
        lockPath = folder + "/exec-" + StableHash.hex(name) + ".lock"
        self.schedule = schedule
        self.now = now
        self.logger = logger
    }

    public var atMostOnce: Bool { !options.retry }
    public var isDurable: Bool { options.retry && outbox != nil }

    /// The program as the config names it (`~` expanded), for doctor and errors.
    public var program: String { words.first?.text ?? "" }

    func invocation(_ event: GameEvent) -> Invocation {
        var values = AlertContext.values(event, followed: renderer.followed)
        let text = renderer.text(event)
        values["title"] = text.title
        values["body"] = text.body
        let arguments = words.map { word in word.template.map { $0.render(TemplateContext(values)) } ?? word.text }
        let followed = event.team.map { renderer.followed.contains(event.followKey($0)) } ?? false
        let facts: [String: String] = [
            "FACEOFF_KIND": event.kind.rawValue,
            "FACEOFF_EVENT_ID": event.id,
            "FACEOFF_GAME": String(event.gameId),
            "FACEOFF_TEAM": event.team ?? "",
            "FACEOFF_FOLLOWED": followed ? "1" : "0",
            "FACEOFF_AWAY": event.away,
            "FACEOFF_HOME": event.home,
            "FACEOFF_AWAY_SCORE": String(event.score.away),
            "FACEOFF_HOME_SCORE": String(event.score.home),
            "FACEOFF_STRENGTH": event.strength ?? "",
            // "nhl" or "nba": the abbreviations alone don't say (BOS is both).
            "FACEOFF_LEAGUE": (event.league ?? .nhl).rawValue,
        ]
        return Invocation(arguments: arguments, environment: facts, input: EventJSON(event, text: text).encoded() + "\n")
    }

    /// One run of the program, and what it came to.
    func execute(_ invocation: Invocation) async -> OutboxAttempt {
        guard let program = invocation.arguments.first, !program.isEmpty else { return .refused("the sink has no command") }
        let environment = environment.merging(invocation.environment) { $1 }
        let result: ProcessRunner.Result
        do {
            let ran = try await oneAtATime { () async throws(ProcessRunner.Failure) -> ProcessRunner.Result in
                try await ProcessRunner.run(
                    program, Array(invocation.arguments.dropFirst()), environment: environment, timeout: options.timeout,
                    input: Array(invocation.input.utf8))
            }
            // Cancelled while another process held the lock: the program never started.
            guard let ran else { return .cancelled }
            result = ran
        } catch {
            if case .notFound = error {
                return .retry(
                    "\(program) was not found or is not executable; check the sink's command (a full path, or a program on PATH)",
                    after: nil)
            }
            return .retry(error.description, after: nil)
        }
        if Task.isCancelled { return .cancelled }
        let said = Self.tail(result.stderr)
        if result.timedOut {
            return .retry(
                "\(program) was still running after \(DurationText.format(options.timeout)) and was killed with what it started" + said,
                after: nil)
        }
        guard result.status == 0 else { return .retry("\(program) exited with status \(result.status)" + said, after: nil) }
        if result.leftRunning {
            logger.warning(
                "the program exited, but something it started kept its output open past the timeout: killed with the program's process group, or left running if it had left it (setsid)",
                metadata: ["sink": "\(name)"])
        }
        return .delivered("exit 0")
    }

    /// Runs `body` holding the sink's lock file (an flock, released when the descriptor
    /// closes, also when the process dies). Another process's run ends within its timeout, so
    /// the wait is at most that; past it (a stuck lock), the run goes ahead, logged. Nil, and
    /// `body` never run, when the task is cancelled while it waits.
    func oneAtATime<T>(_ body: () async throws(ProcessRunner.Failure) -> T) async throws(ProcessRunner.Failure) -> T? {
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        // No state folder yet (test-alert before anything ran): no other process to share with.
        guard fd >= 0 else { return try await body() }
        defer { close(fd) }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: options.timeout + .seconds(5))
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if clock.now >= deadline {
                logger.warning(
                    "another process kept this sink's program running past its timeout; running this one all the same",
                    metadata: ["sink": "\(name)"])
                break
            }
            if Task.isCancelled { return nil }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return try await body()
    }

    /// The last lines a program wrote on stderr, for the log: "; stderr: ...".
    static func tail(_ stderr: String, lines: Int = 5) -> String {
        let last = stderr.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.suffix(
            lines)
        guard !last.isEmpty else { return "" }
        // A program's output is text from outside, as an API's is: its control characters
        // (an escape sequence would retitle or clear the terminal the log is read on) become
        // spaces.
        let text = String(
            last.joined(separator: " | ").unicodeScalars.map { scalar in
                scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? " " : Character(scalar)
            })
        return "; stderr: " + (text.count > 600 ? "…" + text.suffix(600) : text)
    }

    // MARK: Sink

    /// One run now (at most once from the router; test-alert; a store that can't queue).
    public func send(_ event: GameEvent) async -> Delivery {
        switch await execute(invocation(event)) {
        case .delivered(let detail): return .delivered(detail)
        case .cancelled: return .failed("cancelled")
        case .retry(let why, _), .refused(let why), .gone(let why): return .failed(why)
        }
    }

    /// With `retry = true`: the run is queued in the outbox (claimed in the ledger in the same
    /// transaction), and the worker runs it, again until it succeeds or expires.
    public func enqueue(_ event: GameEvent, at date: Date) async throws(StoreError) -> Delivery {
        guard options.retry, let outbox else { return await send(event) }
        let body: [UInt8]
        do { body = Array(try JSONEncoder().encode(invocation(event))) } catch { return .failed("cannot encode the alert: \(error)") }
        let expires = date.addingTimeInterval(Double(options.expiry.components.seconds))
        guard try await outbox.enqueue(event, sink: name, body: body, at: date, expiresAt: expires) else { return .duplicate }
        wake.fire()
        return .queued
    }

    private func worker(_ settled: @escaping OutboxSettled = { _, _ in }) -> OutboxWorker {
        var worker = OutboxWorker(
            name: name, outbox: outbox, schedule: schedule, lease: options.timeout * 2 + .seconds(25), wake: wake, now: now, logger: logger,
            disabledReason: { nil },
            attempt: { [self] _, body in
                guard let invocation = try? JSONDecoder().decode(Invocation.self, from: Data(body)) else {
                    return .refused("the queued run could not be read")
                }
                return await execute(invocation)
            },
            gone: { _ in }, clock: clock, hold: hold)
        worker.settled = settled
        return worker
    }

    public func run(settled: @escaping OutboxSettled) async { await worker(settled).run() }

    public func settle(timeout: Duration) async -> Bool { await worker().settle(timeout: timeout) }
}
