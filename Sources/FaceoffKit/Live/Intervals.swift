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
    static func intervals(_ plays: [Play], snapshot: GameSnapshot) -> [GameInterval] {
        var result: [GameInterval] = []
        var current: (team: String, interval: GameInterval)?
        var running = GameEvent.Score(away: 0, home: 0)

        func event(_ kind: GameEvent.Kind, key: String, team: String, at play: Play) -> GameEvent {
            GameEvent(
                kind: kind, key: key, gameId: snapshot.gameId, away: snapshot.away.abbrev, home: snapshot.home.abbrev,
                team: team, period: play.periodDescriptor?.number, periodType: play.periodDescriptor?.periodType?.rawValue,
                clock: play.timeInPeriod, score: running)
        }

        for (index, play) in plays.enumerated() {
            if play.typeDescKey == .goal, play.periodDescriptor?.periodType != .so,
                let away = play.details?.awayScore, let home = play.details?.homeScore {
                running = GameEvent.Score(away: away, home: home)
            }
            guard let code = Strength.meaningfulCode(play) else { continue }
            let advantage: String? =
                code.awayPowerPlay ? snapshot.away.abbrev : code.homePowerPlay ? snapshot.home.abbrev : nil
            if let open = current, open.team != advantage {
                var closed = open.interval
                let reason = endReason(plays, from: open.interval.startIndex, to: index, team: open.team, snapshot: snapshot)
                var end = event(.powerPlayEnd, key: closed.startEvent.id.split(separator: ":").last.map(String.init) ?? "", team: open.team, at: play)
                end.strength = closed.startEvent.strength
                end.details = ["reason": reason]
                closed.end = (index, end)
                result.append(closed)
                current = nil
            }
            if current == nil, let team = advantage, let eventID = play.eventId {
                var start = event(.powerPlayStart, key: String(eventID), team: team, at: play)
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

    /// What ended a power play: the team scored, it took a penalty itself, or time ran out.
    static func endReason(_ plays: [Play], from start: Int, to end: Int, team: String, snapshot: GameSnapshot) -> String {
        for play in plays[start..<end].reversed() {
            let owner = snapshot.team(play.details?.eventOwnerTeamId)
            if play.typeDescKey == .goal, owner == team { return "goal" }
            if play.typeDescKey == .penalty {
                return owner == team ? "offsetting" : "expired"
            }
            if play.typeDescKey == .faceoff || play.typeDescKey == .stoppage { continue }
        }
        return "expired"
    }

    /// The length of the penalty that gave `team` its advantage.
    static func lastPenaltyMinutes(_ plays: [Play], before index: Int, against team: String, snapshot: GameSnapshot) -> Int? {
        for play in plays[..<index].reversed() where play.typeDescKey == .penalty {
            let owner = snapshot.team(play.details?.eventOwnerTeamId)
            if owner != team, play.details?.typeCode != "PS" { return play.details?.duration }
        }
        return nil
    }
}

/// Goalies pulled for an extra attacker. A goalie who comes off during a delayed penalty to
/// the other team is not an empty net worth an alert: the play stops as soon as his team
/// touches the puck.
enum GoaliePulls {
    static func intervals(_ plays: [Play], snapshot: GameSnapshot) -> [GameInterval] {
        var result: [GameInterval] = []
        var open: [String: (interval: GameInterval, delayed: Bool)] = [:]
        // Teams whose goalie may come off because the other team will be penalised.
        var delayedFor: Set<String> = []
        var running = GameEvent.Score(away: 0, home: 0)

        for (index, play) in plays.enumerated() {
            let owner = snapshot.team(play.details?.eventOwnerTeamId)
            if play.typeDescKey == .goal, play.periodDescriptor?.periodType != .so,
                let away = play.details?.awayScore, let home = play.details?.homeScore {
                running = GameEvent.Score(away: away, home: home)
            }
            if play.typeDescKey == .delayedPenalty, let owner {
                delayedFor.insert(owner == snapshot.home.abbrev ? snapshot.away.abbrev : snapshot.home.abbrev)
            }
            guard let code = Strength.meaningfulCode(play) else { continue }
            for (team, inNet) in [(snapshot.away.abbrev, code.awayGoalieIn), (snapshot.home.abbrev, code.homeGoalieIn)] {
                if !inNet, open[team] == nil, let eventID = play.eventId {
                    var start = GameEvent(
                        kind: .goaliePulled, key: String(eventID), gameId: snapshot.gameId, away: snapshot.away.abbrev,
                        home: snapshot.home.abbrev, team: team, period: play.periodDescriptor?.number,
                        periodType: play.periodDescriptor?.periodType?.rawValue, clock: play.timeInPeriod, score: running)
                    start.strength = code.strength
                    open[team] = (GameInterval(startIndex: index, startEvent: start, end: nil), delayedFor.contains(team))
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
                    back.score = running
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
