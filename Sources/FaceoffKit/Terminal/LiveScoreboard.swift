import FaceoffBase
import FaceoffNHL
import Foundation

/// The compact live scoreboard `watch`, `replay` and `demo` draw on a terminal: the score
/// line, the state of play, and the latest alerts under it.
public struct LiveScoreboard: Sendable {
    /// What the top line shows of a game at one poll, whatever its league.
    public struct Line: Sendable {
        public struct Side: Sendable {
            public var abbrev: String
            public var score: Int
            /// The team's colour, where Faceoff knows it (the NHL's).
            public var color: RGB?
        }

        public var away: Side
        public var home: Side
        /// "2nd 12:34 left", "Shots 18–24", "TOR PP 5v4" (styled already).
        public var state: [String]
    }

    public let style: TerminalStyle

    public init(style: TerminalStyle) { self.style = style }

    /// A hockey game's line: period and clock or intermission, shots, power plays, empty nets.
    public func line(_ snapshot: GameSnapshot) -> Line {
        let away = snapshot.away
        let home = snapshot.home
        var state: [String] = []
        if snapshot.isFinal {
            state.append(snapshot.finalLabel ?? "Final")
        } else if snapshot.clock?.inIntermission == true {
            state.append(
                "End of \(snapshot.period?.label ?? "period")" + (snapshot.clock?.timeRemaining.map { " · intermission \($0)" } ?? ""))
        } else if snapshot.isLive {
            // The game clock counts down: its time is what is left.
            state.append(
                [snapshot.period?.label, snapshot.clock?.timeRemaining.map { "\($0) left" }].compactMap { $0 }.joined(separator: " "))
        } else {
            state.append("Not started")
        }
        if let awayShots = away.shots, let homeShots = home.shots { state.append("Shots \(awayShots)–\(homeShots)") }
        if snapshot.isLive, let code = snapshot.currentSituation {
            if code.awayPowerPlay { state.append(style.bold("\(away.abbrev) PP \(code.awayBase)v\(code.homeBase)")) }
            if code.homePowerPlay { state.append(style.bold("\(home.abbrev) PP \(code.homeBase)v\(code.awayBase)")) }
            if code.awayNetEmpty { state.append(style.bold("\(away.abbrev) EN")) }
            if code.homeNetEmpty { state.append(style.bold("\(home.abbrev) EN")) }
        }
        func side(_ side: GameSnapshot.Side) -> Line.Side {
            Line.Side(abbrev: side.abbrev, score: side.score, color: TeamFactsTable.facts(for: side.abbrev)?.primary)
        }
        return Line(away: side(away), home: side(home), state: state)
    }

    /// A basketball game's line: the quarter and the time left, halftime, the final.
    public func line(_ snapshot: NBASnapshot) -> Line {
        var state: [String] = []
        if let final = snapshot.finalLabel {
            state.append(final)
        } else if snapshot.statusName == "STATUS_HALFTIME" {
            state.append("Halftime")
        } else if snapshot.atBreak, let period = snapshot.period {
            state.append("End of \(NBAPeriod.label(period))")
        } else if snapshot.isLive {
            state.append(
                [snapshot.period.map(NBAPeriod.label), snapshot.clock.map { "\($0) left" }].compactMap { $0 }.joined(separator: " "))
        } else {
            state.append("Not started")
        }
        return Line(
            away: .init(abbrev: snapshot.away.abbrev, score: snapshot.away.score, color: nil),
            home: .init(abbrev: snapshot.home.abbrev, score: snapshot.home.score, color: nil), state: state)
    }

    public func render(_ snapshot: GameSnapshot, recent: [[String]], width: Int?, height: Int? = nil, footer: String? = nil) -> String {
        render(line(snapshot), recent: recent, width: width, height: height, footer: footer)
    }

    /// - Parameter recent: the alerts, each in its forms from the fullest to the narrowest.
    /// - Parameter footer: a line under the alerts (watch's delay and keys).
    /// - Parameter height: the terminal's rows: the alerts fill what the score lines leave.
    public func render(_ line: Line, recent: [[String]], width: Int?, height: Int? = nil, footer: String? = nil) -> String {
        func team(_ side: Line.Side) -> String {
            let text = " \(side.abbrev) \(side.score) "
            guard let color = side.color else { return style.bold(text) }
            return style.onColor(text, color)
        }
        var lines = ["\(team(line.away)) @ \(team(line.home))   " + line.state.joined(separator: " · ")]
        lines.append(String(repeating: "─", count: min(width ?? 60, 60)))
        // The rows left under the score, the rule and the footer (and a spare one for the cursor).
        let rows = height.map { max(3, $0 - 3 - (footer == nil ? 0 : 2)) } ?? 12
        for forms in recent.suffix(rows) {
            lines.append(width.map { DisplayWidth.fit(forms, to: $0) } ?? forms.first ?? "")
        }
        if let footer {
            lines.append(String(repeating: "─", count: min(width ?? 60, 60)))
            lines.append(width.map { DisplayWidth.truncate(footer, to: $0) } ?? footer)
        }
        return lines.joined(separator: "\n")
    }
}
