import FaceoffBase
import FaceoffKit
import FaceoffNHL
import Foundation

/// Text for the fan commands: tables sized to the terminal, team colours where they help.
public struct FanText: Sendable {
    public let style: TerminalStyle
    public let width: Int?
    public let time: LocalTime

    public init(style: TerminalStyle, width: Int?, time: LocalTime) {
        self.style = style
        self.width = width
        self.time = time
    }

    func dash(_ value: Int?) -> String { value.map(String.init) ?? "-" }

    /// The first column's mark on a followed team's row (standings, scores): it survives a
    /// narrow terminal and no colour, and is none of the leagues' clinch marks (ESPN's `*`).
    static let followedMark = "▸"

    /// Joins short items into lines no wider than the terminal.
    func wrap(_ items: [String], separator: String) -> [String] {
        var lines: [String] = []
        var current = ""
        for item in items {
            let candidate = current.isEmpty ? item : current + separator + item
            if let width, !current.isEmpty, DisplayWidth.of(candidate) > width {
                lines.append(current)
                current = item
            } else {
                current = candidate
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines.map { line in width.map { DisplayWidth.truncate(line, to: $0) } ?? line }
    }

    private func result(_ game: GameSummary) -> String {
        guard let result = game.result else { return "" }
        return result == "W" ? style.good(result) : style.bad(result)
    }

    private func when(_ game: GameSummary) -> (day: String, time: String) {
        // No time at all (an NBA game ESPN has not timed yet): its day, as the other rows'.
        guard let start = game.startDate else { return (game.date.flatMap(CalendarDay.init(iso:))?.shortText ?? game.date ?? "?", "TBD") }
        return (time.day(start), game.timeTBD ? "TBD" : time.time(start))
    }

    private func statusNote(_ game: GameSummary) -> String {
        switch game.status {
        case "cancelled": return "CANCELLED"
        case "postponed": return "POSTPONED"
        default: return game.timeTBD ? "time TBD" : ""
        }
    }

    public func schedule(_ report: ScheduleReport) -> String {
        guard !report.games.isEmpty else { return "No games." }
        // A playoff game's round, in a column of its own when the schedule has one.
        let rounds = report.games.contains { $0.round != nil }
        var table = TextTable(
            columns: [
                .init("Date"), .init("Time"), .init("Game", shrinkable: true, minimumWidth: 6),
            ] + (rounds ? [.init("Round", dropRank: 2)] : []) + [
                .init("Venue", shrinkable: true, minimumWidth: 6, dropRank: 1),
                .init("Result", shrinkable: true, minimumWidth: 4), .init("Score / TV", shrinkable: true, minimumWidth: 6),
            ])
        for game in report.games {
            let (day, clock) = when(game)
            var resultCell = TextTable.Cell("")
            var detail = ""
            switch game.status {
            case "final":
                resultCell = TextTable.Cell(
                    game.result ?? "",
                    style: { [style] text in
                        text.hasPrefix("W") ? style.good(text) : style.bad(text)
                    })
                detail = game.scoreText ?? ""
            case "live":
                resultCell = TextTable.Cell("LIVE", style: { [style] text in style.bold(text) })
                detail = game.scoreText ?? ""
            case "scheduled":
                // A time not set yet is said in the Time column (TBD): the TV is what is left.
                detail = game.networksText
                // A game the series may not need says so where a result will be.
                if game.ifNecessary { resultCell = TextTable.Cell("if necessary", style: { [style] text in style.dim(text) }) }
            default:
                resultCell = TextTable.Cell(statusNote(game), style: { [style] text in style.dim(text) })
            }
            let home = game.homeOrAway == "home"
            let matchup = game.type == "preseason" ? "\(game.matchup) (pre)" : game.matchup
            let cells =
                [
                    TextTable.Cell(day), TextTable.Cell(clock),
                    TextTable.Cell(matchup, style: home ? { [style] text in style.bold(text) } : nil),
                ] + (rounds ? [TextTable.Cell(game.round ?? "")] : []) + [
                    TextTable.Cell(game.venue ?? ""), resultCell, TextTable.Cell(detail),
                ]
            table.add(cells)
        }
        let season = report.season.flatMap(Season.init).map { " \($0)" } ?? ""
        return "\(style.bold("\(report.team)\(season)")) · times \(report.timezone)\n" + table.render(width: width, style: style)
    }

    public func next(_ report: NextReport, now: Date) -> String {
        guard let game = report.game else { return "No games scheduled for \(report.team)." }
        var lines: [String] = []
        let away = "\(game.away.name) (\(game.away.abbrev)\(report.records[game.away.abbrev].map { " \($0)" } ?? ""))"
        let home = "\(game.home.name) (\(game.home.abbrev)\(report.records[game.home.abbrev].map { " \($0)" } ?? ""))"
        let (day, clock) = when(game)
        switch report.kind {
        case "live":
            lines.append(style.bold("LIVE  \(game.away.abbrev) \(game.away.score ?? 0) – \(game.home.score ?? 0) \(game.home.abbrev)"))
            if let live = report.live {
                var state = [live.period, live.inIntermission ? "intermission" : nil, live.clock].compactMap { $0 }.joined(separator: " ")
                if live.inIntermission, let period = live.period, let clock = live.clock {
                    state = "end of \(period) · intermission \(clock)"
                }
                lines.append(state)
                if let awayShots = live.awayShots, let homeShots = live.homeShots {
                    lines.append("Shots  \(game.away.abbrev) \(awayShots) – \(homeShots) \(game.home.abbrev)")
                }
                var markers: [String] = []
                if let team = live.powerPlay { markers.append("\(team) power play\(live.strength.map { " (\($0))" } ?? "")") }
                for team in live.emptyNet { markers.append("\(team) net empty") }
                if !markers.isEmpty { lines.append(style.bold(markers.joined(separator: " · "))) }
            }
            lines.append("\(away) @ \(home)")
        case "next":
            lines.append(style.bold("Next: \(away) @ \(home)"))
            var whenLine = "\(day) \(clock)"
            if clock != "TBD", let start = game.startDate { whenLine += " \(time.zoneAbbreviation(start))" }
            if let countdown = report.countdown { whenLine += " · \(countdown)" }
            if game.status == "postponed" { whenLine += " · POSTPONED" }
            lines.append(whenLine)
        default:
            lines.append(style.bold("No upcoming games. Last: \(away) @ \(home)"))
            lines.append(
                "\(day) · final \(game.away.abbrev) \(game.away.score ?? 0) – \(game.home.score ?? 0) \(game.home.abbrev)\(game.endedIn.flatMap { $0 == "REG" ? nil : " (\($0))" } ?? "")\(game.result.map { " · \($0)" } ?? "")"
            )
        }
        if let venue = game.venue { lines.append(venue) }
        if let round = game.roundLine { lines.append(round) }
        if report.kind != "last", !game.broadcasts.isEmpty {
            lines.append(
                "TV: " + game.broadcasts.map { "\($0.network) (\($0.market)\($0.country.map { " \($0)" } ?? ""))" }.joined(separator: ", "))
        }
        // The box score is the NHL's so far.
        if report.kind != "next", report.league == nil { lines.append(style.dim("Box score: faceoff game \(game.id)")) }
        return lines.joined(separator: "\n")
    }

    public func recent(_ report: RecentReport) -> String {
        guard !report.games.isEmpty else { return "No finished games yet for \(report.team)." }
        var table = TextTable(columns: [
            .init("Date"), .init("Game"), .init("Result"), .init("Score"), .init("Venue", shrinkable: true, minimumWidth: 6, dropRank: 1),
        ])
        for game in report.games {
            let day = game.startDate.map(time.day) ?? game.date ?? "?"
            table.add([
                TextTable.Cell(day), TextTable.Cell(game.type == "preseason" ? "\(game.matchup) (pre)" : game.matchup),
                TextTable.Cell(game.result ?? "", style: { [style] text in text.hasPrefix("W") ? style.good(text) : style.bad(text) }),
                TextTable.Cell(game.scoreText ?? ""), TextTable.Cell(game.venue ?? ""),
            ])
        }
        let last = report.league == nil ? report.games.first.map { "\n" + style.dim("Box score: faceoff game \($0.id)") } ?? "" : ""
        return table.render(width: width, style: style) + last
    }

    public func standings(_ report: StandingsReport) -> String {
        // The NHL's date of the table: its own day, whatever the user's zone.
        let asOf = report.date.flatMap { CalendarDay(iso: $0) }.map { "Standings as of \($0.text)" }
        var blocks: [String] = asOf.map { [$0] } ?? []
        var tables: [TextTable] = []
        for group in report.groups {
            // The first column marks followed teams, so the mark survives narrow terminals and no colour.
            var table = TextTable(columns: [
                .init(""), .init("#", .right), .init(group.name, shrinkable: true, minimumWidth: 3), .init("GP", .right),
                .init("W", .right), .init("L", .right), .init("OT", .right), .init("PTS", .right),
                .init("P%", .right, dropRank: 4), .init("DIFF", .right, dropRank: 3), .init("STRK", dropRank: 2), .init("L10", dropRank: 1),
            ])
            for (index, row) in group.rows.enumerated() {
                let name = (row.clinch.map { "\($0)-" } ?? "") + row.name
                let diff = row.goalDifferential > 0 ? "+\(row.goalDifferential)" : String(row.goalDifferential)
                let highlight: ((String) -> String)? = row.followed ? { [style] text in style.paint(text, bold: true) } : nil
                table.add(
                    [
                        row.followed ? Self.followedMark : "", String(row.rank), name, String(row.gamesPlayed), String(row.wins),
                        String(row.losses),
                        String(row.otLosses), String(row.points), String(format: "%.3f", row.pointPct), diff, row.streak ?? "",
                        row.lastTen ?? "",
                    ]
                    .map { TextTable.Cell($0) }, style: highlight)
                if let cutoff = group.cutoff, index + 1 == cutoff, group.rows.count > cutoff {
                    table.add(Array(repeating: "", count: 12).enumerated().map { $0.offset == 2 ? "────────" : $0.element })
                }
            }
            tables.append(table)
        }
        // One group under another, their columns in line.
        blocks += TextTable.aligned(tables).map { $0.render(width: width, style: style) }
        return blocks.joined(separator: "\n\n")
    }

    public func nbaStandings(_ report: NBAStandingsReport) -> String {
        var blocks: [String] = report.season.map { ["NBA standings \($0)"] } ?? []
        var tables: [TextTable] = []
        for group in report.groups {
            var table = TextTable(columns: [
                .init(""), .init("#", .right), .init(group.name, shrinkable: true, minimumWidth: 3), .init("W", .right), .init("L", .right),
                .init("PCT", .right), .init("GB", .right), .init("STRK", dropRank: 3), .init("L10", dropRank: 4),
                .init("HOME", dropRank: 2), .init("ROAD", dropRank: 1),
            ])
            for row in group.rows {
                let name = (row.clinch.map { "\($0)-" } ?? "") + row.name
                let highlight: ((String) -> String)? = row.followed ? { [style] text in style.paint(text, bold: true) } : nil
                table.add(
                    [
                        row.followed ? Self.followedMark : "", String(row.rank), name, String(row.wins), String(row.losses),
                        row.winPct ?? "-", row.gamesBehind ?? "-", row.streak ?? "", row.lastTen ?? "", row.home ?? "", row.road ?? "",
                    ]
                    .map { TextTable.Cell($0) }, style: highlight)
            }
            tables.append(table)
        }
        blocks += TextTable.aligned(tables).map { $0.render(width: width, style: style) }
        let used = Set(report.groups.flatMap { $0.rows.compactMap(\.clinch) })
        let legend = NBAStandingsReport.clinchMarks.filter { used.contains($0.mark) }.map { "\($0.mark) \($0.meaning)" }
        if !legend.isEmpty { blocks.append(wrap(legend, separator: " · ").map(style.dim).joined(separator: "\n")) }
        return blocks.joined(separator: "\n\n")
    }

    public func roster(_ report: RosterReport) -> String {
        var blocks: [String] = []
        for group in report.groups where !group.players.isEmpty {
            let isGoalies = group.name == "Goalies"
            // Hockey's shoots/catches; a league without it (the NBA) has no such column.
            let handed = group.players.contains { $0.handedness != nil }
            var columns: [TextTable.Column] = [.init("#", .right), .init(group.name, shrinkable: true, minimumWidth: 8), .init("Pos")]
            if handed { columns.append(.init(isGoalies ? "Catches" : "Shoots", dropRank: 4)) }
            columns += [
                .init("Age", .right), .init("Ht", .right, dropRank: 3), .init("Wt", .right, dropRank: 2),
                .init("Birthplace", shrinkable: true, minimumWidth: 10, dropRank: 1),
            ]
            var table = TextTable(columns: columns)
            for player in group.players {
                let height = player.heightInches.map { "\($0 / 12)'\($0 % 12)\"" } ?? "-"
                var cells = [dash(player.number), player.name, player.position ?? "-"]
                if handed { cells.append(player.handedness ?? "-") }
                cells += [dash(player.age), height, player.weightPounds.map { "\($0) lb" } ?? "-", player.birthplace ?? "-"]
                table.add(cells)
            }
            blocks.append(table.render(width: width, style: style))
        }
        guard !blocks.isEmpty else { return "No players on the \(report.team) roster." }
        return ([style.bold("\(report.team) roster")] + blocks).joined(separator: "\n\n")
    }

    public func teams(_ report: TeamsReport) -> String {
        var lines: [String] = [style.bold(report.league)]
        for conference in report.conferences {
            lines.append("")
            lines.append(style.bold("\(conference.name) Conference"))
            for division in conference.divisions {
                lines.append("  " + style.bold(division.name))
                var table = TextTable(columns: [
                    .init("Team"), .init("Name", shrinkable: true, minimumWidth: 8), .init("Arena", shrinkable: true, minimumWidth: 6),
                    .init("City", shrinkable: true, minimumWidth: 6), .init("Time zone", shrinkable: true, minimumWidth: 6),
                ])
                for team in division.teams {
                    let color = team.primaryColor.flatMap(RGB.init(parsing:))
                    table.add(
                        [team.abbrev, team.name, team.arena ?? "", team.city ?? "", team.timeZone ?? ""].map { TextTable.Cell($0) },
                        style: color.map { color in { [style] text in style.onColor(" \(text) ", color) } })
                }
                let rendered = table.render(width: width.map { $0 - 4 }, style: style, header: false)
                lines += rendered.split(separator: "\n").map { "  \($0)" }
            }
        }
        if report.source == "built-in" {
            lines.append("")
            lines.append(style.dim("(built-in team list: the API could not be reached and nothing is cached)"))
        }
        return lines.joined(separator: "\n")
    }
}
