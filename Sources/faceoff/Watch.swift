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

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            try global.refuseJSON("watch", instead: "--format jsonl")
        }

        @Argument(help: "A game id (2025020119, nba:401585607) or a team (TOR, nba:LAL; default: the followed teams).")
        var target: String?

        @Option(help: "text or jsonl (one JSON object per line); default: a stdout sink's format, else text.")
        var format: OutputFormat?

        func run() async throws {
            let session = try global.session()
            let store = try session.openStore()
            let client = session.nhlClient(store: store)
            let espn = session.espnClient(store: store)
            let settings = GameWatcher<ContinuousClock>.Settings(session.config.watch)
            var gameTeams: Set<String> = []
            var single: (id: Int, league: League, start: Date?)?
            if let target, target.lowercased().hasPrefix("nba:"), let gameID = Int(target.dropFirst(4)), gameID > 1000 {
                let summary = try? await espn.fetch(.nbaSummary(gameID)).value
                if let summary {
                    let snapshot = NBASnapshot(summary)
                    gameTeams = ["nba:\(snapshot.away.abbrev)", "nba:\(snapshot.home.abbrev)"]
                }
                single = (gameID, .nba, summary.flatMap { NBASnapshot($0).startTime })
            } else if let target, let gameID = Int(target), gameID > 1_000_000_000 {
                let feed = try? await client.fetch(.playByPlay(gameID)).value
                if let feed {
                    let snapshot = GameSnapshot(feed)
                    gameTeams = [snapshot.away.abbrev, snapshot.home.abbrev]
                }
                single = (gameID, .nhl, feed?.startTime)
            }
            let teams = try single == nil ? (target.map { [try TeamInput.followed($0).written] } ?? session.config.teams) : []
            let alerts = try WatchDelivery(
                session: session, format: format?.sinkFormat, configured: true, store: store, teams: gameTeams.union(teams), say: printError
            )
            let output = alerts.terminal
            // On a terminal the scoreboard takes keys (the delay, sync, quit).
            let keys = output.drawsScoreboard ? TerminalKeys.open() : nil
            defer { keys?.close() }
            let controls = WatchControls(alerts: alerts)

            let status = LiveStatus(store: store)
            @Sendable func watch(_ gameID: Int, league: League, start: Date?, series: SeriesState? = nil) async throws {
                controls.watching.withLock { $0 = gameID }
                switch league {
                case .nhl:
                    let watcher = GameWatcher(
                        gameID: gameID, scheduledStart: start, client: client, ledger: Ledger(store: store), settings: settings,
                        clock: ContinuousClock(), router: alerts.router, series: series,
                        onSnapshot: { snapshot, _ in
                            output.snapshot(snapshot)
                            try? await status.record(snapshot, at: Date())
                        })
                    try await watcher.run()
                case .nba:
                    let watcher = NBAGameWatcher(
                        gameID: gameID, scheduledStart: start, client: espn, ledger: Ledger(store: store), settings: settings,
                        clock: ContinuousClock(), router: alerts.router,
                        onSnapshot: { snapshot in
                            output.snapshot(snapshot)
                            try? await status.record(snapshot, at: Date())
                        })
                    try await watcher.run()
                }
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

    struct ReplayCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "replay",
            abstract: "Replay a finished game's play-by-play (or an NBA game's ESPN summary) as if it were live.",
            discussion: """
                Plays a game through the same engine as `watch`, to try a setup or a template.
                Nothing is recorded in the store: replaying twice works.

                With --serve, serves the games instead, as the NHL API would while they are
                live: /v1/gamecenter/ID/play-by-play (and landing), score/now, schedule/now
                and the teams' club-schedule-season. The games start a few seconds after
                launch; the first line printed is the API base to give `--api-base`. NBA
                summaries are served as ESPN would (each game's summary, its teams'
                schedules); the base printed is then the one to give `--espn-base`.

                Examples:
                  faceoff replay 2025020100 --speed 120
                  faceoff replay saved-play-by-play.json --from-period 3
                  faceoff replay nba-summary.json --speed 0
                  faceoff replay --serve 127.0.0.1:0 game1.json game2.json --speed 60
                  faceoff replay --serve 127.0.0.1:0 nba-summary.json --speed 60
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "Play-by-play JSON files or ESPN NBA summaries, or game ids to fetch (nba:ID for the NBA; one, unless --serve).")
        var sources: [String]

        @Option(help: "How many times faster than real time (0 for no pauses).")
        var speed: Double = 60

        @Option(help: "Start at this period (what came before is summed up as \"joined\").")
        var fromPeriod: Int?

        @Option(help: "text or jsonl.")
        var format: OutputFormat?

        @Flag(help: "Send the alerts to the configured sinks too (notify, webhook, exec, MQTT; nothing is recorded: twice works).")
        var sinks = false

        @Option(help: ArgumentHelp("Serve the games as a live API on host:port (loopback; port 0 picks one).", valueName: "address"))
        var serve: String?

        @Option(help: ArgumentHelp("With --serve: seconds until the games start.", valueName: "seconds"))
        var startIn: Double = 5

        @Option(
            help: ArgumentHelp(
                "With --serve: intermission length in game seconds (the NHL's is 1080; between NBA quarters, 120 unless given).",
                valueName: "seconds"))
        var intermission: Int?

        func validate() throws {
            try global.refuseJSON("replay", instead: "--format jsonl")
            guard speed >= 0 else { throw ValidationError("--speed must be 0 or more") }
            if let fromPeriod, !(1...10).contains(fromPeriod) {
                throw ValidationError("--from-period must be a period of the game (1, 2, 3, 4...)")
            }
            if let serve, ListenAddress(serve) == nil { throw ValidationError("--serve must be host:port, like 127.0.0.1:0") }
            if serve == nil, sources.count != 1 { throw ValidationError("name one game to replay (several only with --serve)") }
            if serve != nil, speed == 0 { throw ValidationError("--serve needs a speed above 0") }
        }

        /// A game to replay: the NHL's play-by-play, or an NBA game's summary from ESPN.
        enum Game {
            case nhl(PlayByPlay)
            /// The summary, and the answer as it came (what `--serve` serves).
            case nba(ESPNSummary, Data)
        }

        func load(_ source: String, session: Session) async throws -> Game {
            if source.lowercased().hasPrefix("nba:"), let gameID = Int(source.dropFirst(4)) {
                let client = session.espnClient(store: try openCacheStore(session))
                let summary = try await client.fetch(.nbaSummary(gameID)).value
                let body = try openCacheStore(session).map { store in
                    try? ResponseCache(store: store).entry(for: session.config.espnBase + Endpoint<ESPNSummary>.nbaSummary(gameID).path)?
                        .body
                }
                return .nba(summary, Data(body.flatMap { $0 } ?? []))
            }
            if let gameID = Int(source), gameID > 1_000_000_000, !FileManager.default.fileExists(atPath: source) {
                return .nhl(try await session.nhlClient(store: try openCacheStore(session)).fetch(.playByPlay(gameID)).value)
            }
            let path = session.paths.expand(source)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw UsageError(message: "no such file: \(source) (give a play-by-play or ESPN summary JSON file, or a game id)")
            }
            // ESPN's summaries have a header; the NHL's play-by-play has none.
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            do {
                if object?["header"] != nil { return .nba(try APIText.decode(ESPNSummary.self, from: Array(data)), data) }
                return .nhl(try APIText.decode(PlayByPlay.self, from: Array(data)))
            } catch {
                throw UsageError(message: "\(source) is not a play-by-play response or an ESPN summary: \(error)")
            }
        }

        func run() async throws {
            let session = try global.session()
            var feeds: [PlayByPlay] = []
            var summaries: [(summary: ESPNSummary, raw: Data)] = []
            for source in sources {
                switch try await load(source, session: session) {
                case .nhl(let feed):
                    guard !(feed.plays ?? []).isEmpty else { throw RuntimeError(message: "\(source) has no plays to replay yet") }
                    feeds.append(feed)
                    if let fromPeriod, !(feed.plays ?? []).contains(where: { ($0.periodDescriptor?.number ?? 0) == fromPeriod }) {
                        throw UsageError(message: "\(source) has no period \(fromPeriod)")
                    }
                case .nba(let summary, let raw):
                    guard !(summary.plays ?? []).isEmpty else { throw RuntimeError(message: "\(source) has no plays to replay yet") }
                    if let fromPeriod, !(summary.plays ?? []).contains(where: { $0.period?.number == fromPeriod }) {
                        throw UsageError(message: "\(source) has no quarter \(fromPeriod)")
                    }
                    summaries.append((summary, raw))
                }
            }
            if let serve, let address = ListenAddress(serve), !summaries.isEmpty {
                guard feeds.isEmpty else {
                    throw UsageError(message: "serve NHL and NBA games from two replays: one answers as the NHL's API, the other as ESPN's")
                }
                let server = try NBAReplayServer(
                    summaries: summaries.map(\.raw), speed: speed, startDelay: max(0, startIn), intermission: max(0, intermission ?? 120))
                try await server.run(host: address.host, port: address.port) { base in
                    FileHandle.standardOutput.write(Data("\(base)\n".utf8))
                }
                return
            }
            if let serve, let address = ListenAddress(serve) {
                let server = ReplayServer(
                    games: feeds, speed: speed, startDelay: max(0, startIn), intermission: max(0, intermission ?? ReplayServer.intermission)
                )
                try await server.run(host: address.host, port: address.port) { base in
                    FileHandle.standardOutput.write(Data("\(base)\n".utf8))
                }
                return
            }
            if let summary = summaries.first?.summary {
                let game = NBASnapshot(summary)
                let alerts = try WatchDelivery(
                    session: session, format: format?.sinkFormat, configured: sinks, store: nil,
                    teams: ["nba:\(game.away.abbrev)", "nba:\(game.home.abbrev)"], say: printError)
                try await alerts.deliver {
                    try await ReplayPlayer(.nba(summary), speed: speed, fromPeriod: fromPeriod).play(
                        terminal: alerts.terminal, router: alerts.router)
                }
                return
            }
            let game = GameSnapshot(feeds[0])
            let alerts = try WatchDelivery(
                session: session, format: format?.sinkFormat, configured: sinks, store: nil, teams: [game.away.abbrev, game.home.abbrev],
                say: printError)
            try await alerts.deliver {
                try await ReplayPlayer(.nhl(ReplayFeed(feeds[0])), speed: speed, fromPeriod: fromPeriod).play(
                    terminal: alerts.terminal, router: alerts.router)
            }
        }
    }

    struct DemoCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "demo",
            abstract: "See it work offline: a bundled game replayed fast, a demo calendar.",
            discussion: "The game and schedule are made up by the project and built into the binary.")

        @OptionGroup var global: GlobalOptions

        @Option(help: "How many times faster than real time (0 for no pauses).")
        var speed: Double = 240

        @Option(help: "text or jsonl.")
        var format: OutputFormat?

        @Flag(help: "Send the alerts to the configured sinks too (notify, webhook, exec, MQTT; nothing is recorded: twice works).")
        var sinks = false

        func validate() throws {
            try global.refuseJSON("demo", instead: "--format jsonl")
            guard speed >= 0 else { throw ValidationError("--speed must be 0 or more") }
        }

        func run() async throws {
            let session = try global.session()
            guard let gameText = DemoData.game, let game = try? JSONDecoder().decode(PlayByPlay.self, from: Data(gameText.utf8)) else {
                throw RuntimeError(message: "this build has no demo game (Demo/demo-game.json was missing when it was built)")
            }
            let snapshot = GameSnapshot(game)
            let alerts = try WatchDelivery(
                session: session, format: format?.sinkFormat, configured: sinks, store: nil,
                teams: [snapshot.away.abbrev, snapshot.home.abbrev], say: printError)
            let output = alerts.terminal
            try await alerts.deliver {
                try await ReplayPlayer(.nhl(ReplayFeed(game)), speed: speed).play(terminal: alerts.terminal, router: alerts.router)
            }

            // A demo calendar from the bundled schedule, written where feeds go.
            guard let scheduleText = DemoData.schedule,
                let schedule = try? JSONDecoder().decode(ClubSchedule.self, from: Data(scheduleText.utf8))
            else { return }
            let service = CalendarService(
                client: session.nhlClient(store: nil), state: nil, templates: try session.templates(), options: session.config.calendar)
            var feed = try await service.build(.team("TOR"), schedules: [("TOR", schedule)], records: [:])
            feed.name = "demo"
            feed.title = "Faceoff demo: " + feed.title
            let path = session.calendarDirectory + "/demo.ics"
            _ = try FeedWriter.write(try CalendarBuilder.serialize(feed), to: path, allowEmpty: true)
            output.note("Demo calendar (\(counted(feed.events.count, "game"))): \(path)")
        }
    }
}
