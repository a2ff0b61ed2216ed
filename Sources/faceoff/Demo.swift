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
    struct DemoCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "demo",
            abstract: "See it work offline: a bundled game replayed fast, a demo calendar.",
            discussion: "The game and schedule are made up by the project and built into the binary.")

        @Option(help: "How many times faster than real time (0 for no pauses).")
        var speed: Double = 240

        @Option(help: "text or jsonl.")
        var format: SinkConfig.Format?

        @Flag(help: "Send the alerts to the configured sinks too (notify, webhook, exec, MQTT; nothing is recorded: twice works).")
        var sinks = false

        @OptionGroup var global: GlobalOptions

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
                session: session, format: format, configured: sinks, store: nil,
                teams: [snapshot.away.abbrev, snapshot.home.abbrev], say: printError)
            let output = alerts.terminal
            try await alerts.deliver {
                try await ReplayPlayer(ReplayFeed(game), speed: speed).play(terminal: alerts.terminal, router: alerts.router)
            }

            // A demo calendar from the bundled schedule, written where feeds go.
            guard let scheduleText = DemoData.schedule,
                let schedule = try? JSONDecoder().decode(ClubSchedule.self, from: Data(scheduleText.utf8))
            else { return }
            let options = session.config.calendar
            let service = CalendarService(clients: [], state: nil, templates: try session.templates(), options: options)
            let season = CalendarSeason(nhl: schedule, request: CalendarRequest(season: options.season, scores: options.scores))
            var feed = try await service.build(.team("TOR"), seasons: [("TOR", season)])
            feed.name = "demo"
            feed.title = "Faceoff demo: " + feed.title
            let path = session.calendarDirectory + "/demo.ics"
            _ = try FeedWriter.write(try CalendarBuilder.serialize(feed), to: path, allowEmpty: true)
            output.note("Demo calendar (\(counted(feed.events.count, "game"))): \(path)")
        }
    }
}
