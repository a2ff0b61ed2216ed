import ArgumentParser
import FaceoffDaemon
import FaceoffKit
import FaceoffMQTT
import FaceoffNHL

extension Faceoff {
    struct ScheduleCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schedule", abstract: "A team's season: results, live scores, upcoming games and TV.",
            discussion:
                "Examples:\n  faceoff schedule\n  faceoff schedule MTL --from 2025-11-01 --to 2025-11-30\n  faceoff schedule nba:LAL")

        @Argument(help: "A team (TOR, Leafs, nba:LAL; default: the first followed team).")
        var team: String?

        @Option(help: ArgumentHelp("An NHL season such as 20252026 (default: the current one).", valueName: "season"))
        var season: String?

        @Option(help: ArgumentHelp("Only games on or after this date (YYYY-MM-DD).", valueName: "date"))
        var from: String?

        @Option(help: ArgumentHelp("Only games on or before this date (YYYY-MM-DD).", valueName: "date"))
        var to: String?

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if let season, Season(season) == nil { throw ValidationError("--season must look like 20252026") }
            try checkDay(from, "--from")
            try checkDay(to, "--to")
            // Both are YYYY-MM-DD, so they compare as text.
            if let from, let to, from > to { throw ValidationError("--from \(from) is after --to \(to); no day can be in between") }
        }

        func run() async throws {
            let context = try global.fanContext()
            if let nba = try context.nbaTeam(team) {
                if season != nil { throw ValidationError("--season is the NHL's; an NBA team's schedule is ESPN's current one") }
                context.emit(try await context.service.nbaSchedule(team: nba, from: from, to: to), render: context.text.schedule)
                return
            }
            let team = try context.team(team, command: "schedule")
            context.emit(try await context.service.schedule(team: team, season: season, from: from, to: to), render: context.text.schedule)
        }
    }
}
