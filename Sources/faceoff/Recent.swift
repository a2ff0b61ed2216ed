import ArgumentParser
import FaceoffKit

extension Faceoff {
    struct RecentCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recent", abstract: "The most recent finished games, newest first.")

        @Argument(help: "A team (default: the first followed team).")
        var team: String?

        @Option(name: .short, help: "How many games.")
        var n = 10

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard (1...100).contains(n) else { throw ValidationError("-n must be between 1 and 100") }
        }

        func run() async throws {
            let context = try global.fanContext()
            if let nba = try context.nbaTeam(team) {
                context.emit(try await context.service.nbaRecent(team: nba, count: n), render: context.text.recent)
                return
            }
            let team = try context.team(team, command: "recent")
            context.emit(try await context.service.recent(team: team, count: n), render: context.text.recent)
        }
    }
}
