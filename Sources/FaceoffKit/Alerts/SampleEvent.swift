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
        var event = GameEvent(kind: kind, key: key ?? "sample", gameId: gameId, away: rival, home: team, team: team, period: 2,
                              periodType: "REG", clock: "12:34", score: score)
        switch kind {
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
            event.players = [player("scorer", 8479318, "A. Matthews", team, 34), player("assist", 8478483, "M. Marner", team, 41),
                             player("assist", 8476853, "M. Rielly", team, 22)]
            if kind == .scoringChange { event.details = ["revision": "1"] }
            if kind == .goalHighlight { event.details = ["highlight_url": "https://www.nhl.com/video/sample-goal-6362000000112"] }
        case .penalty:
            event.team = rival
            event.players = [player("penalty", 8480018, "N. Suzuki", rival), player("drawn_by", 8479318, "A. Matthews", team)]
            event.details = ["infraction": "hooking", "minutes": "2"]
        case .powerPlayStart:
            event.strength = "5v4"
            event.details = ["minutes": "2"]
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
        }
        return event
    }
}
