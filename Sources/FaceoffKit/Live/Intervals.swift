import Foundation

/// A stretch of plays: a man advantage or a pulled goalie, with the events that open and
/// close it. Keys are the eventId of the play where it began.
struct GameInterval {
    var startIndex: Int
    var startEvent: GameEvent
    var end: (index: Int, event: GameEvent)?
}

/// Man advantages from the situation codes, counting skaters without an extra attacker.
enum PowerPlays {
    /// `scores`: the score after each play (`GameSnapshot.scoresAfterPlays`).
    static func intervals(_ plays: [Play], scores: [GameEvent.Score], snapshot: GameSnapshot) -> [GameInterval] {
        var result: [GameInterval] = []
        var current: (team: String, interval: GameInterval)?

        for (index, play) in plays.enumerated() {
            func event(_ kind: GameEvent.Kind, key: String, team: String) -> GameEvent {
                GameEvent(
                    kind: kind, key: key, gameId: snapshot.gameId, away: snapshot.away.abbrev, home: snapshot.home.abbrev,
                    team: team, period: play.periodDescriptor?.number, periodType: play.periodDescriptor?.periodType?.rawValue,
                    clock: play.timeInPeriod, score: scores[index])
            }
            // A goal's or a penalty's code is the moment before it: the next play says what followed.
            if play.typeDescKey == .penalty { continue }
            guard let code = Strength.meaningfulCode(play) else { continue }
            let advantage: String? =
                code.awayPowerPlay ? snapshot.away.abbrev : code.homePowerPlay ? snapshot.home.abbrev : nil
            if let open = current, open.team != advantage {
                var closed = open.interval
                let reason = endReason(plays, from: open.interval.startIndex, to: index, team: open.team, snapshot: snapshot)
                var end = event(.powerPlayEnd, key: closed.startEvent.id.split(separator: ":").last.map(String.init) ?? "", team: open.team)
                end.strength = closed.startEvent.strength
                end.details = ["reason": reason]
                closed.end = (index, end)
                result.append(closed)
                current = nil
            }
            if current == nil, let team = advantage, let eventID = play.eventId {
                var start = event(.powerPlayStart, key: String(eventID), team: team)
                let ours = team == snapshot.home.abbrev ? code.homeBase : code.awayBase
                let theirs = team == snapshot.home.abbrev ? code.awayBase : code.homeBase
                start.strength = "\(ours)v\(theirs)"
                if let minutes = lastPenaltyMinutes(plays, before: index, against: team, snapshot: snapshot) {
                    start.details["minutes"] = String(minutes)
                }
                current = (team, GameInterval(startIndex: index, startEvent: start, end: nil))
            }
        }
        if let open = current { result.append(open.interval) }
        return result
    }

    /// What ended a power play, judged at the play where it ended: the team's goal, its own
    /// penalty, or (anything else) time running out.
    static func endReason(_ plays: [Play], from start: Int, to end: Int, team: String, snapshot: GameSnapshot) -> String {
        for play in plays[start..<end].reversed() {
            switch play.typeDescKey {
            case .faceoff?, .stoppage?, .periodStart?, .periodEnd?:
                continue
            case .goal? where snapshot.team(of: play) == team:
                return "goal"
            case .penalty? where snapshot.team(of: play) == team:
                return "offsetting"
            default:
                return "expired"
            }
        }
        return "expired"
    }

    /// The length of the penalty that gave `team` its advantage, when the advantage starts at
    /// that penalty's whistle (after a 4-on-4 or a second penalty the time left is unknown).
    static func lastPenaltyMinutes(_ plays: [Play], before index: Int, against team: String, snapshot: GameSnapshot) -> Int? {
        let start = plays[index]
        for play in plays[..<index].reversed() {
            guard play.periodDescriptor?.number == start.periodDescriptor?.number, play.timeInPeriod == start.timeInPeriod else { break }
            guard play.typeDescKey == .penalty, snapshot.team(of: play) != team else { continue }
            // Misconducts and game misconducts don't shorten the team on the ice.
            if let type = play.details?.typeCode, ["MIS", "GAM", "MAT", "PS"].contains(type) { continue }
            return play.details?.duration
        }
        return nil
    }
}

/// Goalies pulled for an extra attacker. A goalie who comes off during a delayed penalty to
/// the other team is not an empty net worth an alert: the play stops as soon as his team
/// touches the puck. Such a pull shows up after a delayed-penalty play, or first on the
/// penalty play itself, and is over by the next faceoff; a pull still on at that faceoff
/// is a real one from there.
enum GoaliePulls {
    /// `scores`: the score after each play (`GameSnapshot.scoresAfterPlays`).
    static func intervals(_ plays: [Play], scores: [GameEvent.Score], snapshot: GameSnapshot) -> [GameInterval] {
        var result: [GameInterval] = []
        var open: [String: (interval: GameInterval, delayed: Bool)] = [:]
        // Teams whose goalie may come off because the other team will be penalised.
        var delayedFor: Set<String> = []

        func opponent(_ team: String) -> String { team == snapshot.home.abbrev ? snapshot.away.abbrev : snapshot.home.abbrev }

        func pulled(_ team: String, at play: Play, index: Int, code: SituationCode) -> GameInterval? {
            guard let eventID = play.eventId else { return nil }
            var start = GameEvent(
                kind: .goaliePulled, key: String(eventID), gameId: snapshot.gameId, away: snapshot.away.abbrev,
                home: snapshot.home.abbrev, team: team, period: play.periodDescriptor?.number,
                periodType: play.periodDescriptor?.periodType?.rawValue, clock: play.timeInPeriod, score: scores[index])
            start.strength = code.strength
            return GameInterval(startIndex: index, startEvent: start, end: nil)
        }

        for (index, play) in plays.enumerated() {
            let owner = snapshot.team(of: play)
            if play.typeDescKey == .delayedPenalty || play.typeDescKey == .penalty, let owner {
                delayedFor.insert(opponent(owner))
            }
            guard let code = Strength.meaningfulCode(play) else { continue }
            for (team, inNet) in [(snapshot.away.abbrev, code.awayGoalieIn), (snapshot.home.abbrev, code.homeGoalieIn)] {
                if !inNet, open[team] == nil, let interval = pulled(team, at: play, index: index, code: code) {
                    open[team] = (interval, delayedFor.contains(team))
                } else if !inNet, let (_, delayed) = open[team], delayed, play.typeDescKey == .faceoff {
                    // Still off at the faceoff after the whistle: a real pull, starting now.
                    open[team] = pulled(team, at: play, index: index, code: code).map { ($0, false) }
                } else if inNet, let (interval, delayed) = open[team] {
                    open[team] = nil
                    guard !delayed else { continue }
                    var closed = interval
                    var back = interval.startEvent
                    back.kind = .goalieReturned
                    back.id = back.id.replacingOccurrences(of: ":goalie_pulled:", with: ":goalie_returned:")
                    back.period = play.periodDescriptor?.number
                    back.periodType = play.periodDescriptor?.periodType?.rawValue
                    back.clock = play.timeInPeriod
                    back.score = scores[index]
                    back.strength = nil
                    closed.end = (index, back)
                    result.append(closed)
                }
            }
            // A delayed penalty ends with the whistle: the penalty, then the faceoff.
            if play.typeDescKey == .faceoff { delayedFor.removeAll() }
        }
        for (_, entry) in open where !entry.delayed { result.append(entry.interval) }
        return result.sorted { $0.startIndex < $1.startIndex }
    }
}
