import FaceoffNHL
import Foundation

/// Turns snapshots into events. Pure: no I/O, no clock.
///
/// Each snapshot's events are derived from all of its plays (walked in `sortOrder`), and the
/// detector emits those it has not emitted before. So goals, penalties and pulls between two
/// polls are never lost, and repeated, skipped or late polls can't change what is reported.
/// Its state is Codable so a watcher can keep it across restarts.
public struct EventDetector: Sendable {
    public struct State: Codable, Sendable, Equatable {
        /// Ids of events already emitted.
        public var emitted: Set<String> = []
        /// Goals as last reported, by play eventId: scorer and assists, for corrections.
        public var goals: [Int: GoalRecord] = [:]
        /// Reported goals missing from the feed, with how many polls in a row they were missing.
        public var missing: [Int: Int] = [:]
        /// Goals announced overturned, by eventId: one that comes back is reinstated.
        public var overturned: [Int: GoalRecord] = [:]
        /// The highest sortOrder seen: an older snapshot arriving late is ignored.
        public var maxSortOrder = -1
        /// How many plays the last snapshot had: losing more than one at once is a glitch.
        public var playCount = 0
        public var lastScore: GameEvent.Score?

        public init() {}
    }

    public struct GoalRecord: Codable, Sendable, Equatable {
        public var team: String
        public var scorer: Int?
        public var assists: [Int]
        public var revision: Int
        public var period: Int?
        public var periodType: String?
        public var clock: String?
    }

    /// Why a snapshot produced nothing, for the watcher's log.
    public enum Skipped: Sendable, Equatable {
        case stale(maxSortOrder: Int)
        case playsVanished(count: Int)
        case scoreWentBackwards
    }

    public private(set) var state: State

    public init(state: State = State()) { self.state = state }

    /// Every event this snapshot shows that hasn't been emitted yet, in game order.
    public mutating func process(_ snapshot: GameSnapshot) -> (events: [GameEvent], skipped: Skipped?) {
        let maxSort = snapshot.plays.compactMap(\.sortOrder).max() ?? -1
        // A real correction removes one goal play; many plays gone at once is the feed glitching.
        let present = Set(snapshot.plays.compactMap(\.eventId))
        let vanishedGoals = state.goals.keys.filter { !present.contains($0) }
        // Older than what was seen, unless all it lacks is one goal (the newest play, now
        // removed) and its game clock is at or past that goal: that poll still counts towards
        // confirming the removal. A cached copy from before the goal has an earlier clock.
        let stale = maxSort < state.maxSortOrder
        if stale,
            vanishedGoals.count != 1 || snapshot.plays.count != state.playCount - 1
                || !Self.clock(of: snapshot, isPast: state.goals[vanishedGoals[0]])
        {
            return ([], .stale(maxSortOrder: maxSort))
        }
        let score = GameEvent.Score(away: snapshot.away.score, home: snapshot.home.score)
        if vanishedGoals.count > 1 { return ([], .playsVanished(count: vanishedGoals.count)) }
        // A correction removes one goal play; a list shorter by more than that is a glitch.
        if snapshot.plays.count < state.playCount - 1 {
            return ([], .playsVanished(count: state.playCount - snapshot.plays.count))
        }
        if let last = state.lastScore, score.away + score.home < last.away + last.home, vanishedGoals.isEmpty {
            return ([], .scoreWentBackwards)
        }

        var events: [GameEvent] = []
        if !stale {
            for event in Self.derive(snapshot) where !state.emitted.contains(event.id) {
                events.append(reinstatedUnderANewId(event, score: score) ?? event)
            }
        }
        events += corrections(snapshot, present: present, score: score, stale: stale)
        for event in events { state.emitted.insert(event.id) }
        for event in events where event.kind == .goal {
            if let key = event.id.split(separator: ":").last.flatMap({ Int($0) }) {
                state.goals[key] = GoalRecord(
                    team: event.team ?? "", scorer: event.players.first { $0.role == "scorer" }?.id,
                    assists: event.players.filter { $0.role == "assist" }.map(\.id), revision: 0, period: event.period,
                    periodType: event.periodType, clock: event.clock)
            }
        }
        // A feed short of its newest play (a goal being taken away) is measured against the
        // full one until the goal is confirmed gone or back.
        if !stale {
            state.maxSortOrder = max(state.maxSortOrder, maxSort)
            state.playCount = snapshot.plays.count
            state.lastScore = score
        }
        return (events, nil)
    }

    /// Marks everything the snapshot shows as already known and returns one summary instead:
    /// for a game first seen in progress, where a burst of stale alerts would be wrong.
    public mutating func join(_ snapshot: GameSnapshot) -> GameEvent {
        _ = process(snapshot)
        let joined = summary(snapshot, key: nil, details: [:])
        state.emitted.insert(joined.id)
        return joined
    }

    /// One summary of what a gap in watching (a suspended laptop, a long outage) missed: the
    /// events in `missed` were found but are too old to alert on one by one. Its id is new for
    /// every gap (the newest play's sortOrder), so a second gap gets a summary of its own.
    public mutating func caughtUp(_ snapshot: GameSnapshot, missed: [GameEvent]) -> GameEvent {
        let goals = missed.filter { $0.kind == .goal }.count
        let penalties = missed.filter { $0.kind == .penalty }.count
        let others = missed.count - goals - penalties
        let missedText = [
            goals > 0 ? "\(goals) goal\(goals == 1 ? "" : "s")" : nil,
            penalties > 0 ? "\(penalties) penalt\(penalties == 1 ? "y" : "ies")" : nil,
            others > 0 ? "\(others) other alert\(others == 1 ? "" : "s")" : nil,
        ].compactMap { $0 }.joined(separator: ", ")
        let event = summary(snapshot, key: "caught-up-\(state.maxSortOrder)", details: ["caught_up": "true", "missed": missedText])
        state.emitted.insert(event.id)
        return event
    }

    private func summary(_ snapshot: GameSnapshot, key: String?, details extra: [String: String]) -> GameEvent {
        let period = snapshot.period
        var details = ["scorers": snapshot.scorersSummary()].merging(extra) { $1 }
        if let final = snapshot.finalLabel {
            // A game over has no clock left: "Final/OT", not "3rd 00:00 left".
            details["final_label"] = final
        } else if let clock = snapshot.clock?.timeRemaining {
            details["time_remaining"] = clock
        }
        if snapshot.clock?.inIntermission == true { details["intermission"] = "true" }
        return GameEvent(
            kind: .gameJoined, key: key, gameId: snapshot.gameId, away: snapshot.away.abbrev, home: snapshot.home.abbrev,
            period: period?.number, periodType: period?.periodType?.rawValue,
            score: GameEvent.Score(away: snapshot.away.score, home: snapshot.home.score),
            shots: shots(snapshot), details: details)
    }

    private func shots(_ snapshot: GameSnapshot) -> GameEvent.Score? {
        guard let away = snapshot.away.shots, let home = snapshot.home.shots else { return nil }
        return GameEvent.Score(away: away, home: home)
    }

    /// Whether the feed's game clock reads at or after the goal's time. Unknown reads as no.
    static func clock(of snapshot: GameSnapshot, isPast goal: GoalRecord?) -> Bool {
        guard let goal, let goalTime = GameClockTime.seconds(period: goal.period, clock: goal.clock),
            let period = snapshot.period?.number, let left = snapshot.clock?.secondsRemaining
        else { return false }
        // A regular-season overtime lasts 5 minutes; every other period 20.
        let length = snapshot.period?.periodType == .ot && snapshot.gameType?.isPlayoffs != true ? 300 : 1200
        return (period - 1) * 1200 + max(0, length - left) >= goalTime
    }

    /// How many polls in a row must miss a goal, with the score down, before it is announced
    /// overturned. Every poll counts, a 304 (the same feed again) too, so at a 2-second poll
    /// a removal is confirmed within seconds and a one-poll flicker never is.
    static let overturnPolls = 2

    /// A goal the feed put back under a new eventId (same team, period and clock as one
    /// announced overturned): a reinstatement of the old one, not a new goal.
    private mutating func reinstatedUnderANewId(_ event: GameEvent, score: GameEvent.Score) -> GameEvent? {
        guard event.kind == .goal,
            let (oldID, record) = state.overturned.first(where: {
                $0.value.team == event.team && $0.value.period == event.period && $0.value.clock == event.clock
            }),
            let newID = event.id.split(separator: ":").last.flatMap({ Int($0) })
        else { return nil }
        state.emitted.insert(event.id)
        state.overturned[oldID] = nil
        state.goals[newID] = record
        var reinstated = event
        reinstated.kind = .goalReinstated
        reinstated.id = "\(event.gameId):goal_reinstated:\(oldID)"
        reinstated.score = score
        return reinstated
    }

    /// Goals removed from the feed (missing on `overturnPolls` polls in a row, with the score
    /// down), goals that came back after that, and goals whose scorer or assists changed.
    private mutating func corrections(_ snapshot: GameSnapshot, present: Set<Int>, score: GameEvent.Score, stale: Bool) -> [GameEvent] {
        var events: [GameEvent] = []
        for play in snapshot.plays where play.typeDescKey == .goal {
            guard let eventID = play.eventId, let record = state.overturned.removeValue(forKey: eventID) else { continue }
            state.goals[eventID] = record
            var back = Self.goal(play, in: snapshot)
            back.kind = .goalReinstated
            back.id = "\(snapshot.gameId):goal_reinstated:\(eventID)"
            back.score = score
            events.append(back)
        }
        for (eventID, record) in state.goals.sorted(by: { $0.key < $1.key }) {
            if present.contains(eventID) {
                state.missing[eventID] = nil
                continue
            }
            let polls = state.missing[eventID, default: 0] + 1
            state.missing[eventID] = polls
            let teamScore = snapshot.isHome(record.team) ? score.home : score.away
            let reported = state.goals.values.filter { $0.team == record.team }.count
            guard polls >= Self.overturnPolls, teamScore < reported else { continue }
            events.append(
                GameEvent(
                    kind: .goalOverturned, key: String(eventID), gameId: snapshot.gameId, away: snapshot.away.abbrev,
                    home: snapshot.home.abbrev, team: record.team, period: record.period ?? snapshot.period?.number,
                    periodType: record.periodType ?? snapshot.period?.periodType?.rawValue, clock: record.clock, score: score,
                    players: record.scorer.map {
                        [GameEvent.Player(role: "scorer", id: $0, name: snapshot.names[$0] ?? "#\($0)", team: record.team)]
                    } ?? []))
            state.goals[eventID] = nil
            state.missing[eventID] = nil
            state.overturned[eventID] = record
        }
        // An older copy of the feed (see `process`) says nothing about scorers.
        for play in snapshot.plays where play.typeDescKey == .goal && !stale {
            guard let eventID = play.eventId, var record = state.goals[eventID], let details = play.details else { continue }
            let assists = [details.assist1PlayerId, details.assist2PlayerId].compactMap { $0 }
            guard details.scoringPlayerId != record.scorer || assists != record.assists else { continue }
            record.revision += 1
            record.scorer = details.scoringPlayerId
            record.assists = assists
            state.goals[eventID] = record
            var change = Self.goal(play, in: snapshot)
            change.kind = .scoringChange
            change.id = "\(snapshot.gameId):scoring_change:\(eventID)-\(record.revision)"
            events.append(change)
        }
        return events
    }

    // MARK: Deriving events from a whole snapshot

    /// All the events a snapshot shows, in game order, whatever was emitted before.
    public static func derive(_ snapshot: GameSnapshot) -> [GameEvent] {
        var events: [GameEvent] = []
        var sog = GameEvent.Score(away: 0, home: 0)
        let plays = snapshot.plays
        let scores = snapshot.scoresAfterPlays()
        // Power plays and pulls go before a play's own events (they ended before it) or after
        // them (they began with it).
        var before: [Int: [GameEvent]] = [:]
        var after: [Int: [GameEvent]] = [:]
        for placed in PowerPlays.events(snapshot, scores: scores) + GoaliePulls.events(snapshot, scores: scores) {
            if placed.afterPlay {
                after[placed.index, default: []].append(placed.event)
            } else {
                before[placed.index, default: []].append(placed.event)
            }
        }

        func base(_ kind: GameEvent.Kind, _ key: String?, _ play: Play, _ index: Int) -> GameEvent {
            GameEvent(
                kind: kind, key: key, gameId: snapshot.gameId, away: snapshot.away.abbrev, home: snapshot.home.abbrev,
                period: play.periodDescriptor?.number, periodType: play.periodDescriptor?.periodType?.rawValue,
                clock: play.timeInPeriod, score: scores[index])
        }

        // Shot plays carry running shots-on-goal without the goals; the NHL's total counts both.
        var goalsFor = GameEvent.Score(away: 0, home: 0)
        var lastCode: SituationCode?
        for (index, play) in plays.enumerated() {
            defer {
                if play.typeDescKey != .goal, let code = Strength.meaningfulCode(play) { lastCode = code }
            }
            events += before[index] ?? []
            let details = play.details
            if let away = details?.awaySOG, let home = details?.homeSOG { sog = GameEvent.Score(away: away, home: home) }
            if play.typeDescKey == .goal, play.periodDescriptor?.periodType != .so {
                if snapshot.team(of: play) == snapshot.home.abbrev { goalsFor.home += 1 } else { goalsFor.away += 1 }
            }
            switch play.typeDescKey {
            case .periodStart?:
                let number = play.periodDescriptor?.number ?? 1
                if number == 1 { events.append(base(.gameStart, nil, play, index)) }
                events.append(base(.periodStart, String(number), play, index))
            case .periodEnd?:
                var end = base(.periodEnd, String(play.periodDescriptor?.number ?? 0), play, index)
                end.shots = GameEvent.Score(away: sog.away + goalsFor.away, home: sog.home + goalsFor.home)
                if index == plays.count - 1, snapshot.clock?.inIntermission == true, let left = snapshot.clock?.timeRemaining {
                    end.details["intermission"] = left
                }
                events.append(end)
            case .goal? where play.periodDescriptor?.periodType != .so:
                var goal = goal(play, in: snapshot, previous: lastCode)
                goal.score = scores[index]
                events.append(goal)
                // The clip comes some minutes after the goal, in a later poll of the same feed.
                if let link = play.details?.highlightClipSharingUrl, let url = URL(string: link), ["https", "http"].contains(url.scheme) {
                    var highlight = goal
                    highlight.kind = .goalHighlight
                    highlight.id = goal.id.replacingOccurrences(of: ":goal:", with: ":goal_highlight:")
                    highlight.details["highlight_url"] = link
                    events.append(highlight)
                }
            case .penalty?:
                events.append(penalty(play, in: snapshot, score: scores[index]))
            case .shotOnGoal?, .missedShot?, .failedShotAttempt?:
                if play.periodDescriptor?.periodType != .so, SituationCode(play.situationCode)?.isPenaltyShot == true {
                    events.append(penaltyShot(play, in: snapshot, score: scores[index]))
                }
            case .gameEnd?:
                events.append(final(snapshot))
            default:
                break
            }
            events += after[index] ?? []
        }
        // The feed can say the game is over before (or without) a game-end play.
        if snapshot.isFinal, !events.contains(where: { $0.kind == .final }) {
            events.append(final(snapshot))
        }
        return events
    }

    static func player(_ id: Int?, role: String, team: String?, total: Int? = nil, in snapshot: GameSnapshot) -> GameEvent.Player? {
        guard let id else { return nil }
        return GameEvent.Player(role: role, id: id, name: snapshot.names[id] ?? "#\(id)", team: team, seasonTotal: total)
    }

    /// `previous`: the situation before the goal, for a goal play that lacks its own code.
    static func goal(_ play: Play, in snapshot: GameSnapshot, previous: SituationCode? = nil) -> GameEvent {
        let details = play.details
        let team = snapshot.team(of: play)
        let home = snapshot.isHome(team)
        var strength = "EV"
        var emptyNet = details?.goalieInNetId == nil
        let code = SituationCode(play.situationCode) ?? (play.periodDescriptor?.periodType == .so ? nil : previous)
        let penaltyShot = code?.isPenaltyShot ?? false
        if let code, !penaltyShot {
            let ours = home ? code.homeBase : code.awayBase
            let theirs = home ? code.awayBase : code.homeBase
            strength = ours > theirs ? "PP" : ours < theirs ? "SH" : "EV"
            emptyNet = home ? code.awayNetEmpty : code.homeNetEmpty
        } else if penaltyShot {
            emptyNet = false
        }
        let players = [
            player(details?.scoringPlayerId, role: "scorer", team: team, total: details?.scoringPlayerTotal, in: snapshot),
            player(details?.assist1PlayerId, role: "assist", team: team, total: details?.assist1PlayerTotal, in: snapshot),
            player(details?.assist2PlayerId, role: "assist", team: team, total: details?.assist2PlayerTotal, in: snapshot),
        ].compactMap { $0 }
        return GameEvent(
            kind: .goal, key: play.eventId.map(String.init), gameId: snapshot.gameId, away: snapshot.away.abbrev,
            home: snapshot.home.abbrev, team: team, period: play.periodDescriptor?.number,
            periodType: play.periodDescriptor?.periodType?.rawValue, clock: play.timeInPeriod,
            score: GameEvent.Score(away: details?.awayScore ?? 0, home: details?.homeScore ?? 0), strength: strength,
            emptyNet: emptyNet, penaltyShot: penaltyShot, players: players)
    }
}
