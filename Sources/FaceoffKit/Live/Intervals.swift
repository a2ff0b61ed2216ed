import Foundation

/// An event and where it goes among the plays' own: before the events of play `index`, or
/// after them.
struct PlacedEvent {
    var index: Int
    var afterPlay: Bool
    var event: GameEvent
}

/// Man advantages, read from the penalties (`StrengthTimeline`): one `power_play_start` per
/// power play, a `power_play_change` whenever its shape changes (a second penalty, one of two
/// running out, a goal ending one of two minors, overtime's three on three), and one
/// `power_play_end` at the moment it ends. Keys are the eventId of the play at which it first
/// shows (the faceoff after the penalty, or the first play after a penalty ran out).
enum PowerPlays {
    /// `scores`: the score after each play (`GameSnapshot.scoresAfterPlays`).
    static func events(_ snapshot: GameSnapshot, scores: [GameEvent.Score]) -> [PlacedEvent] {
        let plays = snapshot.plays
        var placed: [PlacedEvent] = []
        var open: (team: String, key: String, changes: Int)?
        func abbrev(_ side: Manpower.Side) -> String { side == .away ? snapshot.away.abbrev : snapshot.home.abbrev }

        for change in StrengthTimeline(snapshot).changes {
            let index = change.index
            func event(_ kind: GameEvent.Kind, key: String, team: String, strength: String, details: [String: String]) -> GameEvent {
                var period = plays[index].periodDescriptor
                var clock = plays[index].timeInPeriod
                if let source = change.source {
                    period = plays[source].periodDescriptor
                    clock = plays[source].timeInPeriod
                } else {
                    let at = GameClockTime.clock(change.time)
                    if period?.number != at.period {
                        period = PeriodDescriptor(number: at.period, periodType: at.period > 3 ? .ot : .reg, maxRegulationPeriods: 3)
                    }
                    clock = at.clock
                }
                let score = change.afterPlay || index == 0 ? scores[index] : scores[index - 1]
                return GameEvent(
                    kind: kind, key: key, gameId: snapshot.gameId, away: snapshot.away.abbrev, home: snapshot.home.abbrev,
                    team: team, period: period?.number, periodType: period?.periodType?.rawValue, clock: clock, score: score,
                    strength: strength, details: details)
            }
            func place(_ event: GameEvent) { placed.append(PlacedEvent(index: index, afterPlay: change.afterPlay, event: event)) }

            let team = change.to.advantage.map(abbrev)
            if let current = open {
                if team == current.team {
                    open?.changes += 1
                    place(event(.powerPlayChange, key: "\(current.key)-\(current.changes + 1)", team: current.team, strength: change.to.text,
                                details: ["from": change.from.text, "reason": change.cause.rawValue]))
                    continue
                }
                let reason = switch change.cause {
                case .goal: "goal"
                case .penalty: "offsetting"
                case .expired, .overtime: "expired"
                }
                place(event(.powerPlayEnd, key: current.key, team: current.team, strength: change.from.text, details: ["reason": reason]))
                open = nil
            }
            guard let team else { continue }
            let key = plays[index].eventId.map(String.init) ?? "t\(change.time)"
            var details: [String: String] = [:]
            if change.cause == .penalty, let minutes = lastPenaltyMinutes(plays, before: index, against: team, snapshot: snapshot) {
                details["minutes"] = String(minutes)
            }
            place(event(.powerPlayStart, key: key, team: team, strength: change.to.text, details: details))
            open = (team, key, 0)
        }
        return placed
    }

    /// The length of the penalty that gave `team` its advantage, when the advantage starts at
    /// that penalty's whistle (after a 4-on-4 or a second penalty the time left is unknown).
    static func lastPenaltyMinutes(_ plays: [Play], before index: Int, against team: String, snapshot: GameSnapshot) -> Int? {
        let start = plays[index]
        for play in plays[..<index].reversed() {
            guard play.periodDescriptor?.number == start.periodDescriptor?.number, play.timeInPeriod == start.timeInPeriod else { break }
            guard play.typeDescKey == .penalty, snapshot.team(of: play) != team else { continue }
            // Misconducts and game misconducts don't shorten the team on the ice.
            if let type = play.details?.typeCode, ["MIS", "GAM", "PS"].contains(type) { continue }
            return play.details?.duration
        }
        return nil
    }
}

/// Goalies pulled for an extra attacker. A goalie who comes off during a delayed penalty to
/// the other team is not an empty net worth an alert: the play stops as soon as his team
/// touches the puck. Such a pull shows up after a delayed-penalty play, on the penalty play
/// itself, or on a play in the same second as the call, and is over by the next faceoff; a
/// pull still on at that faceoff is a real one from there. A period's opening faceoff proves
/// nothing: the feed can repeat the last code of the period before on it.
enum GoaliePulls {
    /// `scores`: the score after each play (`GameSnapshot.scoresAfterPlays`).
    static func events(_ snapshot: GameSnapshot, scores: [GameEvent.Score]) -> [PlacedEvent] {
        let plays = snapshot.plays
        var placed: [PlacedEvent] = []
        var open: [String: (start: PlacedEvent, delayed: Bool)] = [:]
        // Teams whose goalie may come off because the other team will be penalised.
        var delayedFor: Set<String> = []
        var period: Int?
        // Whether a play of this period has said anything yet: its first faceoff opens it.
        var periodUnderway = false

        func opponent(_ team: String) -> String { team == snapshot.home.abbrev ? snapshot.away.abbrev : snapshot.home.abbrev }

        func pulled(_ team: String, at index: Int, code: SituationCode) -> PlacedEvent? {
            let play = plays[index]
            guard let eventID = play.eventId else { return nil }
            var start = GameEvent(
                kind: .goaliePulled, key: String(eventID), gameId: snapshot.gameId, away: snapshot.away.abbrev,
                home: snapshot.home.abbrev, team: team, period: play.periodDescriptor?.number,
                periodType: play.periodDescriptor?.periodType?.rawValue, clock: play.timeInPeriod, score: scores[index])
            start.strength = code.strength
            return PlacedEvent(index: index, afterPlay: true, event: start)
        }

        /// A call against the other team recorded in the same second, after the play at `index`.
        func callLater(in index: Int, givingTo team: String) -> Bool {
            let play = plays[index]
            return plays[(index + 1)...].prefix { $0.periodDescriptor?.number == play.periodDescriptor?.number && $0.timeInPeriod == play.timeInPeriod }
                .contains { ($0.typeDescKey == .delayedPenalty || $0.typeDescKey == .penalty) && snapshot.team(of: $0) == opponent(team) }
        }

        for (index, play) in plays.enumerated() {
            if play.periodDescriptor?.number != period {
                period = play.periodDescriptor?.number
                periodUnderway = false
            }
            if play.typeDescKey == .delayedPenalty || play.typeDescKey == .penalty, let owner = snapshot.team(of: play) {
                delayedFor.insert(opponent(owner))
            }
            guard let code = Strength.meaningfulCode(play) else { continue }
            let faceoff = play.typeDescKey == .faceoff
            for (team, inNet) in [(snapshot.away.abbrev, code.awayGoalieIn), (snapshot.home.abbrev, code.homeGoalieIn)] {
                if !inNet, open[team] == nil, let start = pulled(team, at: index, code: code) {
                    open[team] = (start, delayedFor.contains(team) || callLater(in: index, givingTo: team))
                } else if !inNet, let entry = open[team], entry.delayed, faceoff, periodUnderway {
                    // Still off at the faceoff after the whistle: a real pull, starting now.
                    open[team] = pulled(team, at: index, code: code).map { ($0, false) }
                } else if inNet, let entry = open[team] {
                    open[team] = nil
                    guard !entry.delayed else { continue }
                    var back = entry.start.event
                    back.kind = .goalieReturned
                    back.id = back.id.replacingOccurrences(of: ":goalie_pulled:", with: ":goalie_returned:")
                    back.period = play.periodDescriptor?.number
                    back.periodType = play.periodDescriptor?.periodType?.rawValue
                    back.clock = play.timeInPeriod
                    back.score = scores[index]
                    back.strength = nil
                    placed.append(entry.start)
                    placed.append(PlacedEvent(index: index, afterPlay: false, event: back))
                }
            }
            // A delayed penalty ends with the whistle: the penalty, then the faceoff.
            if faceoff { delayedFor.removeAll() }
            periodUnderway = true
        }
        for entry in open.values where !entry.delayed { placed.append(entry.start) }
        return placed
    }
}
