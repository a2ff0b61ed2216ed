import FaceoffNHL
import Foundation

/// The values alert templates see for one event: the event's facts, ready-made pieces of
/// text (`score_line`, `when`, `assists`...) and one flag per kind (`{{#goal}}...{{/goal}}`).
/// A key is present only when it has a value, so `{{#key}}` sections test presence.
/// Templates/README.md lists every key.
enum AlertContext {
    static func values(_ event: GameEvent, followed: Set<String>) -> [String: Any] {
        var values: [String: Any] = [
            "kind": event.kind.rawValue,
            event.kind.rawValue: true,
            "id": event.id,
            "game_id": event.gameId,
            "away": event.away,
            "home": event.home,
            "score_away": event.score.away,
            "score_home": event.score.home,
            "score_line": "\(event.away) \(event.score.away)–\(event.score.home) \(event.home)",
            "game_url": "https://www.nhl.com/gamecenter/\(event.gameId)",
        ]
        func set(_ key: String, _ value: String?) {
            if let value, !value.isEmpty { values[key] = value }
        }
        if let team = event.team {
            values["team"] = team
            let facts = TeamFactsTable.facts(for: team)
            values["team_name"] = facts?.commonName ?? team
            set("team_full_name", facts?.fullName)
            if let color = facts?.primary {
                values["team_color"] = color.hex
                values["team_color_int"] = Int(color.red) << 16 | Int(color.green) << 8 | Int(color.blue)
            }
            set("team_color_secondary", facts?.secondary.hex)
            if facts != nil { values["team_logo"] = TeamFacts.logoURL(team) }
            set("opponent", team == event.away ? event.home : team == event.home ? event.away : nil)
            if followed.contains(team) { values["followed"] = true }
        }
        if followed.contains(event.away) || followed.contains(event.home) { values["followed_game"] = true }
        if Self.isImportant(event, followed: followed) { values["important"] = true }
        set("period_label", event.periodLabel)
        set("period_type", event.periodType)
        switch event.periodType {
        case "OT": values["overtime"] = true
        case "SO": values["shootout"] = true
        default: values["regulation"] = true
        }
        set("clock", event.clock)
        set("when", [event.periodLabel, event.clock].compactMap { $0 }.joined(separator: " "))
        if let shots = event.shots {
            values["shots_away"] = shots.away
            values["shots_home"] = shots.home
            values["shots_line"] = "\(shots.away)–\(shots.home)"
        }
        set("strength", event.strength)
        if let strength = event.strength, strength != "EV" { values["strength_label"] = strength }
        if event.emptyNet == true { values["empty_net"] = true }
        if event.penaltyShot == true { values["penalty_shot"] = true }

        func people(_ role: String) -> [GameEvent.Player] { event.players.filter { $0.role == role } }
        if let scorer = people("scorer").first {
            values["scorer"] = scorer.name
            values["scorer_id"] = scorer.id
            if let total = scorer.seasonTotal { values["scorer_total"] = total }
            values["scorer_text"] = scorer.seasonTotal.map { "\(scorer.name) (\($0))" } ?? scorer.name
        }
        set("assists", people("assist").map(\.name).joined(separator: ", "))
        set("penalized", people("penalty").first?.name)
        set("drawn_by", people("drawn_by").first?.name)
        set("served_by", people("served_by").first?.name)

        let details = event.details
        set("infraction", details["infraction"])
        if let minutes = details["minutes"], minutes != "0" { values["minutes"] = minutes }
        set("time_left", details["time_left"])
        set("reason", details["reason"])
        set("from", details["from"])
        set("to", details["to"])
        set("change", details["change"])
        set("summary", details["summary"])
        set("alerts", details["alerts"])
        set("highlight_url", details["highlight_url"])
        if let endedIn = details["ended_in"] {
            values["ended_in"] = endedIn
            if endedIn != "REG" { values["extra_time"] = endedIn }
        }
        if let winner = details["winner"] {
            values["winner"] = winner
            values["winner_name"] = TeamFactsTable.facts(for: winner)?.commonName ?? winner
        }
        if details["intermission"] == "true" { values["intermission"] = true }
        set("time_remaining", details["time_remaining"])
        set("final_label", details["final_label"])
        set("scorers", details["scorers"])
        if details["caught_up"] == "true" { values["caught_up"] = true }
        set("missed", details["missed"])
        set("minutes_before", details["minutes_before"])
        set("revision", details["revision"])
        if let series = event.series {
            values["series"] = true
            values["series_game"] = "Game \(series.game)"
            set("series_round", series.abbrev)
            if let winner = series.winner {
                let name = TeamFactsTable.facts(for: winner)?.commonName ?? winner
                values["series_text"] =
                    "\(name) win the series \(max(series.topWins, series.bottomWins))–\(min(series.topWins, series.bottomWins))"
            } else {
                set("series_text", series.text)
            }
        }
        return values
    }

    /// A followed team's goal, and the final of a followed team's game: what deserves a
    /// critical notification and a high push priority.
    static func isImportant(_ event: GameEvent, followed: Set<String>) -> Bool {
        switch event.kind {
        case .goal: return event.team.map(followed.contains) ?? false
        case .final: return followed.contains(event.away) || followed.contains(event.home)
        default: return false
        }
    }
}
