import FaceoffAPI
import FaceoffBase
import FaceoffESPN
import FaceoffKit
import FaceoffNHL
import FaceoffStore
import Foundation

/// A game to replay: the NHL's play-by-play, or an NBA game's summary from ESPN.
public enum ReplayGame {
    case nhl(PlayByPlay)
    /// The summary, and the answer as it came (what `replay --serve` serves).
    case nba(ESPNSummary, Data)

    /// The game `faceoff replay` names: `nba:<id>` (ESPN's summary), an NHL game id (its
    /// play-by-play), or a file holding either.
    /// - Parameter cache: the response cache, opened only when the game is fetched.
    /// A regular file of that name wins over a game id (it is what was recorded).
    public static func load(_ source: String, session: Session, cache: () throws -> Store?) async throws -> ReplayGame {
        let path = session.paths.expand(source)
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        if let game = GameKey.parse(source), !exists || isFolder.boolValue {
            let store = try cache()
            switch game.league {
            case .nhl: return .nhl(try await session.nhlClient(store: store).fetch(.playByPlay(game.id)).value)
            case .nba:
                let endpoint = Endpoint<ESPNSummary>.nbaSummary(game.id)
                let summary = try await session.espnClient(store: store).fetch(endpoint).value
                let body = store.flatMap { try? ResponseCache(store: $0).entry(for: session.config.espnBase + endpoint.path)?.body }
                return .nba(summary, Data(body ?? []))
            default: throw UsageError(message: "Faceoff can't replay \(game.league.name) games yet")
            }
        }
        if let mistake = GameKey.mistake(in: source), !exists {
            throw UsageError(message: "\(mistake), or a file")
        }
        if isFolder.boolValue {
            throw UsageError(message: "\(source) is a folder (give a play-by-play or ESPN summary JSON file, or a game id)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(message: "no such file: \(source) (give a play-by-play or ESPN summary JSON file, or a game id)")
        }
        // ESPN's summaries have a header; the NHL's play-by-play has none.
        guard let object = try? JSONSerialization.jsonObject(with: data) else {
            throw UsageError(message: "\(source) is not JSON (give a play-by-play or ESPN summary JSON file, or a game id)")
        }
        let fields = object as? [String: Any]
        do {
            if fields?["header"] != nil {
                let summary = try APIText.decode(ESPNSummary.self, from: Array(data))
                if let problem = summary.implausible { throw UsageError(message: "\(source) is not a game ESPN could give: \(problem)") }
                return .nba(summary, data)
            }
            let feed = try APIText.decode(PlayByPlay.self, from: Array(data))
            if let problem = feed.implausible { throw UsageError(message: "\(source) is not a game the NHL could give: \(problem)") }
            return .nhl(feed)
        } catch let error as UsageError {
            throw error
        } catch {
            let why = (error as? DecodingError).map(DecodingErrorText.describe) ?? "\(error)"
            throw UsageError(message: "\(source) is not a play-by-play response or an ESPN summary (\(why))")
        }
    }
}
