import ArgumentParser
import FaceoffAPI
import FaceoffBase
import FaceoffDaemon
import FaceoffFan
import FaceoffKit
import FaceoffMQTT
import FaceoffNHL
import Foundation

extension Faceoff {
    struct FollowCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "follow",
            abstract: "Follow teams or players (edits config.toml, keeping your comments).",
            discussion: """
                Examples:
                  faceoff follow TOR MTL
                  faceoff follow nba:LAL
                  faceoff follow --player 8479318
                  faceoff follow --player "Nick Suzuki"
                """)

        @Argument(help: "Teams, as abbreviations (TOR) or names (Leafs).")
        var teams: [String] = []

        @Option(
            name: .long,
            help: ArgumentHelp("A player id, or a name to look up in the current rosters (repeatable).", valueName: "id-or-name"))
        var player: [String] = []

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            try global.refuseJSON("follow")
            if teams.isEmpty && player.isEmpty {
                throw ValidationError("name at least one team (faceoff follow TOR) or --player")
            }
        }

        func run() async throws {
            let session = try global.session()
            // Two spellings of one team (`nba:Blazers`, `nba:POR`) are one team.
            var abbreviations: [String] = []
            for team in teams {
                let written = try TeamInput.followed(team).written
                if !abbreviations.contains(written) { abbreviations.append(written) }
            }
            let playerIDs = try await PlayerLookup.resolve(
                player, session: session, store: { try openCacheStore(session) }, checkIDs: true, say: printError)
            let editor = ConfigFileEditor(session: session)
            let result = try editor.edit { text in
                var text = text
                if !abbreviations.isEmpty {
                    text = ConfigEditor.add(abbreviations.map { "\"\($0)\"" }, toList: "teams", in: text, canonical: TeamInput.canonical)
                }
                if !playerIDs.isEmpty {
                    text = ConfigEditor.add(playerIDs.map { String($0.id) }, toList: "players", in: text)
                }
                return text
            }
            let before = session.config
            let added =
                abbreviations.filter { !before.teams.contains($0) } + playerIDs.filter { !before.players.contains($0.id) }.map(\.label)
            let already =
                abbreviations.filter { before.teams.contains($0) } + playerIDs.filter { before.players.contains($0.id) }.map(\.label)
            if !added.isEmpty { print("Following \(added.joined(separator: ", ")) (\(session.displayConfigPath))") }
            if !already.isEmpty { print("Already following \(already.joined(separator: ", "))") }
            print(result.followedLine)
        }
    }
}

extension Config {
    /// The line `follow` and `unfollow` end with: who is followed now.
    var followedLine: String {
        let teams = self.teams.isEmpty ? "none" : self.teams.joined(separator: ", ")
        let players = self.players.isEmpty ? "none" : self.players.map(String.init).joined(separator: ", ")
        return "Teams: \(teams)  Players: \(players)"
    }
}
