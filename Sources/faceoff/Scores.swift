import ArgumentParser
import FaceoffKit

extension Faceoff {
    struct ScoresCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scores",
            abstract: "Tonight's games across the league: start times and TV, live scores, finals.",
            discussion: "One request for the whole day. Games of followed teams come first, marked `*`.")

        @OptionGroup var global: GlobalOptions

        @Option(help: "The day's games instead of today's (YYYY-MM-DD).")
        var date: String?

        @Flag(help: "Yesterday's games (the day before today in your time zone).")
        var yesterday = false

        func validate() throws {
            try checkDay(date, "--date")
            if date != nil && yesterday { throw ValidationError("--date and --yesterday both name a day; use one") }
        }

        func run() async throws {
            let context = try FanContext(global)
            var day = date.flatMap { CalendarDay(iso: $0) }
            if yesterday { day = CalendarDay(context.service.now, in: context.service.time.timeZone).adding(days: -1) }
            context.emit(try await context.service.scores(on: day), render: context.text.scores)
        }
    }
}
