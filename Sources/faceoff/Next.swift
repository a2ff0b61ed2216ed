import ArgumentParser
import FaceoffKit
import FaceoffMQTT

extension Faceoff {
    struct NextCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "next", abstract: "The next game (or the one on now, or the last one played).")

        @Argument(help: "A team (default: the first followed team).")
        var team: String?

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let context = try global.fanContext()
            let now = context.service.now
            if let nba = try context.nbaTeam(team) {
                context.emit(try await context.service.nbaNext(team: nba)) { context.text.next($0, now: now) }
                return
            }
            let team = try context.team(team, command: "next")
            context.emit(try await context.service.next(team: team)) { context.text.next($0, now: now) }
        }
    }
}
