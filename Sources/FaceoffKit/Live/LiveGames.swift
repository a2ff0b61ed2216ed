import FaceoffAPI
import Foundation

/// Which `LiveGame` watches a league's game: `run` and `watch` ask here, and watch what they
/// get through the one `GameWatcher`. The league makes it (`LeagueDefinition.liveGame`) with
/// the client of its API.
public enum LiveGames {
    /// The game `id` of `league`, polled through the one of these clients that speaks its API.
    public static func game(_ league: League, id: Int, nhl: APIClient, espn: APIClient) -> any LiveGame {
        let definition = league.definition
        return definition.liveGame(id, client: definition.client(among: [nhl, espn]))
    }
}
