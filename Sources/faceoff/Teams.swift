import ArgumentParser
import FaceoffDaemon
import FaceoffKit

extension Faceoff {
    struct TeamsCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "teams", abstract: "A league's teams by conference and division, in their colours.")

        @Option(help: "nhl (32 teams) or nba (30).")
        var league: League = .nhl

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let context = try global.fanContext()
            switch league {
            case .nhl: context.emit(await context.service.teams(), render: context.text.teams)
            case .nba: context.emit(await context.service.nbaTeams(), render: context.text.teams)
            default: throw league.lacks("team list")
            }
        }
    }
}
