import FaceoffNHL
import Foundation

/// An event and where it goes among the plays' own: before the events of play `index`, or
/// after them.
struct PlacedEvent {
    var index: Int
    var afterPlay: Bool
    var event: GameEvent
}

/// The plays recorded in the same second of the same period as play `index`, before and
/// after it, itself included: a stoppage's plays (the whistle, its calls, the faceoff).
func playsInSameSecond(_ plays: [Play], _ index: Int) -> ArraySlice<Play> {
    let play = plays[index]
    func same(_ other: Play) -> Bool {
        other.periodDescriptor?.number == play.periodDescriptor?.number && other.timeInPeriod == play.timeInPeriod
    }
    let first = plays[..<index].lastIndex { !same($0) }.map { $0 + 1 } ?? 0
    let end = plays[index...].firstIndex { !same($0) } ?? plays.endIndex
    return plays[first..<end]
}

/// Man advantages, read from the penalties (`StrengthTimeline`): one `power_play_start` per
/// power play, a `power_play_change` whenever its shape changes (a second penalty, one of two
/// running out, a goal ending one of two minors, overtime's three on three), and one
/// `power_play_end` at the moment it ends. Keys are the eventId of the play at which it first
/// shows (the faceoff after the penalty, or the first play after a penalty ran out).
enum PowerPlays {
    /// `scores`: the score after each play (`GameSnapshot.scoresAfterPlays`).
    package static func events(_ snapshot: GameSnapshot, scores: [GameEvent.Score]) -> [PlacedEvent] {
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
                    place(
                        event(
                            .powerPlayChange, key: "\(current.key)-\(current.changes + 1)", team: current.team, strength: change.to.text,
                            details: ["from": change.from.text, "reason": change.cause.rawValue]))
                    continue
                }
                let reason =
                    switch change.cause {
                    case .goal: "goal"
                    // Both teams called at that stoppage: offsetting; only the team on the power
                    // play (a later penalty evening it up): penalty.
                    case .penalty:
                        penalisedAtStoppage(plays, change.source ?? index, snapshot: snapshot).count > 1 ? "offsetting" : "penalty"
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
            // Also for one that starts as a penalty runs out (4 on 4 becoming 5 on 4) or goes
            // on from the period before: the penalty clock, not a fresh 2:00.
            if let left = change.advantageLeft, left > 0 { details["time_left"] = GameClockTime.text(left) }
            place(event(.powerPlayStart, key: key, team: team, strength: change.to.text, details: details))
            open = (team, key, 0)
        }
        return placed
    }

    /// The teams penalised at the stoppage of play `index` (the calls recorded in its second).
    static func penalisedAtStoppage(_ plays: [Play], _ index: Int, snapshot: GameSnapshot) -> Set<String> {
        Set(playsInSameSecond(plays, index).filter { $0.typeDescKey == .penalty }.compactMap { snapshot.team(of: $0) })
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

/// Goalies pulled for an extra attacker.
///
/// A goalie is also off the ice during a delayed call against the other team: he comes back
/// as soon as his team touches the puck, the play stops, and the penalty is recorded at the
/// whistle. That is no empty net worth an alert, and real feeds show it in several ways: a
/// delayed-penalty play before the goalie leaves, after it, or none at all; the penalty
/// play itself with the goalie still off; the faceoff after it with the old code. So a
/// goalie-out (plays whose situation code has the goalie off) is held until it is confirmed:
///
/// 1. at once, when the goalie is off at a faceoff with no call in that second (a delayed
///    call can't be pending at a faceoff); a period's opening faceoff, which can repeat the
///    last code of the period before, is passed over;
/// 2. when a play shows him still off `confirmAfter` game seconds after the goalie-out began,
///    with no delayed-penalty play since the last faceoff and no call against the other team
///    in any second of it;
/// 3. when it ends (the goalie back, or the period over) having lasted that long, without
///    such a call, and not in the second of the other team's penalty: then the pull and the
///    return are announced together (the play-by-play showed it on one play only).
///
/// A call (a penalty or a delayed-penalty play) against the other team explains the
/// goalie-out: it is never confirmed, but at the faceoff after the whistle it starts over
/// (a team on the power play may keep the net empty from there). Which team a
/// delayed-penalty play names varies in real feeds, so any delayed-penalty play counts. The
/// rule reads the plays alone, so however plays fall into polls the same pulls come out.
enum GoaliePulls {
    /// Game seconds a goalie-out must last (with no call) to be a pull; delayed-call outs
    /// in the recordings end within 5.
    static let confirmAfter = 7

    private struct Out {
        var start: Int
        var startTime: Int?
        var explained: Bool
        var confirmed = false
    }

    /// `scores`: the score after each play (`GameSnapshot.scoresAfterPlays`).
    package static func events(_ snapshot: GameSnapshot, scores: [GameEvent.Score]) -> [PlacedEvent] {
        let plays = snapshot.plays
        var placed: [PlacedEvent] = []
        var open: [String: Out] = [:]
        // A delayed-penalty play since the last faceoff: a goalie-out now is the delayed kind.
        var delayedCall = false
        var period: Int?
        // Whether a play of this period has said anything yet: its first faceoff opens it.
        var periodUnderway = false

        func opponent(_ team: String) -> String { team == snapshot.home.abbrev ? snapshot.away.abbrev : snapshot.home.abbrev }
        func time(_ index: Int) -> Int? {
            GameClockTime.seconds(period: plays[index].periodDescriptor?.number, clock: plays[index].timeInPeriod)
        }
        func anyCall(at index: Int) -> Bool {
            playsInSameSecond(plays, index).contains { $0.typeDescKey == .penalty || $0.typeDescKey == .delayedPenalty }
        }
        /// A call that gives `team` the puck: the other team's penalty, or a delayed-penalty play.
        func callFor(_ team: String, at index: Int) -> Bool {
            playsInSameSecond(plays, index).contains {
                $0.typeDescKey == .delayedPenalty || ($0.typeDescKey == .penalty && snapshot.team(of: $0) == opponent(team))
            }
        }
        func pulled(_ team: String, _ out: Out) -> PlacedEvent? {
            let play = plays[out.start]
            guard let eventID = play.eventId else { return nil }
            var start = GameEvent(
                kind: .goaliePulled, key: String(eventID), gameId: snapshot.gameId, away: snapshot.away.abbrev,
                home: snapshot.home.abbrev, team: team, period: play.periodDescriptor?.number,
                periodType: play.periodDescriptor?.periodType?.rawValue, clock: play.timeInPeriod, score: scores[out.start])
            start.strength = Strength.meaningfulCode(play)?.strength
            return PlacedEvent(index: out.start, afterPlay: true, event: start)
        }
        func returned(_ pull: PlacedEvent, at index: Int, afterPlay: Bool = false) -> PlacedEvent {
            var back = pull.event
            let play = plays[index]
            back.kind = .goalieReturned
            back.id = back.id.replacingOccurrences(of: ":goalie_pulled:", with: ":goalie_returned:")
            back.period = play.periodDescriptor?.number
            back.periodType = play.periodDescriptor?.periodType?.rawValue
            back.clock = play.timeInPeriod
            back.score = scores[index]
            back.strength = nil
            return PlacedEvent(index: index, afterPlay: afterPlay, event: back)
        }
        /// Rule 3: an unconfirmed goalie-out ending at play `index` (or with its period).
        func lasted(_ out: Out, team: String, endingAt index: Int) -> Bool {
            guard !out.confirmed, !out.explained, !callFor(team, at: index), let start = out.startTime, let end = time(index) else {
                return false
            }
            return end - start >= confirmAfter
        }

        for (index, play) in plays.enumerated() {
            if play.periodDescriptor?.number != period {
                period = play.periodDescriptor?.number
                periodUnderway = false
            }
            if play.typeDescKey == .delayedPenalty { delayedCall = true }
            if play.typeDescKey == .periodEnd {
                // The goalie comes back for the next period: a pull still unconfirmed is
                // decided now, and the next period's opening code can't extend it.
                for (team, out) in open where !out.confirmed {
                    if lasted(out, team: team, endingAt: index), let pull = pulled(team, out) {
                        placed.append(pull)
                        placed.append(returned(pull, at: index, afterPlay: true))
                    }
                    open[team] = nil
                }
            }
            guard let code = Strength.meaningfulCode(play) else { continue }
            let faceoff = play.typeDescKey == .faceoff
            // A period's opening faceoff can carry the last code of the period before: it
            // neither starts, ends nor extends a goalie-out.
            let opening = faceoff && !periodUnderway
            for (team, inNet) in opening ? [] : [(snapshot.away.abbrev, code.awayGoalieIn), (snapshot.home.abbrev, code.homeGoalieIn)] {
                if inNet {
                    guard let out = open.removeValue(forKey: team) else { continue }
                    if out.confirmed || lasted(out, team: team, endingAt: index), let pull = pulled(team, out) {
                        if !out.confirmed { placed.append(pull) }
                        placed.append(returned(pull, at: index))
                    }
                    continue
                }
                var out = open[team] ?? Out(start: index, startTime: time(index), explained: delayedCall)
                if !out.confirmed {
                    if faceoff {
                        let whistle = anyCall(at: index)
                        if out.explained || whistle {
                            // The whistle of a call: whatever comes next starts here.
                            out = Out(start: index, startTime: time(index), explained: false)
                        }
                        out.confirmed = !whistle
                    } else if callFor(team, at: index) {
                        out.explained = true
                    } else if !out.explained, let start = out.startTime, let now = time(index), now - start >= confirmAfter {
                        out.confirmed = true
                    }
                    if out.confirmed, let pull = pulled(team, out) { placed.append(pull) }
                }
                open[team] = out
            }
            // A delayed call ends with the whistle: the penalty, then the faceoff.
            if faceoff { delayedCall = false }
            periodUnderway = true
        }
        return placed
    }
}
