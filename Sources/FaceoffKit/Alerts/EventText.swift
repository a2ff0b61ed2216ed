import Foundation

/// Plain text for an event: a short title and a one-line body, for the terminal and (until
/// templates take over) the other sinks.
public enum EventText {
    public static func title(_ event: GameEvent) -> String {
        let team = event.team ?? ""
        switch event.kind {
        case .pregame: return "\(event.away) @ \(event.home) soon"
        case .gameStart: return "🏒 Puck drop: \(event.away) @ \(event.home)"
        case .gameJoined: return "Joined \(event.away) @ \(event.home) in progress"
        case .goal: return event.emptyNet == true ? "🚨 \(team) empty-net goal!" : "🚨 \(team) goal!"
        case .goalOverturned: return "❌ \(team) goal overturned"
        case .scoringChange: return "✏️ Scoring change, \(team) goal"
        case .penalty: return "⚠️ \(team) penalty"
        case .powerPlayStart: return "⚡ \(team) power play"
        case .powerPlayEnd: return "\(team) power play over"
        case .goaliePulled: return "🥅 \(team) pulls the goalie"
        case .goalieReturned: return "\(team) goalie back in net"
        case .periodStart:
            switch event.periodType {
            case "OT": return "▶ Overtime"
            case "SO": return "▶ Shootout"
            default: return "▶ \(event.periodLabel ?? "") period"
            }
        case .periodEnd: return "⏸ End of \(event.periodLabel ?? "the period")"
        case .final: return "🏁 Final\(event.details["ended_in"].flatMap { $0 == "REG" ? nil : " (\($0))" } ?? "")"
        }
    }

    public static func body(_ event: GameEvent) -> String {
        var parts: [String] = []
        let score = "\(event.away) \(event.score.away)–\(event.score.home) \(event.home)"
        let when = [event.periodLabel, event.clock].compactMap { $0 }.joined(separator: " ")
        func name(_ role: String) -> [GameEvent.Player] { event.players.filter { $0.role == role } }
        switch event.kind {
        case .goal, .scoringChange, .goalOverturned:
            if let scorer = name("scorer").first {
                parts.append(scorer.seasonTotal.map { "\(scorer.name) (\($0))" } ?? scorer.name)
            }
            let assists = name("assist").map(\.name)
            if event.kind != .goalOverturned { parts.append(assists.isEmpty ? "unassisted" : "from " + assists.joined(separator: ", ")) }
            if let strength = event.strength, strength != "EV" { parts.append(strength) }
            if event.penaltyShot == true { parts.append("penalty shot") }
            parts.append(score)
            if !when.isEmpty { parts.append(when) }
        case .penalty:
            var what = name("penalty").first?.name ?? "bench"
            if let infraction = event.details["infraction"] { what += ", \(infraction)" }
            if let minutes = event.details["minutes"], minutes != "0" { what += " (\(minutes) min)" }
            parts.append(what)
            if let drawn = name("drawn_by").first { parts.append("drawn by \(drawn.name)") }
            if !when.isEmpty { parts.append(when) }
        case .powerPlayStart:
            var what = event.strength ?? ""
            if let minutes = event.details["minutes"] { what += what.isEmpty ? "\(minutes):00" : ", \(minutes):00" }
            if !what.isEmpty { parts.append(what) }
            parts.append(score)
            if !when.isEmpty { parts.append(when) }
        case .powerPlayEnd:
            parts.append(event.details["reason"] ?? "over")
            parts.append(score)
            if !when.isEmpty { parts.append(when) }
        case .goaliePulled, .goalieReturned:
            if let strength = event.strength { parts.append(strength) }
            parts.append(score)
            if !when.isEmpty { parts.append(when) }
        case .periodStart, .gameStart:
            parts.append(score)
        case .periodEnd:
            parts.append(score)
            if let shots = event.shots { parts.append("shots \(shots.away)–\(shots.home)") }
        case .gameJoined:
            parts.append(score)
            if let period = event.periodLabel {
                if event.details["intermission"] == "true" {
                    parts.append("\(period) intermission" + (event.details["time_remaining"].map { ", \($0)" } ?? ""))
                } else {
                    parts.append(period + (event.details["time_remaining"].map { " \($0) left" } ?? ""))
                }
            }
            if let scorers = event.details["scorers"], !scorers.isEmpty { parts.append(scorers) }
        case .final:
            parts.append(score)
            if let winner = event.details["winner"] { parts.append("\(winner) win") }
            if let shots = event.shots { parts.append("shots \(shots.away)–\(shots.home)") }
        case .pregame:
            if let minutes = event.details["minutes_before"] { parts.append("starts in \(minutes) min") }
        }
        return parts.joined(separator: " · ")
    }

    public static func line(_ event: GameEvent) -> String {
        let body = body(event)
        return body.isEmpty ? title(event) : "\(title(event))  \(body)"
    }
}

/// The documented JSON form of an event (one object per line on a jsonl stdout).
public struct EventJSON: Encodable, Sendable {
    public let kind: String
    public let id: String
    public let game: Int
    public let away: String
    public let home: String
    public let team: String?
    public let period: Int?
    public let periodLabel: String?
    public let periodType: String?
    public let clock: String?
    public let score: GameEvent.Score
    public let shots: GameEvent.Score?
    public let strength: String?
    public let emptyNet: Bool?
    public let penaltyShot: Bool?
    public let players: [GameEvent.Player]
    public let details: [String: String]
    public let title: String
    public let text: String

    public init(_ event: GameEvent) {
        kind = event.kind.rawValue
        id = event.id
        game = event.gameId
        away = event.away
        home = event.home
        team = event.team
        period = event.period
        periodLabel = event.periodLabel
        periodType = event.periodType
        clock = event.clock
        score = event.score
        shots = event.shots
        strength = event.strength
        emptyNet = event.emptyNet
        penaltyShot = event.penaltyShot
        players = event.players
        details = event.details
        title = EventText.title(event)
        text = EventText.body(event)
    }

    public func encoded() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? "{}"
    }
}
