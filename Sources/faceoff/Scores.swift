import ArgumentParser
import FaceoffBase
import FaceoffDaemon
import FaceoffFan
import FaceoffKit
import FaceoffMQTT
import Foundation

extension Faceoff {
    struct ScoresCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scores",
            abstract: "Tonight's games across the league: start times and TV, live scores, finals.",
            discussion: """
                One request for the whole day. Games of followed teams come first, marked `*`. With --watch \
                the table is redrawn in place: at the [watch] poll while a game is on, else once a minute, \
                until q or Ctrl-C.
                """)

        @Option(help: "nhl or nba.")
        var league: League = .nhl

        @Option(help: "The day's games instead of today's (YYYY-MM-DD).")
        var date: String?

        @Flag(help: "Yesterday's games (the day before today in your time zone).")
        var yesterday = false

        @Flag(help: "Redraw in place until q or Ctrl-C (a terminal only).")
        var watch = false

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            try checkDay(date, "--date")
            if date != nil && yesterday { throw ValidationError("--date and --yesterday both name a day; use one") }
            if watch && global.json { throw ValidationError("--watch redraws a table; --json prints one document, so use one") }
        }

        func run() async throws {
            let context = try global.fanContext()
            var day = date.flatMap { CalendarDay(iso: $0) }
            if yesterday { day = CalendarDay(context.service.now, in: context.service.time.timeZone).adding(days: -1) }
            guard watch else {
                context.emit(try await Self.scores(context, league: league, day: day), render: context.text.scores)
                return
            }
            guard isatty(STDOUT_FILENO) == 1 else {
                throw UsageError(
                    message: "--watch redraws a terminal, and standard output is not one; run `faceoff scores` as often as you like instead"
                )
            }
            try await Self.watch(context, league: league, day: day, poll: context.session.config.watch.poll)
        }

        static func scores(_ context: FanContext, league: League, day: CalendarDay?) async throws -> FanService.Output<ScoresReport> {
            switch league {
            case .nhl: try await context.service.scores(on: day)
            case .nba: try await context.service.nbaScores(on: day, followed: context.session.config.nbaTeams)
            default: throw league.lacks("scores")
            }
        }

        /// Redraws the day's table until q (Ctrl-C reads as q while the keys are open): a
        /// refresh that fails keeps the last table and says why under it.
        static func watch(_ context: FanContext, league: League, day: CalendarDay?, poll: Duration) async throws {
            let keys = TerminalKeys.open()
            defer { keys?.close() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    var table = ""
                    while !Task.isCancelled {
                        var footer: String
                        var interval = Duration.seconds(60)
                        do {
                            let output = try await scores(context, league: league, day: day)
                            table = context.text.scores(output.report)
                            if output.report.games.contains(where: { $0.status == "live" }) { interval = poll }
                            footer = "Updated \(context.service.time.time(Date()))"
                        } catch {
                            footer = "Could not refresh (\(error)); trying again in a minute"
                        }
                        // Home, clear, draw: the table in place of the last one.
                        print("\u{1B}[H\u{1B}[2J" + table + "\n\n" + context.text.style.dim(footer + " · q quits"))
                        try await Task.sleep(for: interval)
                    }
                }
                group.addTask {
                    guard let keys else {
                        // No keyboard (stdin not a terminal): until Ctrl-C ends the process.
                        try await Task.sleep(for: .seconds(365 * 86400))
                        return
                    }
                    for await key in keys.keys where key == "q" || key == "Q" { return }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }
}
