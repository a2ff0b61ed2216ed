import Foundation

/// Turns NBA snapshots into events: pure (no I/O, no clock), every event derived again from
/// the whole play list at each poll, under a key of the play that made it (runs and close
/// stretches by their count: a play ESPN logs late is inserted before others), so a restart,
/// a second process or a replay finds the same events with the same ids, and each goes out
/// once.
///
/// What basketball fans ask for, beside the start, the quarters and the final: the lead
/// changing hands, a scoring run, a close finish, a player's big night, and (opt-in) every
/// basket.
public struct NBAEventDetector: Sendable {
    /// A run is this many unanswered points.
    public static let runPoints = 10
    /// A close game is within this many points…
    public static let closeMargin = 5
    /// …with this much or less left in the 4th quarter (overtime is close throughout).
    public static let closeTime: Double = 300
    /// Points a player's milestones are counted at.
    public static let pointMilestones = [30, 40, 50]

    /// The ids of the events already handed out.
    public private(set) var emitted: Set<String> = []

    public init() {}

    /// The events of this poll not handed out before, in the order they happened.
    public mutating func process(_ snapshot: NBASnapshot) -> [GameEvent] {
        let events = Self.derive(snapshot).filter { !emitted.contains($0.id) }
        emitted.formUnion(events.map(\.id))
        return events
    }

    /// A game first seen in progress (or over): one `game_joined` summary; what came before
    /// counts as handed out.
    public mutating func join(_ snapshot: NBASnapshot) -> GameEvent {
        emitted.formUnion(Self.derive(snapshot).filter { $0.kind != .final }.map(\.id))
        let event = summary(snapshot, key: nil, details: [:])
        emitted.insert(event.id)
        return event
    }

    /// After a gap in watching: one `game_joined` with `caught_up`, summing up the events
    /// folded into it (`missed`), under the key of the newest play.
    public mutating func caughtUp(_ snapshot: NBASnapshot, missed: [GameEvent]) -> GameEvent {
        // What a sink gets only when asked (every basket) is not counted as missed.
        let missed = missed.filter { !GameEvent.Kind.optIn.contains($0.kind) }
        let changes = missed.filter { $0.kind == .leadChange }.count
        let others = missed.count - changes
        let text = [
            changes > 0 ? "\(changes) lead change\(changes == 1 ? "" : "s")" : nil,
            others > 0 ? "\(others) other alert\(others == 1 ? "" : "s")" : nil,
        ].compactMap { $0 }.joined(separator: ", ")
        let event = summary(
            snapshot, key: "caught-up-\(snapshot.plays.last?.sequence ?? 0)", details: ["caught_up": "true", "missed": text])
        emitted.insert(event.id)
        return event
    }

    /// When in the game an event happened, in game seconds (nil for one with no clock).
    public static func gameSeconds(_ event: GameEvent) -> Double? {
        guard let period = event.period, let elapsed = event.clock.flatMap(NBAPeriod.seconds) else { return nil }
        return NBAPeriod.gameSeconds(period: period, remaining: NBAPeriod.length(period) - elapsed)
    }

    private func summary(_ snapshot: NBASnapshot, key: String?, details extra: [String: String]) -> GameEvent {
        var details: [String: String] = extra
        if let final = snapshot.finalLabel { details["final_label"] = final }
        if snapshot.atBreak { details["intermission"] = "true" }
        if let clock = snapshot.clock, snapshot.isLive, !snapshot.atBreak { details["time_remaining"] = clock }
        let leaders = Self.leaders(snapshot)
        if !leaders.isEmpty { details["scorers"] = leaders }
        var event = GameEvent(
            kind: .gameJoined, key: key, gameId: snapshot.gameId, away: snapshot.away.abbrev, home: snapshot.home.abbrev,
            period: snapshot.period, periodType: snapshot.period.map { $0 > 4 ? "OT" : "REG" },
            score: GameEvent.Score(away: snapshot.away.score, home: snapshot.home.score), details: details)
        event.league = .nba
        return event
    }

    /// Every event the snapshot's plays imply, in order.
    public static func derive(_ snapshot: NBASnapshot) -> [GameEvent] {
        var walk = Walk(snapshot)
        for play in snapshot.plays { walk.step(play) }
        if snapshot.isFinal { walk.final() }
        return walk.events
    }

    /// Each player's points, rebounds and assists as the plays tell them (athlete id → line):
    /// what milestones are counted from.
    static func lines(_ snapshot: NBASnapshot) -> [String: (points: Int, rebounds: Int, assists: Int)] {
        var walk = Walk(snapshot)
        for play in snapshot.plays { walk.step(play) }
        return walk.lines
    }

    /// Each team's top scorers so far: "LAC: Harden 21, Powell 18; MIN: Edwards 25".
    static func leaders(_ snapshot: NBASnapshot) -> String {
        var points: [String: Int] = [:]
        for play in snapshot.plays where play.scoring {
            if let scorer = play.athletes.first { points[scorer, default: 0] += play.points }
        }
        return [snapshot.away.abbrev, snapshot.home.abbrev].compactMap { team -> String? in
            let best = points.filter { snapshot.athleteTeams[$0.key] == team }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(2)
            guard !best.isEmpty else { return nil }
            return "\(team): " + best.map { "\(snapshot.lastName($0.key)) \($0.value)" }.joined(separator: ", ")
        }.joined(separator: "; ")
    }

    /// One pass over the plays, with what a fan keeps in mind while watching: who leads, who
    /// is on a run, whether it is close, each player's line.
    struct Walk {
        let snapshot: NBASnapshot
        var events: [GameEvent] = []
        var periods: Set<Int> = []
        var score = GameEvent.Score(away: 0, home: 0)
        /// The last team to lead (ties don't end a lead's holder).
        var leader: String?
        var leadChanges = 0
        /// The team on a run and its points.
        var run: (team: String, points: Int)?
        /// Runs so far, by team; close stretches so far: what their events are keyed by (a
        /// play ESPN logs late, inserted before a run's first basket, changes no key).
        var runs: [String: Int] = [:]
        var stretches = 0
        var close = false
        var lines: [String: (points: Int, rebounds: Int, assists: Int)] = [:]
        var milestones: Set<String> = []

        init(_ snapshot: NBASnapshot) { self.snapshot = snapshot }

        func event(_ kind: GameEvent.Kind, _ key: String?, _ play: NBASnapshot.Play?, team: String? = nil) -> GameEvent {
            var event = GameEvent(
                kind: kind, key: key, gameId: snapshot.gameId, away: snapshot.away.abbrev, home: snapshot.home.abbrev, team: team,
                period: play?.period, periodType: play.map { $0.period > 4 ? "OT" : "REG" },
                clock: play.flatMap { NBAPeriod.elapsed(period: $0.period, remaining: $0.remaining) }, score: score)
            event.league = .nba
            if let play, !play.clock.isEmpty { event.details["time_remaining"] = play.clock }
            return event
        }

        func player(_ id: String, role: String) -> GameEvent.Player {
            GameEvent.Player(role: role, id: Int(id) ?? 0, name: snapshot.names[id] ?? "#\(id)", team: snapshot.athleteTeams[id])
        }

        mutating func step(_ play: NBASnapshot.Play) {
            if events.isEmpty { events.append(event(.gameStart, nil, play)) }
            if periods.insert(play.period).inserted {
                var start = event(.periodStart, String(play.period), play)
                start.clock = "00:00"
                start.details["period_name"] = NBAPeriod.name(play.period)
                start.details["time_remaining"] = nil
                events.append(start)
            }
            if play.scoring { scored(play) }
            tally(play)
            closeness(play)
            if play.kind == "End Period" {
                var end = event(.periodEnd, String(play.period), play)
                end.details["period_name"] = NBAPeriod.name(play.period)
                // A break follows, unless the game is decided (the 4th or an overtime ending
                // with a winner): then the final does.
                if play.period < 4 || score.away == score.home { end.details["intermission"] = "true" }
                if play.period == 2 { end.details["halftime"] = "true" }
                end.details["time_remaining"] = nil
                events.append(end)
            }
        }

        mutating func scored(_ play: NBASnapshot.Play) {
            // The score from the baskets themselves, each to its team: a play's own score can
            // be stale when ESPN inserted it late (TOR 22–26 right after 24–24).
            let team: String
            let points = play.points
            if let owner = play.team, owner == snapshot.away.abbrev || owner == snapshot.home.abbrev {
                team = owner
                if owner == snapshot.away.abbrev { score.away += points } else { score.home += points }
                // A play's own score that is not behind the count is the truth (a basket whose
                // points the answer left out, or a play lost to a malformed neighbour).
                if play.score.away >= score.away, play.score.home >= score.home { score = play.score }
            } else {
                team = play.score.home > score.home ? snapshot.home.abbrev : snapshot.away.abbrev
                score = play.score
            }
            let key = String(play.sequence)
            var basket = event(.score, key, play, team: team)
            basket.players = play.athletes.prefix(1).map { player($0, role: "scorer") }
            if !play.isFreeThrow, play.athletes.count > 1 { basket.players.append(player(play.athletes[1], role: "assist")) }
            basket.details["points"] = String(play.points)
            events.append(basket)
            // Who leads now; the lead changes hands when the other team goes ahead.
            let now: String? = score.away > score.home ? snapshot.away.abbrev : score.home > score.away ? snapshot.home.abbrev : nil
            if let now, now != leader {
                if leader != nil {
                    leadChanges += 1
                    var change = event(.leadChange, key, play, team: now)
                    change.players = basket.players.filter { $0.role == "scorer" }
                    change.details["lead"] = String(abs(score.away - score.home))
                    change.details["lead_changes"] = String(leadChanges)
                    events.append(change)
                }
                leader = now
            }
            // A run: the same team's points with nothing from the other in between.
            if let current = run, current.team == team {
                run = (team, current.points + points)
            } else {
                run = (team, points)
            }
            if let run, run.points >= NBAEventDetector.runPoints, run.points - points < NBAEventDetector.runPoints {
                runs[team, default: 0] += 1
                var spurt = event(.run, "\(team)-\(runs[team, default: 1])", play, team: team)
                spurt.details["run_score"] = "\(run.points)-0"
                events.append(spurt)
            }
        }

        /// Each player's points, rebounds and assists from the plays, and their milestones.
        mutating func tally(_ play: NBASnapshot.Play) {
            var touched: [String] = []
            if play.scoring, let scorer = play.athletes.first {
                lines[scorer, default: (0, 0, 0)].points += play.points
                touched.append(scorer)
                if !play.isFreeThrow, play.athletes.count > 1 {
                    lines[play.athletes[1], default: (0, 0, 0)].assists += 1
                    touched.append(play.athletes[1])
                }
            } else if play.isRebound, let rebounder = play.athletes.first {
                lines[rebounder, default: (0, 0, 0)].rebounds += 1
                touched.append(rebounder)
            }
            for id in touched {
                guard let line = lines[id] else { continue }
                let tens = [line.points, line.rebounds, line.assists].filter { $0 >= 10 }.count
                var reached: [(key: String, text: String)] = NBAEventDetector.pointMilestones.filter { line.points >= $0 }.map {
                    ("\($0)pts", "\($0) points")
                }
                if tens >= 2 { reached.append(("double_double", "double-double")) }
                if tens >= 3 { reached.append(("triple_double", "triple-double")) }
                for (key, text) in reached where milestones.insert("\(id)-\(key)").inserted {
                    var milestone = event(.milestone, "\(id)-\(key)", play, team: snapshot.athleteTeams[id] ?? play.team)
                    milestone.players = [player(id, role: "player")]
                    milestone.details["milestone"] = text
                    milestone.details["line"] = "\(line.points) pts, \(line.rebounds) reb, \(line.assists) ast"
                    events.append(milestone)
                }
            }
        }

        /// Close: within the margin with five minutes or less left in the 4th, or in overtime;
        /// said once each time it gets that close.
        mutating func closeness(_ play: NBASnapshot.Play) {
            guard play.period > 4 || (play.period == 4 && (play.remaining ?? .infinity) <= NBAEventDetector.closeTime),
                play.kind != "End Game"
            else { return }
            let margin = abs(score.away - score.home)
            if margin <= NBAEventDetector.closeMargin, !close {
                stretches += 1
                var event = event(.closeGame, String(stretches), play)
                event.details["margin"] = String(margin)
                events.append(event)
            }
            close = margin <= NBAEventDetector.closeMargin
        }

        mutating func final() {
            score = GameEvent.Score(away: snapshot.away.score, home: snapshot.home.score)
            let winner = score.away > score.home ? snapshot.away.abbrev : score.home > score.away ? snapshot.home.abbrev : nil
            var end = event(.final, nil, nil, team: winner)
            end.period = snapshot.period ?? snapshot.plays.last?.period
            end.periodType = (end.period ?? 4) > 4 ? "OT" : "REG"
            end.details["ended_in"] = snapshot.endedIn
            end.details["lead_changes"] = String(leadChanges)
            if let winner { end.details["winner"] = winner }
            events.append(end)
        }
    }
}
