import FaceoffNHL
import Foundation

/// Made-up events of every kind, for `faceoff test-alert` and for checking templates: a
/// followed team at home against a rival, with real-looking players.
public enum SampleEvent {
    /// - Parameter key: makes the id unique (`test-alert` sends a fresh id each time, so a
    ///   receiver that deduplicates on `webhook-id` still shows the second try).
    public static func make(_ kind: GameEvent.Kind, team: String, key: String? = nil, gameId: Int = 2025029999) -> GameEvent {
        let rival = team == "MTL" ? "TOR" : "MTL"
        let score = GameEvent.Score(away: 1, home: 2)
        func player(_ role: String, _ id: Int, _ name: String, _ side: String, _ total: Int? = nil) -> GameEvent.Player {
            GameEvent.Player(role: role, id: id, name: name, team: side, seasonTotal: total)
        }
        // Players of the team itself: a scorer and two assists (made-up names for teams without).
        let cast: [String: [(Int, String)]] = [
            "TOR": [(8479318, "A. Matthews"), (8478483, "M. Marner"), (8476853, "M. Rielly")],
            "MTL": [(8480018, "N. Suzuki"), (8481540, "C. Caufield"), (8483457, "L. Hutson")],
            "PIT": [(8471675, "S. Crosby"), (8471215, "E. Malkin"), (8477955, "E. Karlsson")],
            "EDM": [(8478402, "C. McDavid"), (8477934, "L. Draisaitl"), (8475218, "M. Ekholm")],
        ]
        func sample(_ side: String) -> [(Int, String)] {
            cast[side] ?? [(1, "\(side) Scorer"), (2, "\(side) Setup"), (3, "\(side) Helper")]
        }
        if [.score, .leadChange, .run, .closeGame, .milestone].contains(kind) { return basketball(kind, key: key) }
        let (us, them) = (sample(team), sample(rival))
        var event = GameEvent(
            kind: kind, key: key ?? "sample", gameId: gameId, away: rival, home: team, team: team, period: 2,
            periodType: "REG", clock: "12:34", score: score)
        switch kind {
        case .digest:
            event.details = ["summary": "\(rival) 1–2 \(team), final (\(us[0].1) ×2)", "alerts": "6"]
            event.team = nil
            event.clock = nil
        case .scheduleChange:
            event.details = ["change": "moved", "from": "Sat Nov 28 19:00", "to": "Sun Nov 29 15:00"]
            event.period = nil
            event.periodType = nil
            event.clock = nil
            event.score = .init(away: 0, home: 0)
        case .pregame:
            event.details = ["minutes_before": "30"]
            event.period = nil
            event.clock = nil
            event.score = .init(away: 0, home: 0)
        case .gameStart:
            event.period = 1
            event.clock = "00:00"
            event.score = .init(away: 0, home: 0)
        case .gameJoined:
            event.details = ["time_remaining": "07:26", "scorers": "\(team): Player One · \(rival): Player Two"]
        case .goal, .scoringChange, .goalOverturned, .goalReinstated, .goalHighlight:
            event.strength = "PP"
            event.players = [
                player("scorer", us[0].0, us[0].1, team, 34), player("assist", us[1].0, us[1].1, team, 41),
                player("assist", us[2].0, us[2].1, team, 22),
            ]
            if kind == .scoringChange { event.details = ["revision": "1"] }
            if kind == .goalHighlight { event.details = ["highlight_url": "https://www.nhl.com/video/sample-goal-6362000000112"] }
        case .penalty:
            event.team = rival
            event.players = [player("penalty", them[0].0, them[0].1, rival), player("drawn_by", us[0].0, us[0].1, team)]
            event.details = ["infraction": "hooking", "minutes": "2"]
        case .penaltyShotMissed:
            event.penaltyShot = true
            event.players = [player("shooter", us[0].0, us[0].1, team), player("goalie", them[0].0, them[0].1, rival)]
            event.details = ["result": "stopped"]
        case .powerPlayStart:
            event.strength = "5v4"
            event.details = ["minutes": "2", "time_left": "2:00"]
        case .powerPlayChange:
            event.strength = "5v3"
            event.details = ["from": "5v4", "reason": "penalty"]
        case .powerPlayEnd:
            event.strength = "5v4"
            event.details = ["reason": "expired"]
        case .goaliePulled, .goalieReturned:
            event.team = rival
            event.strength = "6v5"
            event.period = 3
            event.clock = "18:02"
        case .periodStart:
            event.team = nil
            event.clock = "00:00"
        case .periodEnd:
            event.team = nil
            event.clock = "20:00"
            event.shots = .init(away: 18, home: 24)
        case .final:
            event.team = team
            event.period = 3
            event.clock = "20:00"
            event.score = .init(away: 2, home: 3)
            event.shots = .init(away: 27, home: 33)
            event.details = ["ended_in": "REG", "winner": team]
        case .score, .leadChange, .run, .closeGame, .milestone:
            break
        }
        return event
    }
    /// A basketball kind: the Lakers at home to the Celtics in the 4th quarter.
    static func basketball(_ kind: GameEvent.Kind, key: String?) -> GameEvent {
        var event = GameEvent(
            kind: kind, key: key ?? "sample", gameId: 401_999_999, away: "BOS", home: "LAL", team: "LAL", period: 4, periodType: "REG",
            clock: "08:48", score: GameEvent.Score(away: 98, home: 101), details: ["time_remaining": "3:12"])
        event.league = .nba
        let james = GameEvent.Player(role: "scorer", id: 1966, name: "LeBron James", team: "LAL")
        switch kind {
        case .score:
            event.players = [james, GameEvent.Player(role: "assist", id: 3_975, name: "Austin Reaves", team: "LAL")]
            event.details["points"] = "3"
        case .leadChange:
            event.players = [james]
            event.details["lead"] = "3"
            event.details["lead_changes"] = "12"
        case .run:
            event.details["run_score"] = "10-0"
        case .closeGame:
            event.team = nil
            event.details["margin"] = "3"
        default:
            event.players = [GameEvent.Player(role: "player", id: 1966, name: "LeBron James", team: "LAL")]
            event.details["milestone"] = "triple-double"
            event.details["line"] = "31 pts, 11 reb, 10 ast"
        }
        return event
    }
}
