import FaceoffKit
import Foundation

/// When a sink holds its alerts back, and what becomes of them: the one place that says
/// whether a sink delivers now (`faceoff mute`, the MQTT switch, `quiet_hours`).
public struct SinkHold: Sendable, Equatable {
    public var quietHours: QuietHours?
    public var held: SinkConfig.Held
    /// The configured zone, which the quiet hours are read in.
    public var zone: TimeZone

    public init(quietHours: QuietHours? = nil, held: SinkConfig.Held = .drop, zone: TimeZone = .current) {
        self.quietHours = quietHours
        self.held = held
        self.zone = zone
    }

    public init(_ config: SinkConfig, zone: TimeZone) {
        self.init(quietHours: config.quietHours, held: config.heldAlerts, zone: zone)
    }

    /// The hold of a sink no `[[sink]]` names (`run`'s desktop notifications and log, `watch`'s
    /// terminal): its kind's default, no quiet hours.
    public static func unconfigured(_ kind: SinkConfig.Kind, zone: TimeZone) -> SinkHold {
        SinkHold(held: SinkConfig.defaultHeld(kind), zone: zone)
    }

    /// Why the sink holds alerts at `date`, given its mute (if any): a mute first, then quiet.
    public func reason(mute: Holds.Mute?, at date: Date) -> HoldReason? {
        if let mute { return .muted(until: mute.until) }
        if let quietHours, quietHours.contains(date, in: zone) { return .quiet(until: quietHours.end(after: date, in: zone)) }
        return nil
    }
}

public enum HoldReason: Sendable, Equatable {
    /// nil: until unmuted.
    case muted(until: Date?)
    case quiet(until: Date)

    /// "muted until 07:00", "muted", "quiet hours until 07:00" (the clock in `zone`).
    public func text(in zone: TimeZone) -> String {
        switch self {
        case .muted(let until): until.map { "muted until \(Self.clock($0, zone))" } ?? "muted"
        case .quiet(let until): "quiet hours until \(Self.clock(until, zone))"
        }
    }

    static func clock(_ date: Date, _ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: date)
    }
}

/// One message for what a sink held: "PIT 3–1 MIN, final (Crosby ×2, Rust)" per game, in
/// the order the games came up.
public enum Digest {
    /// The digest of `held`: of its one game when all are (that game's teams, score, league
    /// and link), of no game when they span several (game 0, no teams: no one game's label
    /// on a message about many).
    public static func event(_ held: [GameEvent], sink: String, at date: Date) -> GameEvent? {
        guard let last = held.last else { return nil }
        let oneGame = held.allSatisfy { $0.gameId == last.gameId && $0.league == last.league }
        var event = GameEvent(
            kind: .digest, key: "\(sink)-\(Int64(date.timeIntervalSince1970))", gameId: oneGame ? last.gameId : 0,
            away: oneGame ? last.away : "", home: oneGame ? last.home : "", score: oneGame ? last.score : .init(away: 0, home: 0),
            details: ["summary": summary(held), "alerts": "\(held.count)"])
        if oneGame { event.league = last.league }
        event.seenAt = date
        return event
    }

    /// The longest summary, in UTF-8 bytes: under the smallest limit of the receivers a
    /// webhook preset posts to (Discord: 2,000 characters of content, 4,096 of an embed's
    /// description; ntfy: 4,096 bytes of message; Slack: 3,000 characters of a section), with
    /// room for a template's own words around it.
    static var limit: Int { 1_800 }

    /// Each game's last score and where it got to, with its scorers (a goal taken back left
    /// out); past `limit`, the games that don't fit are counted ("…and 12 more games").
    static func summary(_ held: [GameEvent]) -> String {
        var order: [Int] = []
        var byGame: [Int: [GameEvent]] = [:]
        for event in held {
            if byGame[event.gameId] == nil { order.append(event.gameId) }
            byGame[event.gameId, default: []].append(event)
        }
        let lines = order.map { game in line(byGame[game] ?? []) }
        var text = ""
        for (index, line) in lines.enumerated() {
            let joined = text.isEmpty ? line : text + "; " + line
            let rest = lines.count - index - 1
            // What must still fit after this game: the count of those left out, if any are.
            let tail = rest > 0 ? "; …and \(rest) more game\(rest == 1 ? "" : "s")".utf8.count : 0
            if joined.utf8.count + tail > limit {
                let left = lines.count - index
                let more = "…and \(left) more game\(left == 1 ? "" : "s")"
                return text.isEmpty ? more : text + "; " + more
            }
            text = joined
        }
        return text
    }

    static func line(_ events: [GameEvent]) -> String {
        guard let last = events.last else { return "" }
        // Goals by their alert's id: a correction names the goal it is about.
        var goals: [(id: String, scorer: String)] = []
        for event in events {
            let scorer = event.players.first { $0.role == "scorer" }?.name
            let goal = event.kind == .goal ? event.id : GameEvent.correctedGoal(of: event.id)
            guard let goal else { continue }
            let index = goals.firstIndex { $0.id == goal }
            switch (event.kind, index) {
            case (.goal, nil), (.goalReinstated, nil): if let scorer { goals.append((goal, scorer)) }
            case (.goalOverturned, let index?): goals.remove(at: index)
            case (.scoringChange, let index?): if let scorer { goals[index].scorer = scorer }
            default: break
            }
        }
        var counts: [(String, Int)] = []
        for goal in goals {
            if let index = counts.firstIndex(where: { $0.0 == goal.scorer }) {
                counts[index].1 += 1
            } else {
                counts.append((goal.scorer, 1))
            }
        }
        let scorers = counts.map { $1 > 1 ? "\($0) ×\($1)" : $0 }.joined(separator: ", ")
        let played = events.contains { $0.period != nil }
        let head: String
        if played {
            let state = events.contains { $0.kind == .final } ? "final" : place(last)
            head = "\(last.away) \(last.score.away)–\(last.score.home) \(last.home)" + (state.isEmpty ? "" : ", \(state)")
        } else {
            let what = last.kind == .scheduleChange ? last.details["change"] : (last.kind == .pregame ? "starts soon" : nil)
            head = "\(last.away) @ \(last.home)" + (what.map { ", \($0)" } ?? "")
        }
        return scorers.isEmpty ? head : "\(head) (\(scorers))"
    }

    /// Where a game not over got to, as its last held alert left it: "2nd", "1st
    /// intermission" after hockey's period ends, "halftime" or "end of Q3" in basketball.
    static func place(_ event: GameEvent) -> String {
        guard let label = event.periodLabel else { return "" }
        if event.details["halftime"] == "true" { return "halftime" }
        guard event.kind == .periodEnd || event.details["intermission"] == "true" else { return label }
        return (event.league ?? .nhl).afterPeriod(label)
    }
}
