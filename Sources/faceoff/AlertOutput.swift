import ArgumentParser
import FaceoffKit
import Foundation
import Synchronization

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, jsonl
}

/// Where `watch`, `replay` and `demo` put alerts: a scoreboard redrawn in place on a
/// terminal, one line per event otherwise (text or JSON lines, flushed per line).
final class AlertOutput: Sendable {
    let format: OutputFormat
    let scoreboard: LiveScoreboard?
    private let recent = Mutex<[GameEvent]>([])
    private let last = Mutex<GameSnapshot?>(nil)

    init(format: OutputFormat, noColor: Bool) {
        self.format = format
        let style = TerminalStyle.detect(noColorFlag: noColor)
        // The scoreboard only where it can be redrawn: a terminal, in text mode.
        scoreboard = format == .text && isatty(STDOUT_FILENO) == 1 ? LiveScoreboard(style: style) : nil
    }

    func deliver(_ event: GameEvent) {
        recent.withLock { $0.append(event) }
        if let scoreboard {
            if let snapshot = last.withLock({ $0 }) { redraw(scoreboard, snapshot) }
            return
        }
        switch format {
        case .jsonl: emit(EventJSON(event).encoded())
        case .text: emit(EventText.line(event))
        }
    }

    func snapshot(_ snapshot: GameSnapshot) {
        last.withLock { $0 = snapshot }
        if let scoreboard { redraw(scoreboard, snapshot) }
    }

    func note(_ text: String) {
        if scoreboard == nil, format == .jsonl { printError(text) } else { emit(text) }
    }

    private func redraw(_ scoreboard: LiveScoreboard, _ snapshot: GameSnapshot) {
        let events = recent.withLock { $0 }
        // Home, clear the screen, draw: "updates in place" in a tmux pane.
        emit("\u{1B}[H\u{1B}[2J" + scoreboard.render(snapshot, recent: events, width: terminalWidth()))
    }

    private func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// Plays a finished game's feed as if live through the detector, at `speed` times real time.
struct ReplayRunner {
    let replay: ReplayFeed
    let speed: Double
    let fromPeriod: Int?
    let output: AlertOutput

    func run() async throws {
        var detector = EventDetector()
        var index = 1
        if let fromPeriod, fromPeriod > 1 {
            index = max(1, replay.firstIndex(ofPeriod: fromPeriod))
            let joined = detector.join(GameSnapshot(replay.prefix(index)))
            output.snapshot(GameSnapshot(replay.prefix(index)))
            output.deliver(joined)
            index += 1
        }
        var previousSeconds = index > 1 ? replay.gameSeconds(index - 2) : 0
        while index <= replay.count {
            let seconds = replay.gameSeconds(index - 1)
            // Game time between plays, sped up; a long gap (an intermission) counts as 20 s.
            let gap = Double(min(max(0, seconds - previousSeconds), 20))
            if gap > 0, speed.isFinite { try await Task.sleep(for: .milliseconds(Int(gap / speed * 1000))) }
            previousSeconds = seconds
            let snapshot = GameSnapshot(replay.prefix(index))
            let events = detector.process(snapshot).events
            output.snapshot(snapshot)
            for event in events { output.deliver(event) }
            index += 1
        }
    }
}
