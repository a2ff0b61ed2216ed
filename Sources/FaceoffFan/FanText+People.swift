import FaceoffBase
import FaceoffKit
import FaceoffNHL
import Foundation

/// A player's page and the playoffs' bracket.
extension FanText {
    public func player(_ report: PlayerReport) -> String {
        var lines: [String] = []
        let number = report.number.map { "#\($0) " } ?? ""
        let team = report.teamName ?? report.team ?? (report.active == false ? "retired" : "")
        lines.append(style.bold("\(report.name)  \(number)\(report.position ?? "")  \(team)"))
        var bio: [String] = []
        if let age = report.age, let birth = report.birthDate { bio.append("born \(birth) (\(age))") }
        if let place = report.birthplace { bio.append(place) }
        if let inches = report.heightInches { bio.append("\(inches / 12)'\(inches % 12)\"") }
        if let pounds = report.weightPounds { bio.append("\(pounds) lb") }
        if let hand = report.handedness { bio.append((report.isGoalie ? "catches " : "shoots ") + hand) }
        lines += wrap(bio, separator: " · ")
        if let draft = report.draft { lines.append("Drafted \(draft)") }
        lines.append("")

        func pct(_ value: Double?, digits: Int, scale: Double = 1) -> String {
            value.map { String(format: "%.\(digits)f", $0 * scale) } ?? "-"
        }
        let seasonLabel = Season(report.season).map(\.description) ?? report.season
        var table: TextTable
        if report.isGoalie {
            table = TextTable(
                columns: ["", "GP", "GS", "W", "L", "OT", "GAA", "SV%", "SO"].enumerated().map {
                    .init($0.element, $0.offset == 0 ? .left : .right, dropRank: ["GS": 1, "SO": 2, "OT": 3][$0.element])
                })
            for (label, stats) in [(seasonLabel, report.seasonStats), ("Career", report.careerStats)] {
                table.add([
                    label, dash(stats?.gamesPlayed), dash(stats?.gamesStarted), dash(stats?.wins), dash(stats?.losses),
                    dash(stats?.otLosses), pct(stats?.goalsAgainstAverage, digits: 2), pct(stats?.savePct, digits: 3),
                    dash(stats?.shutouts),
                ])
            }
        } else {
            // When the terminal is narrow, the rarer numbers go first.
            let dropRanks = ["SHG": 1, "GWG": 2, "PPG": 3, "PIM": 4, "S%": 5, "S": 6, "TOI/GP": 7, "+/-": 8]
            table = TextTable(
                columns: ["", "GP", "G", "A", "P", "+/-", "PIM", "PPG", "SHG", "GWG", "S", "S%", "TOI/GP"].enumerated().map {
                    .init($0.element, $0.offset == 0 ? .left : .right, dropRank: dropRanks[$0.element])
                })
            for (label, stats) in [(seasonLabel, report.seasonStats), ("Career", report.careerStats)] {
                let plusMinus = stats?.plusMinus.map { $0 > 0 ? "+\($0)" : String($0) } ?? "-"
                table.add([
                    label, dash(stats?.gamesPlayed), dash(stats?.goals), dash(stats?.assists), dash(stats?.points), plusMinus,
                    dash(stats?.penaltyMinutes), dash(stats?.powerPlayGoals), dash(stats?.shorthandedGoals), dash(stats?.gameWinningGoals),
                    dash(stats?.shots), pct(stats?.shootingPct, digits: 1, scale: 100), stats?.timeOnIcePerGame ?? "-",
                ])
            }
        }
        lines.append(table.render(width: width, style: style))
        if !report.lastGames.isEmpty {
            lines.append("")
            var games: TextTable
            if report.isGoalie {
                games = TextTable(columns: [
                    .init("Last 5"), .init("Game"), .init("Dec"), .init("GA", .right), .init("SV%", .right), .init("TOI", .right),
                ])
                for game in report.lastGames {
                    games.add([
                        game.date ?? "", game.opponent, game.decision ?? "-", dash(game.goalsAgainst), pct(game.savePct, digits: 3),
                        game.timeOnIce ?? "-",
                    ])
                }
            } else {
                games = TextTable(columns: [
                    .init("Last 5"), .init("Game"), .init("G", .right), .init("A", .right), .init("P", .right),
                    .init("+/-", .right, dropRank: 3), .init("S", .right, dropRank: 2), .init("TOI", .right, dropRank: 1),
                ])
                for game in report.lastGames {
                    games.add([
                        game.date ?? "", game.opponent, dash(game.goals), dash(game.assists), dash(game.points),
                        game.plusMinus.map { $0 > 0 ? "+\($0)" : String($0) } ?? "-", dash(game.shots), game.timeOnIce ?? "-",
                    ])
                }
            }
            lines.append(games.render(width: width, style: style))
        }
        return lines.joined(separator: "\n")
    }

    public func playoffs(_ report: PlayoffsReport) -> String {
        let season = Season(report.season).map(\.description) ?? report.season
        var lines: [String] = [style.bold("\(report.year) Stanley Cup Playoffs (\(season))")]
        // A followed team: bold, on its colour.
        func name(_ team: PlayoffsReport.Team?) -> TextTable.Cell {
            guard let team else { return TextTable.Cell("TBD") }
            let text = team.seed.map { "\(team.abbrev) (\($0))" } ?? team.abbrev
            guard team.followed else { return TextTable.Cell(text) }
            let color = TeamFactsTable.facts(for: team.abbrev)?.primary
            return TextTable.Cell(text, style: { [style] text in color.map { style.onColor(style.bold(text), $0) } ?? style.bold(text) })
        }
        if report.hasBracket {
            for round in report.rounds {
                lines.append("")
                lines.append(style.bold(round.title))
                var table = TextTable(columns: [
                    .init(""), .init("Top seed"), .init("", .right), .init("Bottom seed"),
                    .init("Series", shrinkable: true, minimumWidth: 8),
                ])
                for series in round.series {
                    let wins = series.top != nil && series.bottom != nil ? "\(series.top?.wins ?? 0)–\(series.bottom?.wins ?? 0)" : ""
                    table.add([
                        TextTable.Cell(series.letter ?? ""), name(series.top), TextTable.Cell(wins), name(series.bottom),
                        TextTable.Cell(series.text),
                    ])
                }
                lines += table.render(width: width.map { $0 - 2 }, style: style, header: false).split(separator: "\n").map { "  \($0)" }
            }
            if let champion = report.champion {
                lines.append("")
                lines.append("Champion: " + style.bold(TeamFactsTable.facts(for: champion)?.fullName ?? champion))
            }
        } else {
            lines.append("")
            var line = "No bracket yet."
            if let ends = report.regularSeasonEnds, let date = try? Date("\(ends)T12:00:00Z", strategy: .iso8601) {
                line += " The playoffs start after the regular season ends on \(time.day(date))."
            }
            lines.append(line)
        }
        if let race = report.race {
            lines.append("")
            let clinch =
                switch race.clinch {
                case "x": " (clinched a playoff spot)"
                case "y": " (clinched the division)"
                case "z": " (clinched the conference)"
                case "p": " (clinched the Presidents' Trophy)"
                case "e": " (eliminated)"
                default: ""
                }
            lines.append("\(style.bold(race.team)): \(race.position)\(clinch)")
        }
        if let run = report.run, report.hasBracket || !run.series.isEmpty {
            lines.append("")
            lines.append("\(style.bold(run.name)): \(run.text)")
            for series in run.series {
                lines.append("  \(series.title) vs \(series.opponent)\(series.opponentSeed.map { " (\($0))" } ?? ""): \(series.text)")
                var table = TextTable(columns: [
                    .init("Game"), .init("Date"), .init(""), .init("Score", .right), .init(""),
                    .init("Result", shrinkable: true, minimumWidth: 4),
                ])
                for game in series.games {
                    let day = game.start.flatMap { try? Date($0, strategy: .iso8601) }.map(time.day) ?? game.date ?? ""
                    let place = game.homeOrAway.map { $0 == "home" ? "vs \(series.opponent)" : "@ \(series.opponent)" } ?? ""
                    let result: TextTable.Cell =
                        switch game.result {
                        case "W"?: TextTable.Cell("W", style: { [style] in style.good($0) })
                        case "L"?: TextTable.Cell("L", style: { [style] in style.bad($0) })
                        default: TextTable.Cell(game.status == "final" ? "" : game.status)
                        }
                    table.add([
                        TextTable.Cell("G\(game.number)"), TextTable.Cell(day), TextTable.Cell(place), TextTable.Cell(game.score ?? ""),
                        TextTable.Cell(game.endedIn.flatMap { $0 == "REG" ? nil : $0 } ?? ""), result,
                    ])
                }
                lines += table.render(width: width.map { $0 - 4 }, style: style, header: false).split(separator: "\n").map { "    \($0)" }
            }
        }
        return lines.joined(separator: "\n")
    }
}
