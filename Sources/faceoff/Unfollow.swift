import ArgumentParser
import FaceoffBase
import FaceoffDaemon
import FaceoffFan
import FaceoffKit
import FaceoffNHL
import Foundation

extension Faceoff {
    struct UnfollowCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unfollow",
            abstract: "Stop following teams or players (edits config.toml, keeps comments).",
            discussion: "Examples:\n  faceoff unfollow MTL\n  faceoff unfollow --player 8479318")

        @Argument(help: "Teams, as abbreviations (TOR) or names (Leafs).")
        var teams: [String] = []

        @Option(name: .long, help: ArgumentHelp("A player id or name (repeatable).", valueName: "id-or-name"))
        var player: [String] = []

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            try global.refuseJSON("unfollow")
            if teams.isEmpty && player.isEmpty {
                throw ValidationError("name at least one team (faceoff unfollow MTL) or --player")
            }
        }

        func run() async throws {
            let session = try global.session()
            let abbreviations = try teams.map { team throws(UnknownTeamError) in try TeamInput.followed(team).written }
            let playerIDs = try await PlayerLookup.resolve(
                player, session: session, store: { try openCacheStore(session) }, say: printError)
            let before = session.config
            let result = try ConfigFileEditor(session: session).edit { text in
                var text = text
                if !abbreviations.isEmpty {
                    text = ConfigEditor.remove(
                        abbreviations.map { "\"\($0)\"" }, fromList: "teams", in: text, canonical: TeamInput.canonical)
                }
                if !playerIDs.isEmpty {
                    text = ConfigEditor.remove(playerIDs.map { String($0.id) }, fromList: "players", in: text)
                }
                return text
            }
            let stuck =
                abbreviations.filter { result.teams.contains($0) } + playerIDs.filter { result.players.contains($0.id) }.map(\.label)
            if !stuck.isEmpty {
                throw RuntimeError(
                    message:
                        "could not remove \(stuck.joined(separator: ", ")) from \(session.displayConfigPath): the list is written in a way Faceoff doesn't edit; change it by hand"
                )
            }
            let removed =
                abbreviations.filter { before.teams.contains($0) } + playerIDs.filter { before.players.contains($0.id) }.map(\.label)
            if !removed.isEmpty { print("No longer following \(removed.joined(separator: ", ")) (\(session.displayConfigPath))") }
            for team in abbreviations where !before.teams.contains(team) {
                printError("note: \(team) was not followed")
            }
            for player in playerIDs where !before.players.contains(player.id) {
                printError("note: \(player.label) was not followed")
            }
            print(result.followedLine)
        }
    }
}
