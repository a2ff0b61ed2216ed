import ArgumentParser
import FaceoffDaemon
import FaceoffESPN
import FaceoffKit
import FaceoffMQTT
import FaceoffStore
import Foundation

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, jsonl
}

/// What `watch`, `replay` and `demo` deliver to: the terminal (a scoreboard redrawn in place,
/// or one line per event) and, where asked, the configured sinks.
struct AlertPlumbing {
    let terminal: StdoutSink
    let router: AlertRouter<ContinuousClock>

    /// - Parameters:
    ///   - format: `--format`; else a configured stdout sink's format; else text.
    ///   - configured: deliver to the config's sinks too.
    ///   - store: the ledger and outbox; nil for the throwaway runs (replay, demo).
    ///   - teams: the games' teams, which the terminal and the sinks' default filters take.
    init(session: Session, format: OutputFormat?, configured: Bool, store: Store?, teams: Set<String>) throws {
        let renderer = try session.renderer()
        let stdoutConfig = session.config.sinks.first { $0.type == .stdout }
        let chosen: SinkConfig.Format = format.map { $0 == .jsonl ? .jsonl : .text } ?? stdoutConfig?.format ?? .text
        let style = chosen == .text ? session.terminalStyle : .plain
        let terminal = StdoutSink(
            name: stdoutConfig?.displayName ?? "stdout", format: chosen, renderer: renderer, style: style,
            scoreboard: chosen == .text && isatty(STDOUT_FILENO) == 1)
        self.terminal = terminal
        var setup = AlertSetup(session: session, renderer: renderer, store: store)
        setup.extraTeams = teams
        var routes: [SinkRoute] = []
        if configured {
            if let warning = ConfigLoader.permissionWarning(path: session.configPath, config: session.config) {
                printError("warning: \(warning)")
            }
            routes = session.config.sinks.map { setup.route($0, terminal: terminal) }
        }
        if !routes.contains(where: { $0.sink.name == terminal.name }) {
            let filter =
                stdoutConfig.map { SinkFilter($0, defaultTeams: Set(session.config.teams).union(teams)) }
                ?? SinkFilter(teams: Set(session.config.teams).union(teams))
            routes.insert(
                SinkRoute(
                    sink: terminal, filter: filter, delay: stdoutConfig?.delay ?? session.config.watch.delay,
                    hold: .unconfigured(.stdout, zone: session.config.timeZone)),
                at: 0)
        }
        // The scoreboard follows the terminal's delay, whichever process changes it.
        router = AlertRouter(
            routes: routes, ledger: store.map { Ledger(store: $0) }, clock: ContinuousClock(),
            delays: DelayBook(config: session.config, store: store), scoreboard: terminal.name)
    }

    /// Runs `body` with the router's lanes and sinks running beside it. When it ends (returning
    /// or throwing), waits for what was routed, gives webhooks a moment, and says what is
    /// still owed (it stays in the outbox).
    func deliver(_ body: () async throws -> Void) async throws {
        try await router.serving {
            do { try await body() } catch {
                await handOver()
                throw error
            }
            await handOver()
        }
    }

    private func handOver() async {
        await router.settle()
        let owing = await router.settleDurable(timeout: .seconds(15))
        if !owing.isEmpty {
            printError(
                "note: alerts for \(owing.joined(separator: ", ")) are still being retried; they stay queued and the next `faceoff run` or `faceoff watch` delivers them"
            )
        }
    }
}

/// Plays a finished game's feed as if live through the detector, at `speed` times real time
/// (0: no pauses at all).
struct ReplayRunner {
    let replay: ReplayFeed
    let speed: Double
    let fromPeriod: Int?
    let alerts: AlertPlumbing

    init(replay: ReplayFeed, speed: Double, fromPeriod: Int?, alerts: AlertPlumbing) {
        self.replay = replay
        self.speed = speed == 0 ? .infinity : speed
        self.fromPeriod = fromPeriod
        self.alerts = alerts
    }

    func run() async throws {
        try await alerts.deliver { try await play() }
    }

    private func play() async throws {
        var detector = EventDetector()
        var index = 1
        if let fromPeriod, fromPeriod > 1 {
            index = max(1, replay.firstIndex(ofPeriod: fromPeriod))
            let joined = detector.join(GameSnapshot(replay.prefix(index)))
            alerts.terminal.snapshot(GameSnapshot(replay.prefix(index)))
            alerts.router.route(joined)
            index += 1
        }
        var previousSeconds = index > 1 ? replay.gameSeconds(index - 2) : 0
        while index <= replay.count {
            let seconds = replay.gameSeconds(index - 1)
            // Game time between plays, sped up; a long gap (an intermission) counts as 20 s.
            let gap = Double(min(max(0, seconds - previousSeconds), 20))
            if gap > 0, speed.isFinite { try await Task.sleep(for: .milliseconds(Int(gap / speed * 1000))) }
            previousSeconds = seconds
            let snapshot = GameSnapshot(replay.prefix(index))
            let events = detector.process(snapshot).events
            // In order: the scoreboard first, then its alerts, each through the router.
            await alerts.router.settle()
            alerts.terminal.snapshot(snapshot)
            for event in events { alerts.router.route(event) }
            index += 1
        }
    }
}

/// Plays a finished NBA game's summary as the polls of a live game would have seen it: one
/// play more at each step, game time between plays sped up.
struct NBAReplayRunner {
    let summary: ESPNSummary
    let speed: Double
    let fromPeriod: Int?
    let alerts: AlertPlumbing

    init(summary: ESPNSummary, speed: Double, fromPeriod: Int?, alerts: AlertPlumbing) {
        self.summary = summary
        self.speed = speed == 0 ? .infinity : speed
        self.fromPeriod = fromPeriod
        self.alerts = alerts
    }

    func run() async throws {
        try await alerts.deliver { try await play() }
    }

    private func play() async throws {
        let whole = NBASnapshot(summary)
        let plays = whole.plays
        var detector = NBAEventDetector()
        var index = 1
        if let fromPeriod, fromPeriod > 1, let first = plays.firstIndex(where: { $0.period >= fromPeriod }), first > 0 {
            let joined = NBASnapshot(summary, playCount: first)
            alerts.terminal.snapshot(joined)
            alerts.router.route(detector.join(joined))
            index = first + 1
        }
        var previous = index > 1 ? NBAPeriod.gameSeconds(period: plays[index - 2].period, remaining: plays[index - 2].remaining) : 0
        while index <= plays.count {
            let play = plays[index - 1]
            let seconds = NBAPeriod.gameSeconds(period: play.period, remaining: play.remaining)
            // Game time between plays, sped up; a long gap (a break) counts as 20 s.
            let gap = min(max(0, seconds - previous), 20)
            if gap > 0, speed.isFinite { try await Task.sleep(for: .milliseconds(Int(gap / speed * 1000))) }
            previous = seconds
            let snapshot = NBASnapshot(summary, playCount: index)
            let events = detector.process(snapshot)
            await alerts.router.settle()
            alerts.terminal.snapshot(snapshot)
            for event in events { alerts.router.route(event) }
            index += 1
        }
    }
}
