import ArgumentParser
import FaceoffDaemon
import FaceoffKit
import FaceoffNHL

extension Faceoff {
    struct PlayoffsCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "playoffs", abstract: "The Stanley Cup playoffs: the bracket by round, and a team's run game by game.",
            discussion: """
                Before the bracket is set: when the playoffs start and where the team stands in
                the race. The team is the one given, else the first followed team.

                Examples:
                  faceoff playoffs
                  faceoff playoffs MTL --season 20242025
                """)

        @Argument(help: "A team (default: the first followed team).")
        var team: String?

        @Option(help: ArgumentHelp("A season such as 20242025 (default: the current one).", valueName: "season"))
        var season: String?

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if let season, Season(season) == nil { throw ValidationError("--season must look like 20242025") }
        }

        func run() async throws {
            let context = try global.fanContext()
            let team = try team.map { try TeamInput.nhl($0) } ?? context.session.config.nhlTeams.first
            context.emit(try await context.service.playoffs(team: team, season: season.flatMap(Season.init)), render: context.text.playoffs)
        }
    }
}
