import ArgumentParser
import FaceoffAPI
import FaceoffBase
import FaceoffDaemon
import FaceoffKit
import FaceoffMQTT
import FaceoffNHL
import Foundation

struct Follow: AsyncParsableCommand {
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

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Teams, as abbreviations (TOR) or names (Leafs).")
    var teams: [String] = []

    @Option(
        name: .long, help: ArgumentHelp("A player id, or a name to look up in the current rosters (repeatable).", valueName: "id-or-name"))
    var player: [String] = []

    func validate() throws {
        try global.refuseJSON("follow")
        if teams.isEmpty && player.isEmpty {
            throw ValidationError("name at least one team (faceoff follow TOR) or --player")
        }
    }

    func run() async throws {
        let session = try global.session()
        let abbreviations = try teams.map { team throws(UnknownTeamError) in try TeamInput.followed(team).written }
        let playerIDs = try await PlayerLookup.resolve(player, session: session, checkIDs: true)
        let editor = ConfigFileEditor(session: session)
        let result = try editor.edit { text in
            var text = text
            if !abbreviations.isEmpty {
                text = ConfigEditor.add(abbreviations.map { "\"\($0)\"" }, toList: "teams", in: text, canonical: canonicalTeam)
            }
            if !playerIDs.isEmpty {
                text = ConfigEditor.add(playerIDs.map { String($0.id) }, toList: "players", in: text)
            }
            return text
        }
        let before = session.config
        let added = abbreviations.filter { !before.teams.contains($0) } + playerIDs.filter { !before.players.contains($0.id) }.map(\.label)
        let already = abbreviations.filter { before.teams.contains($0) } + playerIDs.filter { before.players.contains($0.id) }.map(\.label)
        if !added.isEmpty { print("Following \(added.joined(separator: ", ")) (\(session.displayConfigPath))") }
        if !already.isEmpty { print("Already following \(already.joined(separator: ", "))") }
        print(
            "Teams: \(result.teams.isEmpty ? "none" : result.teams.joined(separator: ", "))  Players: \(result.players.isEmpty ? "none" : result.players.map(String.init).joined(separator: ", "))"
        )
    }
}

/// Applies a text edit to config.toml: the current file must be valid, the result must be
/// valid, and the file is replaced atomically.
struct ConfigFileEditor {
    let session: Session

    /// Read, changed and written under `ConfigFile.locked`: two edits at once both land.
    func edit(_ change: (String) -> String) throws -> Config {
        try ConfigFile.locked(session.configPath) { try editLocked(change) }
    }

    private func editLocked(_ change: (String) -> String) throws -> Config {
        let path = session.configPath
        let display = session.displayConfigPath
        let original: String
        let exists = FileManager.default.fileExists(atPath: path)
        if exists {
            do {
                original = try FileError.readText(path)
            } catch {
                throw RuntimeError(message: "cannot read \(display): \(error.reason)")
            }
        } else {
            original = ConfigTemplate.text()
        }
        let updated = change(original)
        let config: Config
        do {
            config = try ConfigLoader.parse(updated, file: display)
        } catch {
            // The edit only touches two lists, so an error here was in the file before.
            throw ConfigErrors(error.errors + [ConfigError(file: display, line: nil, message: "not changed; fix the problems above first")])
        }
        // A new file only when the edit changed something (unfollow on no config writes nothing).
        if exists ? updated != original : updated != ConfigTemplate.text() {
            try ConfigFile.write(updated, to: path)
        }
        return config
    }
}

enum PlayerLookup {
    struct Resolved {
        let id: Int
        let label: String
    }

    /// - Parameter checkIDs: ask the API whether a player given by id exists (`follow`; not
    ///   `unfollow`, which must work for any id the config holds).
    static func resolve(_ inputs: [String], session: Session, checkIDs: Bool = false) async throws -> [Resolved] {
        var resolved: [Resolved] = []
        var search: PlayerSearch?
        for input in inputs {
            let trimmed = input.trimmingCharacters(in: .whitespaces)
            if let id = Int(trimmed), id > 0 {
                resolved.append(checkIDs ? try await check(id, session: session) : Resolved(id: id, label: "player \(id)"))
                continue
            }
            if search == nil {
                let store = try openCacheStore(session)
                search = PlayerSearch(client: session.nhlClient(store: store))
            }
            let matches = try await search!.search(trimmed)
            switch matches.count {
            case 0:
                throw UsageError(message: "no current NHL player matches '\(trimmed)'; check the spelling, or use the player's id")
            case 1:
                resolved.append(Resolved(id: matches[0].id, label: matches[0].description))
            default:
                let list = matches.prefix(10).map { "  \($0)" }.joined(separator: "\n")
                throw UsageError(message: "'\(trimmed)' matches \(matches.count) players; name one by id:\n\(list)")
            }
        }
        return resolved
    }

    /// A player id checked against the API: one it does not know is refused; one that can't
    /// be checked (offline, the API down) is taken, and that is said.
    static func check(_ id: Int, session: Session) async throws -> Resolved {
        if session.mode == .offline {
            printError("note: player \(id) not checked (offline); follow it again online to check it")
            return Resolved(id: id, label: "player \(id)")
        }
        do {
            let landing = try await session.nhlClient(store: (try? openCacheStore(session)) ?? nil).fetch(.player(id)).value
            return Resolved(id: id, label: "\(landing.fullName) (\(id))")
        } catch let error as APIError where error.code == .notFound {
            throw UsageError(message: "\(error.detail); check it, or follow by name (faceoff follow --player \"Nick Suzuki\")")
        } catch {
            printError("note: player \(id) not checked (\(error)); following it anyway")
            return Resolved(id: id, label: "player \(id)")
        }
    }
}

/// How the config's team lists compare values: "Leafs", "tor" and "TOR" are one team.
func canonicalTeam(_ value: String) -> String {
    (try? TeamInput.followed(value).written) ?? value.uppercased()
}
