import ArgumentParser
import FaceoffAPI
import FaceoffBase
import FaceoffCalendar
import FaceoffDaemon
import FaceoffESPN
import FaceoffKit
import FaceoffMQTT
import FaceoffNHL
import FaceoffServer
import Foundation

/// `--format text|jsonl` (watch, replay, demo): the terminal sink's own formats.
extension SinkConfig.Format: ExpressibleByArgument {}

extension Faceoff {
    struct WatchCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Watch games live: a scoreboard and alerts in the terminal.",
            discussion: """
                With a game id, watches that game and exits once its final is out (a game
                already over: its final). With a team (default: the followed teams), follows
                them game after game until interrupted. On a terminal it draws a scoreboard
                that updates in place; otherwise it prints one line per event (--format jsonl
                for JSON lines). Alerts go out once: a second `watch` on the same store never
                repeats one.

                Examples:
                  faceoff watch
                  faceoff watch MTL
                  faceoff watch 2025020119 --format jsonl
                  faceoff watch nba:LAL
                  faceoff watch nba:401585607
                """)

        func validate() throws {
            try global.refuseJSON("watch", instead: "--format jsonl")
        }

        @Argument(help: "A game id (2025020119, nba:401585607) or a team (TOR, nba:LAL; default: the followed teams).")
        var target: String?

        @Option(help: "text or jsonl (one JSON object per line); default: a stdout sink's format, else text.")
        var format: SinkConfig.Format?

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try global.session()
            let store = try session.openStore()
            let client = session.nhlClient(store: store)
            let espn = session.espnClient(store: store)
            let settings = WatcherSettings(session.config.watch)
            var gameTeams: Set<String> = []
            var single: (id: Int, league: League, start: Date?)?
            if let mistake = target.flatMap(GameKey.mistake(in:)) { throw UsageError(message: mistake) }
            switch target.flatMap(GameKey.parse) {
            case let game? where game.league == .nba:
                let summary = try? await espn.fetch(.nbaSummary(game.id)).value
                if let summary {
                    let snapshot = NBASnapshot(summary)
                    gameTeams = ["nba:\(snapshot.away.abbrev)", "nba:\(snapshot.home.abbrev)"]
                }
                single = (game.id, .nba, summary.flatMap { NBASnapshot($0).startTime })
            case let game?:
                let feed = try? await client.fetch(.playByPlay(game.id)).value
                if let feed {
                    let snapshot = GameSnapshot(feed)
                    gameTeams = [snapshot.away.abbrev, snapshot.home.abbrev]
                }
                single = (game.id, .nhl, feed?.startTime)
            case nil: break
            }
            let teams = try single == nil ? (target.map { [try TeamInput.followed($0).written] } ?? session.config.teams) : []
            let alerts = try WatchDelivery(
                session: session, format: format, configured: true, store: store, teams: gameTeams.union(teams), say: printError
            )
            let output = alerts.terminal
            // On a terminal the scoreboard takes keys (the delay, sync, quit).
            let keys = output.drawsScoreboard ? TerminalKeys.open() : nil
            defer { keys?.close() }
            let controls = WatchControls(alerts: alerts)

            let status = LiveStatus(store: store)
            @Sendable func watch(_ gameID: Int, league: League, start: Date?, series: SeriesState? = nil) async throws {
                controls.watching.withLock { $0 = gameID }
                try await watch(LiveGames.game(league, id: gameID, nhl: client, espn: espn), start: start, series: series)
            }
            /// Any league's game through the one watcher: its scoreboard on the terminal, its
            /// copy for the status line.
            @Sendable func watch<G: LiveGame>(_ game: G, start: Date?, series: SeriesState?) async throws {
                let watcher = GameWatcher(
                    game: game, scheduledStart: start, ledger: Ledger(store: store), settings: settings, clock: ContinuousClock(),
                    router: alerts.router, series: series,
                    onSnapshot: { snapshot, _ in
                        output.snapshot(snapshot)
                        try? await status.record(snapshot, at: Date())
                    })
                try await watcher.run()
            }

            if let single {
                try await controls.around(keys) {
                    try await alerts.deliver { try await watch(single.id, league: single.league, start: single.start) }
                }
                return
            }
            guard !teams.isEmpty else {
                throw UsageError(message: "name a team or game (faceoff watch TOR) or follow one (faceoff follow TOR)")
            }
            let time = LocalTime(timeZone: session.config.timeZone)
            // Game after game: the next (or current) game of any of the teams, watched to its end.
            try await controls.around(keys) {
                try await alerts.deliver {
                    let planner = WatchPlanner(nhl: client, espn: espn, time: time)
                    var finished: Set<Int> = []
                    while true {
                        let now = Date()
                        guard let pick = try await planner.next(of: teams, skipping: finished, now: now) else {
                            output.note("No upcoming games for \(teams.joined(separator: ", ")); checking again in 6 h.")
                            try await Task.sleep(for: .seconds(6 * 3600))
                            continue
                        }
                        let next = pick.game
                        if let start = next.startDate, !next.isLive {
                            output.note(
                                "Next: \(next.away.abbrev) @ \(next.home.abbrev) \(time.day(start)) \(time.time(start)) (\(Countdown.describe(from: now, to: start)))"
                            )
                        }
                        do {
                            try await watch(next.id, league: pick.league, start: next.isLive ? nil : next.startDate, series: pick.series)
                        } catch let error as WatchError where error.isFinal {
                            output.note("\(error)")
                        }
                        // The schedule may still call it live for a while: don't come back to it.
                        finished.insert(next.id)
                        try await Task.sleep(for: settings.poll)
                    }
                }
            }
        }
    }
}
