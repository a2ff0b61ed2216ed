import FaceoffBase
import FaceoffESPN
import FaceoffKit
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
                    game.followed ? Self.followedMark : "", "\(game.away.abbrev) @ \(game.home.abbrev)", score, state,
                    game.status == "scheduled" || game.status == "live" ? game.networks.joined(separator: ", ") : "",
                ]
                .map { TextTable.Cell($0) }, style: highlight)
        }
        return "\(league) games on \(day)\n" + table.render(width: width, style: style)
    }

    /// An NBA box score: the score line, points by quarter, each team's players (starters
    /// first, as ESPN lists them) and the game's leaders.
    public func nbaBoxScore(_ report: NBABoxScoreReport) -> String {
        let (a, h) = (report.away.abbrev, report.home.abbrev)
        var head = "\(a) @ \(h)"
        if let away = report.away.score, let home = report.home.score { head = "\(a) \(away)–\(home) \(h)" }
        var blocks = [style.bold([head, report.detail].compactMap(\.self).joined(separator: " · "))]
        var facts = [report.series, report.venue].compactMap(\.self)
        if report.status == "scheduled", let start = report.start.flatMap(ESPNDate.parse) {
            facts.insert("\(time.day(start)) \(time.time(start)) \(time.zoneAbbreviation(start))", at: 0)
        } else if report.status == "scheduled", let day = report.day.flatMap(CalendarDay.init(iso:)) {
            facts.insert("\(day.shortText), time TBD", at: 0)
        }
        if !facts.isEmpty { blocks[0] += "\n" + facts.joined(separator: " · ") }
        let periods = max(report.away.periods.count, report.home.periods.count)
        if periods > 0 {
            let labels: [String] = (1...periods).map(NBAPeriod.ordinal)
            var columns: [TextTable.Column] = [.init("")]
            columns += labels.map { TextTable.Column($0, .right) }
            columns.append(TextTable.Column("T", .right))
            var table = TextTable(columns: columns)
            for team in [report.away, report.home] {
                var cells: [String] = [team.abbrev]
                for index in 0..<periods { cells.append(index < team.periods.count ? String(team.periods[index]) : "") }
                cells.append(team.score.map(String.init) ?? "")
                table.add(cells)
            }
            blocks.append(table.render(width: width, style: style))
        }
        for team in [report.away, report.home] where !team.players.isEmpty {
            var table = TextTable(columns: [
                .init(team.abbrev, shrinkable: true, minimumWidth: 8), .init("MIN", .right), .init("PTS", .right), .init("REB", .right),
                .init("AST", .right), .init("FG", .right, dropRank: 3), .init("3PT", .right, dropRank: 2), .init("FT", .right, dropRank: 4),
                .init("+/-", .right, dropRank: 1),
            ])
            for player in team.players {
                if player.didNotPlay {
                    table.add([player.name, "DNP", "", "", "", "", "", "", ""])
                    continue
                }
                table.add([
                    player.name, dash(player.minutes), dash(player.points), dash(player.rebounds), dash(player.assists),
                    player.fieldGoals ?? "-", player.threes ?? "-", player.freeThrows ?? "-", player.plusMinus ?? "-",
                ])
            }
            blocks.append(table.render(width: width, style: style))
        }
        if !report.leaders.isEmpty {
            let lines = report.leaders.map { "\($0.category): \($0.name) (\($0.team)) \($0.value)" + ($0.detail.map { ", \($0)" } ?? "") }
            blocks.append("Leaders\n" + lines.joined(separator: "\n"))
        }
        if report.status == "scheduled" { blocks.append(style.dim("Not begun: the box score fills in once the game is on.")) }
        return blocks.joined(separator: "\n\n")
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
            // A team's row: its shots in each period, then their sum.
            func row(_ team: String, _ side: KeyPath<BoxScoreReport.PeriodShots, Int>) -> [String] {
                let counts: [Int] = shots.map { $0[keyPath: side] }
                return [team] + counts.map(String.init) + [String(counts.reduce(0, +))]
            }
            table.add(row(a, \.away))
            table.add(row(h, \.home))
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
