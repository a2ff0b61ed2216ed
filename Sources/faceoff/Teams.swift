import ArgumentParser
import FaceoffDaemon
import FaceoffKit

extension Faceoff {
    struct TeamsCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "teams", abstract: "All 32 teams by conference and division, in their colours.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let context = try FanContext(global)
            context.emit(await context.service.teams(), render: context.text.teams)
        }
    }
}
