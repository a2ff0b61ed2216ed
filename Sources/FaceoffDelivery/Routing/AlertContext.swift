import FaceoffKit
import Foundation

/// The values alert templates see for one event: the event's facts, ready-made pieces of
/// text (`score_line`, `when`, `assists`...) and one flag per kind (`{{#goal}}...{{/goal}}`).
/// A key is present only when it has a value, so `{{#key}}` sections test presence.
/// Templates/README.md lists every key.
enum AlertContext {
    static func values(_ event: GameEvent, followed: Set<String>) -> [String: Any] {
        var values: [String: Any] = ["kind": event.kind.rawValue, event.kind.rawValue: true, "id": event.id]
        // A digest of several games is of no one game: no game, teams, score or link.
        if !event.away.isEmpty || !event.home.isEmpty {
            values.merge(
                [
                    "game_id": event.gameId, "away": event.away, "home": event.home, "score_away": event.score.away,
                    "score_home": event.score.home, "score_line": "\(event.away) \(event.score.away)–\(event.score.home) \(event.home)",
                    "game_url": event.leagueDefinition.gameURL(event.gameId),
                ]
            ) { $1 }
        }
        func set(_ key: String, _ value: String?) {
            if let value, !value.isEmpty { values[key] = value }
        }
        let league = event.leagueDefinition
        // The league in words, so a template needs no flag per league.
        values["sport_emoji"] = league.sportEmoji
        values["start_word"] = league.startWord
        // The NHL's events name no league, as they never did; another league's say which,
        // and keep the flag templates written for the NBA test (`{{#nba}}`).
        if let code = event.league?.rawValue, event.league != .nhl {
            values[code] = true
            values["league"] = code
        }
        if let team = event.team {
            values["team"] = team
            let known = league.team(team)
            values["team_name"] = known?.shortName ?? team
            set("team_full_name", known?.name)
            if let color = known?.primary {
                values["team_color"] = color.hex
                values["team_color_int"] = Int(color.red) << 16 | Int(color.green) << 8 | Int(color.blue)
            }
            set("team_color_secondary", known?.secondary?.hex)
            set("team_logo", known?.logo)
            set("opponent", team == event.away ? event.home : team == event.home ? event.away : nil)
            if followed.contains(event.followKey(team)) { values["followed"] = true }
        }
        if event.isGame(of: followed) { values["followed_game"] = true }
        if Self.isImportant(event, followed: followed) { values["important"] = true }
        set("period_label", event.periodLabel)
        set("period_type", event.periodType)
        switch event.periodType {
        case "OT": values["overtime"] = true
        case "SO": values["shootout"] = true
        default: values["regulation"] = true
        }
        set("clock", event.clock)
        // Basketball's clock is the time left, as its fans read it: "Q4 3:12".
        set(
            "when",
            [event.periodLabel, league.clockCountsDown ? event.details["time_remaining"] : event.clock].compactMap { $0 }.joined(
                separator: " "))
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
        set("shooter", people("shooter").first?.name)
        set("goalie", people("goalie").first?.name)

        let details = event.details
        set("infraction", details["infraction"])
        set("result", details["result"])
        if details["result"] == "stopped" { values["stopped"] = true }
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
            values["winner_name"] = Self.name(winner, event) ?? winner
        }
        if details["intermission"] == "true" { values["intermission"] = true }
        set("time_remaining", details["time_remaining"])
        set("final_label", details["final_label"])
        set("scorers", details["scorers"])
        if details["caught_up"] == "true" { values["caught_up"] = true }
        set("missed", details["missed"])
        set("minutes_before", details["minutes_before"])
        set("revision", details["revision"])
        // Basketball's period name is in the event; hockey's is its label and type.
        set("period_name", details["period_name"] ?? event.period.flatMap { league.periodName($0, type: event.periodType) })
        // Basketball's.
        if details["halftime"] == "true" { values["halftime"] = true }
        set("points", details["points"])
        set("lead", details["lead"])
        set("lead_changes", details["lead_changes"])
        set("run_score", details["run_score"])
        set("margin", details["margin"])
        set("milestone_name", details["milestone"])
        set("line", details["line"])
        set("player", people("player").first?.name)
        if let series = event.series {
            values["series"] = true
            values["series_game"] = "Game \(series.game)"
            set("series_round", series.abbrev)
            if let winner = series.winner {
                let name = Self.name(winner, event) ?? winner
                values["series_text"] =
                    "\(name) win the series \(max(series.topWins, series.bottomWins))–\(min(series.topWins, series.bottomWins))"
            } else {
                set("series_text", series.text)
            }
        }
        return values
    }

    /// "Maple Leafs", "Lakers": a team's short name in the event's league.
    static func name(_ abbrev: String, _ event: GameEvent) -> String? {
        event.leagueDefinition.team(abbrev)?.shortName
    }

    /// A followed team's goal, and the final of a followed team's game: what deserves a
    /// critical notification and a high push priority.
    static func isImportant(_ event: GameEvent, followed: Set<String>) -> Bool {
        switch event.kind {
        case .goal: return event.team.map { followed.contains(event.followKey($0)) } ?? false
        case .final: return event.isGame(of: followed)
        default: return false
        }
    }
}
