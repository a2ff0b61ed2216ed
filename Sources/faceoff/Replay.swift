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
                launch; the line printed is the API base to give `--api-base`. NBA
                summaries are served as ESPN would (each game's summary, its teams'
                schedules), from the same address, with a line of their own (the last): the
                base to give `--espn-base`.

                Examples:
                  faceoff replay 2025020100 --speed 120
                  faceoff replay saved-play-by-play.json --from-period 3
                  faceoff replay nba-summary.json --speed 0
                  faceoff replay --serve 127.0.0.1:0 game1.json game2.json --speed 60
                  faceoff replay --serve 127.0.0.1:0 nba-summary.json --speed 60
                """)

        @Argument(help: "Play-by-play JSON files or ESPN NBA summaries, or game ids to fetch (nba:ID for the NBA; one, unless --serve).")
        var sources: [String]

        @Option(help: "How many times faster than real time (0 for no pauses).")
        var speed: Double = 60

        @Option(help: "Start at this period (what came before is summed up as \"joined\").")
        var fromPeriod: Int?

        @Option(help: "text or jsonl.")
        var format: SinkConfig.Format?

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

        @OptionGroup var global: GlobalOptions

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

        func run() async throws {
            let session = try global.session()
            var feeds: [PlayByPlay] = []
            var summaries: [(summary: ESPNSummary, raw: Data)] = []
            for source in sources {
                switch try await ReplayGame.load(source, session: session, cache: { try openCacheStore(session) }) {
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
            if let serve, let address = ListenAddress(serve) {
                // One address for every league's games, each answered as its own API would.
                var apis: [any ReplayAPI] = []
                if !feeds.isEmpty {
                    apis.append(
                        NHLReplayAPI(
                            games: feeds, speed: speed, startDelay: max(0, startIn),
                            intermission: max(0, intermission ?? NHLReplayAPI.intermission)))
                }
                if !summaries.isEmpty {
                    apis.append(
                        try NBAReplayAPI(
                            summaries: summaries.map(\.raw), speed: speed, startDelay: max(0, startIn),
                            intermission: max(0, intermission ?? NBAReplayAPI.intermission)))
                }
                try await ReplayServer(apis: apis).run(host: address.host, port: address.port) { bases in
                    FileHandle.standardOutput.write(Data(bases.map { "\($0)\n" }.joined().utf8))
                }
                return
            }
            if let summary = summaries.first?.summary {
                let game = NBASnapshot(summary)
                let alerts = try WatchDelivery(
                    session: session, format: format, configured: sinks, store: nil,
                    teams: ["nba:\(game.away.abbrev)", "nba:\(game.home.abbrev)"], say: printError)
                try await alerts.deliver {
                    try await ReplayPlayer(NBARecording(summary), speed: speed, fromPeriod: fromPeriod).play(
                        terminal: alerts.terminal, router: alerts.router)
                }
                return
            }
            let game = GameSnapshot(feeds[0])
            let alerts = try WatchDelivery(
                session: session, format: format, configured: sinks, store: nil, teams: [game.away.abbrev, game.home.abbrev],
                say: printError)
            try await alerts.deliver {
                try await ReplayPlayer(ReplayFeed(feeds[0]), speed: speed, fromPeriod: fromPeriod).play(
                    terminal: alerts.terminal, router: alerts.router)
            }
        }
    }
}
