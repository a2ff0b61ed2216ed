import FaceoffAPI
import Foundation

/// Which `LiveGame` watches a league's game: the one place the live path names each league.
/// `run` and `watch` ask here, and watch what they get through the one `GameWatcher`.
public enum LiveGames {
    /// The game `id` of `league`, polled through that league's client.
    public static func game(_ league: League, id: Int, nhl: APIClient, espn: APIClient) -> any LiveGame {
        switch league {
        case .nhl: NHLGame(gameID: id, client: nhl)
        case .nba: NBAGame(gameID: id, client: espn)
        }
    }
}
