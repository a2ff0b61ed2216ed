import FaceoffNHL
import Foundation

/// The events of single plays: a penalty, a penalty shot that did not score, the final.
extension EventDetector {
    /// One play's event about one team (the play's owner) against the other.
    private static func event(
        _ kind: GameEvent.Kind, _ play: Play, in snapshot: GameSnapshot, score: GameEvent.Score, penaltyShot: Bool,
        details: [String: String], people: (_ team: String?, _ opponent: String) -> [GameEvent.Player?]
    ) -> GameEvent {
        let team = snapshot.team(of: play)
        let opponent = team == snapshot.home.abbrev ? snapshot.away.abbrev : snapshot.home.abbrev
        return GameEvent(
            kind: kind, key: play.eventId.map(String.init), gameId: snapshot.gameId, away: snapshot.away.abbrev,
            home: snapshot.home.abbrev, team: team, period: play.periodDescriptor?.number,
            periodType: play.periodDescriptor?.periodType?.rawValue, clock: play.timeInPeriod, score: score,
            penaltyShot: penaltyShot, players: people(team, opponent).compactMap { $0 },
            details: details)
    }

    static func penalty(_ play: Play, in snapshot: GameSnapshot, score: GameEvent.Score) -> GameEvent {
        let details = play.details
        var info: [String: String] = [:]
        if let key = details?.descKey { info["infraction"] = Infraction.words(key) }
        if let minutes = details?.duration { info["minutes"] = String(minutes) }
        if let type = details?.typeCode { info["type"] = type }
        return event(.penalty, play, in: snapshot, score: score, penaltyShot: details?.typeCode == "PS", details: info) {
            team, opponent in
            [
                player(details?.committedByPlayerId, role: "penalty", team: team, in: snapshot),
                player(details?.servedByPlayerId, role: "served_by", team: team, in: snapshot),
                player(details?.drawnByPlayerId, role: "drawn_by", team: opponent, in: snapshot),
            ]
        }
    }

    /// A penalty shot that did not score: its shooter, the goalie and whether it was saved or
    /// missed. (One that scores is its goal, marked `penaltyShot`.)
    static func penaltyShot(_ play: Play, in snapshot: GameSnapshot, score: GameEvent.Score) -> GameEvent {
        let details = play.details
        var info = ["result": play.typeDescKey == .shotOnGoal ? "stopped" : "missed"]
        if play.typeDescKey != .shotOnGoal, let reason = details?.reason {
            info["reason"] = reason.split(separator: "-").joined(separator: " ")
        }
        return event(.penaltyShotMissed, play, in: snapshot, score: score, penaltyShot: true, details: info) { team, opponent in
            [
                player(details?.shootingPlayerId, role: "shooter", team: team, in: snapshot),
                player(details?.goalieInNetId, role: "goalie", team: opponent, in: snapshot),
            ]
        }
    }

    static func final(_ snapshot: GameSnapshot) -> GameEvent {
        let endedIn = (snapshot.outcome?.lastPeriodType ?? snapshot.period?.periodType)?.rawValue ?? "REG"
        let away = snapshot.away
        let home = snapshot.home
        let winner = away.score == home.score ? nil : (away.score > home.score ? away.abbrev : home.abbrev)
        var details = ["ended_in": endedIn]
        if let winner { details["winner"] = winner }
        var event = GameEvent(
            kind: .final, key: nil, gameId: snapshot.gameId, away: away.abbrev, home: home.abbrev, team: winner,
            period: snapshot.period?.number, periodType: snapshot.period?.periodType?.rawValue,
            score: GameEvent.Score(away: away.score, home: home.score), details: details)
        if let awayShots = away.shots, let homeShots = home.shots { event.shots = GameEvent.Score(away: awayShots, home: homeShots) }
        return event
    }
}
