import FaceoffNHL
import Foundation

/// The compact live scoreboard `watch`, `replay` and `demo` draw on a terminal: the score
/// line, the state of play, and the latest alerts under it.
public struct LiveScoreboard: Sendable {
    public let style: TerminalStyle

    public init(style: TerminalStyle) { self.style = style }

    /// - Parameter footer: a line under the alerts (watch's delay and keys).
    /// - Parameter height: the terminal's rows: the alerts fill what the score lines leave.
    public func render(_ snapshot: GameSnapshot, recent: [String], width: Int?, height: Int? = nil, footer: String? = nil) -> String {
        let away = snapshot.away
        let home = snapshot.home
        func team(_ side: GameSnapshot.Side) -> String {
            let text = " \(side.abbrev) \(side.score) "
            guard let color = TeamFactsTable.facts(for: side.abbrev)?.primary else { return style.bold(text) }
            return style.onColor(text, color)
        }
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
        var lines = ["\(team(away)) @ \(team(home))   " + state.joined(separator: " · ")]
        lines.append(String(repeating: "─", count: min(width ?? 60, 60)))
        // The rows left under the score, the rule and the footer (and a spare one for the cursor).
        let rows = height.map { max(3, $0 - 3 - (footer == nil ? 0 : 2)) } ?? 12
        for line in recent.suffix(rows) {
            lines.append(width.map { DisplayWidth.shorten(line, to: $0) } ?? line)
        }
        if let footer {
            lines.append(String(repeating: "─", count: min(width ?? 60, 60)))
            lines.append(width.map { DisplayWidth.truncate(footer, to: $0) } ?? footer)
        }
        return lines.joined(separator: "\n")
    }
}
