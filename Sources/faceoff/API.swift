import ArgumentParser
import FaceoffDaemon
import FaceoffKit
import FaceoffNHL
import Foundation

extension Faceoff {
    struct APICommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "api",
            abstract: "Print a raw NHL API response (JSON), through the cache.",
            discussion: """
                The path is relative to the API base, e.g. standings/now,
                club-schedule-season/TOR/now or gamecenter/2025020100/play-by-play.
                """)

        @Argument(help: "A path under /v1/.")
        var path: String

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try global.session()
            let store = try openCacheStore(session)
            let fetched = try await session.nhlClient(store: store).fetch(.raw(path))
            if let staleness = fetched.staleness { printError("note: \(staleness)") }
            print(fetched.value.prettyPrinted())
        }
    }
}
