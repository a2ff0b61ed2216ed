import ArgumentParser
import FaceoffAPI
import FaceoffBase
import FaceoffDaemon
import FaceoffFan
import FaceoffKit
import FaceoffMQTT
import FaceoffNHL

extension Faceoff {
    struct PlayerCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "player", abstract: "A player's bio, season and career numbers, and last five games.",
            discussion: "Examples:\n  faceoff player 8478402\n  faceoff player \"Nick Suzuki\"")

        @Argument(help: "A player id, or a name looked up in the current rosters.")
        var player: [String]

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let context = try global.fanContext()
            let query = player.joined(separator: " ")
            guard
                let resolved = try await PlayerLookup.resolve(
                    [query], session: context.session, store: { try openCacheStore(context.session) }, say: printError
                ).first
            else { return }
            do {
                context.emit(try await context.service.player(id: resolved.id), render: context.text.player)
            } catch let error as APIError where error.code == .notFound && Int(query.trimmingCharacters(in: .whitespaces)) == nil {
                // Found on a roster by name: he exists; it is his page that is missing.
                throw RuntimeError(
                    message:
                        "\(resolved.label) is on a roster, but his player page is missing (\(error.url) answered 404); try again later, or check the mirror"
                )
            }
        }
    }
}
