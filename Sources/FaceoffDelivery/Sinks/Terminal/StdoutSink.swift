import FaceoffKit
import Foundation
import Synchronization

/// Alerts on standard output: one line per event (text, coloured on a terminal, or JSON
/// lines, flushed per line), or on a terminal a scoreboard redrawn in place.
public final class StdoutSink: Sink {
    public let name: String
    public let format: SinkConfig.Format
    let renderer: Renderer
    let style: TerminalStyle
    let scoreboard: LiveScoreboard?
    let write: @Sendable (String) -> Void
    private let recent = Mutex<[[String]]>([])
    private let last = Mutex<LiveScoreboard.Line?>(nil)
    private let footer = Mutex<String?>(nil)
    private let drawing = Mutex(())

    /// - Parameters:
    ///   - scoreboard: draw the scoreboard instead of lines (text on a terminal only).
    ///   - write: where lines go; standard output unless a test says otherwise.
    public init(
        name: String = "stdout", format: SinkConfig.Format, renderer: Renderer, style: TerminalStyle = .plain, scoreboard: Bool = false,
        write: @escaping @Sendable (String) -> Void = StdoutSink.standardOutput
    ) {
        self.name = name
        self.format = format
        self.renderer = renderer
        self.style = style
        self.scoreboard = scoreboard && format == .text ? LiveScoreboard(style: style) : nil
        self.write = write
    }

    public static let standardOutput: @Sendable (String) -> Void = { line in
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    public func send(_ event: GameEvent) async -> Delivery {
        emit(event)
        return .delivered("")
    }

    public func emit(_ event: GameEvent) {
        if let scoreboard {
            let forms = renderer.terminalForms(event)
            recent.withLock { $0.append(forms) }
            if let line = last.withLock({ $0 }) { redraw(scoreboard, line) }
            return
        }
        let text = renderer.text(event)
        switch format {
        case .jsonl: write(EventJSON(event, text: text).encoded())
        case .text: write(colored(event, text))
        }
    }

    /// The game as it stands, any league's, for the scoreboard.
    public func snapshot(_ snapshot: some LiveSnapshot) {
        if let scoreboard { show(snapshot.scoreboardLine(scoreboard)) }
    }

    private func show(_ line: LiveScoreboard.Line) {
        last.withLock { $0 = line }
        if let scoreboard { redraw(scoreboard, line) }
    }

    /// Whether it draws the scoreboard (text on a terminal).
    public var drawsScoreboard: Bool { scoreboard != nil }

    /// A line under the scoreboard (the delay in effect, the keys), redrawn at once.
    public func setFooter(_ text: String?) {
        footer.withLock { $0 = text }
        if let scoreboard, let line = last.withLock({ $0 }) { redraw(scoreboard, line) }
    }

    /// A line that is not an alert ("Next: ..."): on stderr when stdout carries JSON lines.
    public func note(_ text: String) {
        if scoreboard == nil, format == .jsonl { FileHandle.standardError.write(Data((text + "\n").utf8)) } else { write(text) }
    }

    private func colored(_ event: GameEvent, _ text: Renderer.Text) -> String {
        guard style.isEnabled else { return text.line }
        var line = ""
        if let team = event.team, let color = event.leagueDefinition.team(team)?.primary {
            line += style.onColor(" \(team) ", color) + " "
        }
        line += style.bold(text.title)
        if !text.body.isEmpty { line += "  " + text.body }
        return line
    }

    private func redraw(_ scoreboard: LiveScoreboard, _ line: LiveScoreboard.Line) {
        // One frame at a time, from what is current when it is drawn: an older frame (a
        // snapshot, an alert and the footer redraw from different tasks) is never the last.
        drawing.withLock { _ in
            let lines = recent.withLock { $0 }
            let current = last.withLock { $0 } ?? line
            // Home, clear the screen, draw: "updates in place" in a tmux pane.
            write(
                "\u{1B}[H\u{1B}[2J"
                    + scoreboard.render(
                        current, recent: lines, width: terminalWidth(), height: terminalHeight(), footer: footer.withLock { $0 }))
        }
    }
}
