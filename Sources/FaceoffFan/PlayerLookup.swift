import FaceoffAPI
import FaceoffBase
import FaceoffKit
import FaceoffNHL
import FaceoffStore
import Foundation

/// Players named on the command line (`follow --player`, `unfollow --player`, `player`): by id,
/// or by name through the NHL's player search, which must find exactly one.
public enum PlayerLookup {
    public struct Resolved: Sendable {
        public let id: Int
        public let label: String
    }

    /// - Parameter checkIDs: ask the API whether a player given by id exists (`follow`; not
    ///   `unfollow`, which must work for any id the config holds).
    ///   - store: the response cache, opened when a name or an id is looked up.
    ///   - say: where a note for the user goes (an id that could not be checked).
    public static func resolve(
        _ inputs: [String], session: Session, store: () throws -> Store?, checkIDs: Bool = false, say: (String) -> Void
    ) async throws -> [Resolved] {
        var resolved: [Resolved] = []
        var search: PlayerSearch?
        for input in inputs {
            let trimmed = input.trimmingCharacters(in: .whitespaces)
            if let id = Int(trimmed), id > 0 {
                resolved.append(
                    checkIDs ? try await check(id, session: session, store: store, say: say) : Resolved(id: id, label: "player \(id)"))
                continue
            }
            if search == nil {
                search = PlayerSearch(client: session.nhlClient(store: try store()))
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
    static func check(_ id: Int, session: Session, store: () throws -> Store?, say: (String) -> Void) async throws -> Resolved {
        if session.mode == .offline {
            say("note: player \(id) not checked (offline); follow it again online to check it")
            return Resolved(id: id, label: "player \(id)")
        }
        do {
            let landing = try await session.nhlClient(store: (try? store()) ?? nil).fetch(.player(id)).value
            return Resolved(id: id, label: "\(landing.fullName) (\(id))")
        } catch let error as APIError where error.code == .notFound {
            throw UsageError(message: "\(error.detail); check it, or follow by name (faceoff follow --player \"Nick Suzuki\")")
        } catch {
            say("note: player \(id) not checked (\(error)); following it anyway")
            return Resolved(id: id, label: "player \(id)")
        }
    }
}
