import ArgumentParser
import FaceoffKit
import FaceoffNHL

extension StandingsReport.Grouping: ExpressibleByArgument {}

extension Faceoff {
    struct StandingsCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "standings", abstract: "The standings, sorted the way the NHL sorts them.")

        @OptionGroup var global: GlobalOptions

        @Option(help: "league, conference, division or wildcard.")
        var by: StandingsReport.Grouping = .division

        func run() async throws {
            let context = try FanContext(global)
            context.emit(try await context.service.standings(by: by), render: context.text.standings)
        }
    }
}
