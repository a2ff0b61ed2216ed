import FaceoffAPI
import FaceoffBase
import FaceoffHTTP
import Foundation

/// Finds players by name across every team's current roster (rosters are cached for a day).
public struct PlayerSearch: Sendable {
    public struct Candidate: Sendable, Equatable, CustomStringConvertible {
        public let id: Int
        public let name: String
        public let team: String
        public let position: String?

        public var description: String { "\(name) (\(team)\(position.map { ", \($0)" } ?? ""), id \(id))" }
    }

    let client: APIClient

    public init(client: APIClient) {
        // 32 rosters: one quick retry each, so a dead API fails in seconds, not minutes.
        self.client = client.retrying(
            RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(300), maxDelay: .seconds(1), maxTotal: .seconds(10)))
    }

    /// Every rostered player whose name contains all the words of `query`, ignoring case and accents.
    public func search(_ query: String, teams: [String] = Teams.abbreviations) async throws -> [Candidate] {
        let words = fold(query).split(separator: " ").map(String.init)
        guard !words.isEmpty else { return [] }
        var failures: [any Error] = []
        // Rosters the server has no page for: a partial mirror leaves some out, but a server
        // with none of them is not the NHL API (or is down in an odd way).
        var absent: [any Error] = []
        var candidates: [Candidate] = []
        try await withThrowingTaskGroup(of: Result<[Candidate], any Error>.self) { group in
            var pending = teams[...]
            func startNext() {
                guard let team = pending.popFirst() else { return }
                group.addTask {
                    do {
                        let roster = try await client.fetch(.roster(team)).value
                        return .success(Self.candidates(in: roster, team: team))
                    } catch let error as APIError where error.code == .wrongServer {
                        return .failure(AbsentRoster(error: error))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            // A few at a time: enough to be quick, few enough to be polite to the API.
            for _ in 0..<6 { startNext() }
            while let result = try await group.next() {
                switch result {
                case .success(let found): candidates += found
                case .failure(let error as AbsentRoster): absent.append(error.error)
                case .failure(let error): failures.append(error)
                }
                startNext()
            }
        }
        if let failure = failures.first, failures.count == teams.count { throw failure }
        if let first = absent.first, absent.count + failures.count == teams.count {
            throw PlayerSearchError(unreadable: teams.count, total: teams.count, example: "\(first)")
        }
        let matches =
            candidates
            .filter { candidate in
                let name = fold(candidate.name)
                return words.allSatisfy(name.contains)
            }
            .sorted { ($0.name, $0.id) < ($1.name, $1.id) }
        if matches.isEmpty, let failure = failures.first ?? absent.first {
            // The player may be on a roster that couldn't be read (or that the server has no
            // page for, as a partial mirror): don't claim he doesn't exist.
            throw PlayerSearchError(unreadable: failures.count + absent.count, total: teams.count, example: "\(failure)")
        }
        return matches
    }

    static func candidates(in roster: Roster, team: String) -> [Candidate] {
        roster.allPlayers.compactMap { player in
            guard let id = player.id else { return nil }
            let name = [player.firstName?.value, player.lastName?.value].compactMap { $0 }.joined(separator: " ")
            return Candidate(id: id, name: name, team: team, position: player.positionCode)
        }
    }

    private func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}

/// A 404 for a team's roster.
private struct AbsentRoster: Error { let error: APIError }

public struct PlayerSearchError: ReportedError, Sendable, CustomStringConvertible {
    public let unreadable: Int
    public let total: Int
    public let example: String

    public var description: String {
        if unreadable == total { return "the rosters could not be fetched, so no player can be looked up by name (\(example))" }
        return
            "no match in the rosters that could be read, but \(unreadable) of \(total) rosters could not be read (\(example)); try again, or use the player's id"
    }
}
