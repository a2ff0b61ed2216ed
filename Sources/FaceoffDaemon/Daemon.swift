import FaceoffAPI
import FaceoffBase
import FaceoffCalendar
import FaceoffDelivery
import FaceoffHTTP
import FaceoffKit
import FaceoffMQTT
import FaceoffNHL
import FaceoffStore
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// `faceoff run`: keeps a timeline of what comes next (schedule refreshes, pregame windows,
/// live games), sleeps in between, watches games when they come, and rewrites the calendars
/// after each refresh and each final. Generic over the clock, so tests drive it without
/// sleeping.
public final class Daemon<C: Clock>: Sendable, ScheduleLink where C.Duration == Duration {
    public struct Dependencies: Sendable {
        public var store: Store
        public var http: any HTTPClient
        public var clock: C
        public var now: @Sendable () -> Date
        public var logger: Logger
        /// Reads the config (again on SIGHUP); throws its errors.
        public var loadSession: @Sendable () throws -> Session
        /// nil: each durable sink's own.
        public var retrySchedule: RetrySchedule?

        public init(
            store: Store, http: any HTTPClient, clock: C, now: @escaping @Sendable () -> Date, logger: Logger,
            loadSession: @escaping @Sendable () throws -> Session
        ) {
            self.store = store
            self.http = http
            self.clock = clock
            self.now = now
            self.logger = logger
            self.loadSession = loadSession
        }
    }

    /// What one config makes: the API client, the sinks behind a router, the calendars.
    struct Parts: Sendable {
        let session: Session
        let client: APIClient
        /// ESPN's, for the NBA's teams and games (not counted in the NHL API's outage).
        let espn: APIClient
        let router: AlertRouter<C>
        let publisher: CalendarPublisher
        let feeds: [FeedKind]
        /// Followed teams plus the teams of followed players.
        var teams: [String]
    }

    struct Flags: Sendable {
        var reload = false
        var refresh = false
        /// A watched game's feed answered 404: the schedule is asked again within `scheduleRetry`.
        var recheck = false
        var finished: [Int] = []
        var abandoned: [(id: Int, start: Date?)] = []
    }

    let dependencies: Dependencies
    let overlay = ScheduleOverlay()
    let outage: Outage
    let routing = RouterSwitch()
    /// Each team's schedule as last accepted: what a refresh's answer is compared with for
    /// `schedule_change` alerts (the first one seen is compared with nothing).
    let lastSchedules = Mutex<[String: (games: [ScheduleChanges.Game], known: Set<Int>)]>([:])
    private let wake = WakeSignal()
    private let flags = Mutex(Flags())
    private let current = Mutex<Session?>(nil)
    /// Each config a reload applied, for the parts of `run` outside the daemon (the feed server).
    public let sessions: AsyncStream<Session>
    private let reloads: AsyncStream<Session>.Continuation
    /// Teams whose schedule could not be refreshed at the last try, and whether the log said so.
    let troubled = Mutex<[String: Bool]>([:])
    /// The games the latest schedules list (what a watcher whose feed answers 404 asks).
    let listed = Mutex<Set<Int>>([])
    var logger: Logger { dependencies.logger }

    public init(_ dependencies: Dependencies) {
        self.dependencies = dependencies
        outage = Outage(logger: dependencies.logger, store: dependencies.store, now: dependencies.now)
        (sessions, reloads) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Reads the config again (SIGHUP): a bad one is refused with its errors, the old one kept.
    public func reload() {
        flags.withLock { $0.reload = true }
        wake.fire()
    }

    /// The session in effect (for the feed server).
    public var session: Session? { current.withLock { $0 } }

    func makeParts(_ session: Session) throws -> Parts {
        let renderer = try session.renderer()
        var setup = AlertSetup(session: session, renderer: renderer, store: dependencies.store, http: dependencies.http)
        setup.retrySchedule = dependencies.retrySchedule
        setup.speaksForTheHome = true
        // No [[sink]]: desktop notifications, and every alert in the log.
        var routes = setup.routes(fallback: [SinkConfig(.notify(.init()))])
        if session.config.sinks.isEmpty {
            routes.append(
                SinkRoute(
                    sink: LogSink(renderer: renderer),
                    filter: SinkFilter(teams: Set(session.config.teams), players: Set(session.config.players)),
                    delay: session.config.watch.delay, hold: .unconfigured(.stdout, zone: session.config.timeZone)))
        }
        let router = AlertRouter(
            routes: routes, ledger: Ledger(store: dependencies.store), clock: dependencies.clock, now: dependencies.now,
            delays: DelayBook(config: session.config, store: dependencies.store), scoreboard: DelayBook.scoreboardSink(of: session.config))
        let client = APIClient(
            service: .nhl, base: session.config.apiBase, http: OutageWatchingHTTPClient(dependencies.http, outage: outage),
            cache: ResponseCache(store: dependencies.store), now: dependencies.now)
        let espn = APIClient(
            service: .espn, base: session.config.espnBase, http: dependencies.http, cache: ResponseCache(store: dependencies.store),
            now: dependencies.now)
        var service = CalendarService(
            clients: [client, espn], state: CalendarState(store: dependencies.store), templates: renderer.templates,
            options: session.config.calendar, now: dependencies.now, overlay: overlay)
        service.revalidateSeasonParts = true
        let publisher = CalendarPublisher(
            service: service, directory: session.calendarDirectory, allowEmpty: session.config.calendar.allowEmpty)
        let feeds = FeedPlan(teams: session.config.teams).refreshed(in: session.calendarDirectory)
        return Parts(
            session: session, client: client, espn: espn, router: router, publisher: publisher, feeds: feeds, teams: session.config.nhlTeams
        )
    }

    /// The daemon's task tree: this loop, the alert router's lanes and sinks (`router.run()`),
    /// and one watcher per game, all children of one task group, so cancelling `run` (or a
    /// graceful shutdown of its service group: SIGTERM) ends every one of them before it returns.
    public func run() async throws {
        try await cancelWhenGracefulShutdown { try await self.loop() }
    }

    private func loop() async throws {
        var parts = try makeParts(try dependencies.loadSession())
        current.withLock { $0 = parts.session }
        routing.set(parts.router)
        await housekeeping()
        logger.info(
            "started",
            metadata: [
                "teams": "\(parts.session.config.teams.joined(separator: ","))", "players": "\(parts.session.config.players.count)",
                "sinks": "\(parts.router.routes.map(\.sink.name).joined(separator: ","))",
            ])
        await withDiscardingTaskGroup { group in
            group.addTask { [router = parts.router] in await router.run() }
            var timeline = Timeline(refreshAt: dependencies.clock.now)
            var lastWait = ""
            while !Task.isCancelled {
                let flagged = flags.withLock { state -> Flags in
                    defer { state = Flags() }
                    return state
                }
                if flagged.reload, let next = reloaded(parts) {
                    // New events queue in the new router from now on; it starts once the old
                    // one has handed over everything it held (delays included).
                    let old = parts.router
                    parts = next
                    current.withLock { $0 = parts.session }
                    routing.set(parts.router)
                    group.addTask { [fresh = parts.router] in await fresh.run(after: old) }
                    timeline.nextRefresh = dependencies.clock.now
                }
                for id in flagged.finished { timeline.finished(id) }
                for (id, start) in flagged.abandoned { timeline.abandoned(id, start: start) }
                if flagged.recheck {
                    timeline.nextRefresh = min(timeline.nextRefresh, dependencies.clock.now.advanced(by: Self.scheduleRetry))
                }
                if flagged.refresh || dependencies.clock.now >= timeline.nextRefresh {
                    await refresh(&parts, &timeline)
                }
                let date = dependencies.now()
                let pregame = parts.session.config.watch.pregame
                for game in timeline.due(at: date, pregame: pregame) {
                    timeline.watch(game.id)
                    // Logged here, when it is decided, not when the child task first runs.
                    logger.info(
                        "watching game",
                        metadata: [
                            "game": "\(game.id)", "teams": "\(game.away) @ \(game.home)",
                            "start": "\(game.start.map { $0.formatted(.iso8601) } ?? "?")",
                        ])
                    group.addTask { [parts] in await self.watch(game, parts: parts) }
                }
                var wakeAt = timeline.nextRefresh
                var reason = "the next schedule refresh"
                if let (window, game) = timeline.nextWindow(after: date, pregame: pregame) {
                    let instant = dependencies.clock.now.advanced(by: .seconds(max(0, window.timeIntervalSince(date))))
                    if instant < wakeAt {
                        wakeAt = instant
                        reason = "the pregame window of \(game.away) @ \(game.home) (\(game.id))"
                    }
                }
                let until = date.addingTimeInterval(Double(dependencies.clock.now.duration(to: wakeAt).components.seconds))
                let line = "\(reason) \(Int(until.timeIntervalSince1970))"
                if line != lastWait {
                    lastWait = line
                    logger.info(
                        "waiting",
                        metadata: [
                            "for": "\(reason)", "until": "\(until.formatted(.iso8601))", "watching": "\(timeline.watching.sorted())",
                        ])
                }
                // Awake at least once a minute (no request, only a look at the clocks), so that
                // a stepped wall clock is seen within a minute.
                let slept = (wall: dependencies.now(), instant: dependencies.clock.now)
                await sleep(until: min(wakeAt, slept.instant.advanced(by: Self.idleCheck)))
                noticeClockJump(since: slept, &timeline)
            }
            // Stopping: the group cancels the watchers (what they routed but no sink claimed
            // yet is sent by the next start) and the router (what webhooks owe stays in the
            // outbox), and waits for them.
        }
        logger.info("stopped")
    }

    /// How long the daemon sleeps at most while idle.
    static var idleCheck: Duration { .seconds(60) }

    /// The wall clock and the daemon's clock should move together over a sleep. When the wall
    /// moved more than a minute further (a clock that did not count a suspend, or a step
    /// forward), the next schedule refresh comes that much earlier, at once if it is overdue;
    /// a step back changes nothing but the log. Pregame windows need nothing: each pass of the
    /// loop plans them from the wall clock as it reads then.
    private func noticeClockJump(since slept: (wall: Date, instant: C.Instant), _ timeline: inout Timeline<C.Instant>) {
        let wall = dependencies.now().timeIntervalSince(slept.wall)
        let drift = wall - slept.instant.duration(to: dependencies.clock.now).inSeconds
        guard abs(drift) >= 60 else { return }
        logger.notice(
            "the wall clock jumped; planning again",
            metadata: [
                "jump_seconds": "\(Int(drift))", "cause": "\(drift > 0 ? "a suspend or a clock set forward" : "a clock set back")",
            ])
        if drift > 0 { timeline.nextRefresh = timeline.nextRefresh.advanced(by: .seconds(-drift)) }
    }

    /// Sleeps until `deadline` or a wake (a final, a reload), whichever is first.
    private func sleep(until deadline: C.Instant) async {
        let clock = dependencies.clock
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(until: deadline, tolerance: nil) }
            group.addTask { [wake] in await wake.wait(timeout: .seconds(86_400 * 7)) }
            await group.next()
            group.cancelAll()
        }
    }

    private func reloaded(_ parts: Parts) -> Parts? {
        do {
            let next = try makeParts(try parts.session.reloaded(load: dependencies.loadSession).get())
            logger.notice(
                "config reloaded",
                metadata: [
                    "teams": "\(next.session.config.teams.joined(separator: ","))",
                    "sinks": "\(next.router.routes.map(\.sink.name).joined(separator: ","))",
                ])
            reloads.yield(next.session)
            return next
        } catch {
            logger.error("config reload refused; keeping the running config", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Watches one game to its end, then has the schedule and calendars refreshed.
    private func watch(_ game: Timeline<C.Instant>.Game, parts: Parts) async {
        let live = LiveGames.game(game.league, id: game.id, nhl: parts.client, espn: parts.espn)
        let watcher = watcher(of: live, game: game, parts: parts)
        var final = true
        do {
            // Its final lies over the schedules that may still call it live for a while.
            if let over = try await watcher() {
                overlay.set(
                    game.id,
                    .init(away: over.score.away, home: over.score.home, endedIn: over.details["ended_in"]))
            }
            logger.info("game over; refreshing the schedule and calendars", metadata: ["game": "\(game.id)"])
        } catch is CancellationError {
            return
        } catch {
            final = false
            logger.notice(
                "stopped watching; will watch it again if the schedule gives it a new start",
                metadata: ["game": "\(game.id)", "reason": "\(error)"])
        }
        if Task.isCancelled { return }
        flags.withLock {
            if final { $0.finished.append(game.id) } else { $0.abandoned.append((game.id, game.start)) }
            $0.refresh = true
        }
        wake.fire()
    }

    /// The watcher of `live`, any league's, as `run` has it: the daemon's clock, routing,
    /// outage and schedules, and the status line's copy of the game at each snapshot.
    private func watcher<G: LiveGame>(of live: G, game: Timeline<C.Instant>.Game, parts: Parts)
        -> @Sendable () async throws -> GameEvent?
    {
        let status = LiveStatus(store: dependencies.store)
        let now = dependencies.now
        let logger = logger
        let watcher = GameWatcher(
            game: live, scheduledStart: game.start, ledger: Ledger(store: dependencies.store),
            settings: .init(parts.session.config.watch), clock: dependencies.clock, now: now, logger: logger, router: routing,
            outage: outage, series: game.series, schedule: self,
            onSnapshot: { snapshot, _ in
                do { try await status.record(snapshot, at: now()) } catch {
                    logger.warning(
                        "the status line's copy of the game was not saved", metadata: ["game": "\(live.logName)", "error": "\(error)"])
                }
            })
        return watcher.run
    }

    /// A watched game's feed answered 404 (a CDN edge does that now and then): whether the
    /// latest schedules still list it, and the schedule is asked again within `scheduleRetry`.
    public func lists(_ game: Int) -> Bool {
        flags.withLock { $0.recheck = true }
        return listed.withLock { $0.contains(game) }
    }

    /// A watched game's feed shows a later start: the schedule is asked again now, and its
    /// `schedule_change` goes out.
    public func moved(_ game: Int) {
        flags.withLock { $0.refresh = true }
        wake.fire()
    }

    /// Housekeeping at start: cache entries, ledger rows and live games older than a season.
    private func housekeeping() async {
        let store = dependencies.store
        // Counted back from the newest thing the store holds when that is earlier than now: a
        // clock set years ahead must not make everything look a season old.
        let newest = store.newestRecordedTime() ?? dependencies.now()
        let cutoff = min(dependencies.now(), newest).addingTimeInterval(-400 * 86400)
        let pruned = (try? await ResponseCache(store: store).prune(fetchedBefore: cutoff)) ?? 0
        try? await Ledger(store: store).prune(before: cutoff)
        try? await LiveStatus(store: store).prune(before: cutoff)
        try? await Sightings(store: store).prune(before: cutoff)
        try? await SentMessages(store: store).prune(before: cutoff)
        logger.debug("housekeeping done", metadata: ["cache_entries_pruned": "\(pruned)"])
    }
}
