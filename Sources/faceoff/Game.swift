import ArgumentParser
import FaceoffBase
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
            // A game (2025020100, nba:401585607), else a team's game on now or its last.
            if let game = teamOrGame.flatMap(GameKey.parse) {
                switch game.league {
                case .nhl: context.emit(try await context.service.boxScore(game: game.id), render: context.text.boxScore)
                case .nba: context.emit(try await context.service.nbaBoxScore(game: game.id), render: context.text.nbaBoxScore)
                default: throw game.league.lacks("box score")
                }
                return
            }
            if let mistake = teamOrGame.flatMap(GameKey.mistake(in:)) { throw UsageError(message: mistake) }
            if let nba = try context.nbaTeam(teamOrGame) {
                let id = try await context.service.nbaCurrentOrLastGame(team: nba)
                context.emit(try await context.service.nbaBoxScore(game: id), render: context.text.nbaBoxScore)
                return
            }
            let id = try await context.service.currentOrLastGame(team: try context.team(teamOrGame, command: "game"))
            context.emit(try await context.service.boxScore(game: id), render: context.text.boxScore)
        }
    }
}
