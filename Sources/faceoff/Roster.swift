import ArgumentParser
import FaceoffDaemon
import FaceoffKit
import FaceoffNHL

extension Faceoff {
    struct RosterCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "roster",
            abstract: "A team's current roster by jersey number: forwards, defence, goalies (an NBA team's: nba:LAL).")

        @Argument(help: "A team (default: the first followed team).")
        var team: String?

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let context = try global.fanContext()
            if let nba = try context.nbaTeam(team) {
                context.emit(try await context.service.nbaRoster(team: nba), render: context.text.roster)
                return
            }
            let team = try context.team(team, command: "roster")
            context.emit(try await context.service.roster(team: team), render: context.text.roster)
        }
    }
}
