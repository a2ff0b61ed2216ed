import ArgumentParser
import FaceoffKit
import FaceoffMQTT
import FaceoffNHL

extension Faceoff {
    struct GameCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "game",
            abstract: "A game's box score: goals, shots, goalies, power plays, penalties, three stars.",
            discussion: """
                Of a team's game on now, else its last one (the first followed team when none is named), \
                or of a game id (as `recent --json` and `next --json` give it). A finished game's answers \
                are kept, so it works --offline too.
                """)

        @Argument(help: "A team (TOR, Leafs, nba:LAL) or a game id (2025020100, nba:401585607).")
        var teamOrGame: String?

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let context = try global.fanContext()
            // An NHL game id; nba:401585607 an NBA game; nba:LAL an NBA team's game on now or last.
            if let number = teamOrGame.flatMap(Int.init), number > 1_000_000 {
                context.emit(try await context.service.boxScore(game: number), render: context.text.boxScore)
                return
            }
            if let argument = teamOrGame, argument.lowercased().hasPrefix("nba:"), let number = Int(argument.dropFirst(4)) {
                context.emit(try await context.service.nbaBoxScore(game: number), render: context.text.nbaBoxScore)
                return
            }
            if let nba = try context.nbaTeam(teamOrGame) {
                let id = try await context.service.nbaCurrentOrLastGame(team: nba)
                context.emit(try await context.service.nbaBoxScore(game: id), render: context.text.nbaBoxScore)
                return
            }
            let id: Int
            if let number = teamOrGame.flatMap(Int.init), number > 1_000_000 {
                id = number
            } else {
                id = try await context.service.currentOrLastGame(team: try context.team(teamOrGame, command: "game"))
            }
            context.emit(try await context.service.boxScore(game: id), render: context.text.boxScore)
        }
    }
}
