import FaceoffBase
import FaceoffNHL
import Foundation

/// The day's games and a game's box score (`scores`, `game`).
extension FanText {

    /// A day's games: the time (in the user's zone) and networks of those to come, period,
    /// time left and power play or empty net of those on, the final with OT/SO.
    public func scores(_ report: ScoresReport) -> String {
        let day = report.date.flatMap { CalendarDay(iso: $0) }?.text ?? report.date ?? "that day"
        let league = report.league ?? "NHL"
        guard !report.games.isEmpty else { return "No \(league) games on \(day)." }
        var table = TextTable(columns: [
            .init(""), .init("Game"), .init("Score"), .init("State", shrinkable: true, minimumWidth: 5),
            .init("TV", shrinkable: true, minimumWidth: 4, dropRank: 1),
        ])
        for game in report.games {
            let score = game.away.score.flatMap { away in game.home.score.map { "\(away)–\($0)" } } ?? ""
            let state: String
            switch game.status {
            case "final": state = FinalLabel.text(game.endedIn)
            case "postponed": state = "Postponed"
            case "cancelled": state = "Cancelled"
            case "live":
                var parts = [[game.period, game.intermission ? "intermission" : nil].compactMap(\.self).joined(separator: " ")]
                // A shootout has no clock.
                if let clock = game.clock, game.period != "SO" { parts[0] += " \(clock) left" }
                if let team = game.powerPlay { parts.append("\(team) PP") }
                for team in game.emptyNet { parts.append("\(team) net empty") }
                state = parts.filter { !$0.isEmpty }.joined(separator: " · ")
            default:
                state = game.timeTBD ? "time TBD" : game.start.flatMap { try? Date($0, strategy: .iso8601) }.map(time.time) ?? "?"
            }
            let highlight: ((String) -> String)? = game.followed ? { [style] text in style.paint(text, bold: true) } : nil
            table.add(
                [
                    game.followed ? "*" : "", "\(game.away.abbrev) @ \(game.home.abbrev)", score, state,
                    game.status == "scheduled" || game.status == "live" ? game.networks.joined(separator: ", ") : "",
                ]
                .map { TextTable.Cell($0) }, style: highlight)
        }
        return "\(league) games on \(day)\n" + table.render(width: width, style: style)
    }

    /// A box score: the score line, goals by period, shots, goalies, power plays, penalties,
    /// three stars, and what could not be shown.
    public func boxScore(_ report: BoxScoreReport) -> String {
        let (a, h) = (report.away.abbrev, report.home.abbrev)
        var head = "\(a) @ \(h)"
        if let away = report.away.score, let home = report.home.score { head = "\(a) \(away)–\(home) \(h)" }
        switch report.status {
        case "final": head += " · \(FinalLabel.text(report.endedIn))"
        case "live": head += " · " + [report.period, report.clock.map { "\($0) left" }].compactMap(\.self).joined(separator: " ")
        default:
            if let start = report.start.flatMap({ try? Date($0, strategy: .iso8601) }) {
                head += " · \(time.day(start)) \(time.time(start))"
            }
            if report.status != "scheduled" { head += " · \(report.status)" }
        }
        var blocks = [style.paint(head, bold: true)]

        if let goals = report.goals, !goals.isEmpty {
            var table = TextTable(columns: [
                .init(""), .init("Time"), .init("Team"), .init("Goal", shrinkable: true, minimumWidth: 8), .init(""),
                .init("Score", .right),
            ])
            for goal in goals {
                let scorer = goal.scorerTotal.map { "\(goal.scorer) (\($0))" } ?? goal.scorer
                // The shootout's deciding goal: no time, no assists.
                let shootout = goal.period == "SO"
                let text =
                    shootout
                    ? "\(goal.scorer), the shootout winner"
                    : goal.assists.isEmpty ? "\(scorer), unassisted" : "\(scorer) from \(goal.assists.joined(separator: ", "))"
                var flags = goal.strength.flatMap { $0 == "EV" || shootout ? nil : $0 }.map { [$0] } ?? []
                if goal.emptyNet { flags.append("EN") }
                if goal.penaltyShot { flags.append("PS") }
                table.add(
                    [goal.period, shootout ? "" : goal.time ?? "", goal.team ?? "", text, flags.joined(separator: " "), goal.score ?? ""]
                        .map { TextTable.Cell($0) })
            }
            blocks.append("Goals\n" + table.render(width: width, style: style))
        } else if report.goals != nil, report.status == "final" || report.status == "live" {
            blocks.append("Goals: none")
        }

        if let shots = report.shotsByPeriod, !shots.isEmpty {
            var table = TextTable(columns: [.init("Shots")] + shots.map { .init($0.period, .right) } + [.init("Total", .right)])
            table.add([a] + shots.map { String($0.away) } + [String(shots.map(\.away).reduce(0, +))])
            table.add([h] + shots.map { String($0.home) } + [String(shots.map(\.home).reduce(0, +))])
            blocks.append(table.render(width: width, style: style))
        } else if let away = report.away.shots, let home = report.home.shots {
            blocks.append("Shots: \(a) \(away), \(h) \(home)")
        }

        if let goalies = report.goalies, !goalies.isEmpty {
            var table = TextTable(columns: [
                .init("Goalie", shrinkable: true, minimumWidth: 6), .init("Team"), .init("SA", .right), .init("SV", .right),
                .init("SV%", .right), .init("TOI", .right, dropRank: 1), .init("Dec"),
            ])
            for goalie in goalies {
                let save = goalie.savePercentage.map(BoxScoreReport.savePercentage) ?? ""
                table.add(
                    [
                        goalie.name, goalie.team, goalie.shotsAgainst.map(String.init) ?? "", goalie.saves.map(String.init) ?? "", save,
                        goalie.timeOnIce ?? "", goalie.decision ?? "",
                    ].map { TextTable.Cell($0) })
            }
            blocks.append(table.render(width: width, style: style))
        }

        if let powerPlays = report.powerPlays {
            blocks.append("Power plays: \(a) \(powerPlays.away), \(h) \(powerPlays.home)")
        }

        if let penalties = report.penalties, !penalties.isEmpty {
            var table = TextTable(columns: [
                .init("Penalties"), .init("Time"), .init("Team"), .init("Player", shrinkable: true, minimumWidth: 6),
                .init("Infraction", shrinkable: true, minimumWidth: 6), .init("Min", .right),
            ])
            for penalty in penalties {
                table.add(
                    [
                        penalty.period, penalty.time ?? "", penalty.team ?? "", penalty.player ?? "", penalty.infraction ?? "",
                        penalty.minutes.map(String.init) ?? "",
                    ].map { TextTable.Cell($0) })
            }
            blocks.append(table.render(width: width, style: style))
        }

        if let stars = report.threeStars, !stars.isEmpty {
            blocks.append(
                "Three stars\n"
                    + stars.map { star in
                        "  \(star.star). \(star.name)" + (star.team.map { " (\($0))" } ?? "") + (star.line.map { " · \($0)" } ?? "")
                    }.joined(separator: "\n"))
        }
        for missing in report.unavailable {
            blocks.append(wrap("Not shown: \(missing)".split(separator: " ").map(String.init), separator: " ").joined(separator: "\n"))
        }
        return blocks.joined(separator: "\n\n")
    }
}
