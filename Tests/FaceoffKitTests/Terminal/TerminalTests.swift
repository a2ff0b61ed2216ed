import FaceoffBase
import Foundation
import Testing

@testable import FaceoffDelivery
@testable import FaceoffKit
@testable import FaceoffNHL

@Suite(.timeLimit(.minutes(5))) struct TerminalTests {
    @Test func displayWidthCountsColumnsNotBytes() {
        #expect(DisplayWidth.of("Montréal") == 8)
        #expect(DisplayWidth.of("Slafkovský") == 10)
        // e + combining acute accent is one column.
        #expect(DisplayWidth.of("Montre\u{301}al") == 8)
        #expect(DisplayWidth.of("東京") == 4)
        #expect(DisplayWidth.of("\u{1B}[1mTOR\u{1B}[0m") == 3)
    }

    @Test func truncationEndsInAnEllipsis() {
        #expect(DisplayWidth.truncate("Scotiabank Arena", to: 8) == "Scotiab…")
        #expect(DisplayWidth.truncate("TOR", to: 8) == "TOR")
        #expect(DisplayWidth.truncate("Slafkovský", to: 9) == "Slafkovs…")
    }

    @Test func tablesAlignAccentedNamesAndFitTheWidth() {
        var table = TextTable(columns: [.init("Name", shrinkable: true), .init("G", .right)])
        table.add(["Juraj Slafkovský", "12"])
        table.add(["Nick Suzuki", "9"])
        let lines = table.render().split(separator: "\n").map(String.init)
        #expect(lines.map(DisplayWidth.of) == [20, 20, 20])
        #expect(lines[1].hasSuffix("12") && lines[2].hasSuffix(" 9"))

        let narrow = table.render(width: 12).split(separator: "\n").map(String.init)
        #expect(narrow.allSatisfy { DisplayWidth.of($0) <= 12 })
        #expect(narrow[1].contains("…"))
    }

    /// A column dropped for want of room gives its room back to the columns cut before it.
    @Test func aDroppedColumnGivesItsRoomBack() {
        var table = TextTable(columns: [.init("Game"), .init("Venue", dropRank: 1), .init("Score", shrinkable: true, minimumWidth: 4)])
        table.add(["@ HOU", "Toyota Center (Houston)", "112–108 OT"])
        let lines = table.render(width: 20).split(separator: "\n").map(String.init)
        #expect(lines == ["Game   Score", "@ HOU  112–108 OT"])
    }

    /// The columns that may go are cut and dropped before a column that stays is cut: a
    /// team's name stays whole while a streak or a venue is still shown.
    @Test func aColumnThatMayGoGoesBeforeANameIsCut() {
        var table = TextTable(columns: [
            .init("Team", shrinkable: true, minimumWidth: 3), .init("W", .right),
            .init("Arena", shrinkable: true, minimumWidth: 4, dropRank: 2),
            .init("STRK", dropRank: 1),
        ])
        table.add(["Detroit Pistons", "60", "Little Caesars Arena", "W3"])
        #expect(table.render(width: 40).split(separator: "\n").last == "Detroit Pistons  60  Little Caesa…  W3")
        #expect(table.render(width: 30).split(separator: "\n").last == "Detroit Pistons  60  Little C…")
        #expect(table.render(width: 20).split(separator: "\n").last == "Detroit Pistons  60")
        #expect(table.render(width: 12).split(separator: "\n").last == "Detroit…  60")
    }

    @Test func colourOnlyWhenWanted() {
        #expect(TerminalStyle.detect(noColorFlag: true, environment: [:], isTerminal: true) == .plain)
        #expect(TerminalStyle.detect(noColorFlag: false, environment: ["NO_COLOR": "1"], isTerminal: true) == .plain)
        #expect(TerminalStyle.detect(noColorFlag: false, environment: [:], isTerminal: false) == .plain)
        #expect(TerminalStyle.detect(noColorFlag: false, environment: ["COLORTERM": "truecolor"], isTerminal: true).mode == .truecolor)
        #expect(TerminalStyle.detect(noColorFlag: false, environment: ["TERM": "xterm-256color"], isTerminal: true).mode == .ansi256)
        #expect(TerminalStyle.plain.paint("x", foreground: .white) == "x")
    }

    @Test func teamColoursKeepTextReadable() {
        let truecolor = TerminalStyle(mode: .truecolor)
        // Maple Leafs navy gets white text; Bruins gold gets black.
        #expect(truecolor.onColor("TOR", RGB(hex: "#00205B")) == "\u{1B}[38;2;255;255;255;48;2;0;32;91mTOR\u{1B}[0m")
        #expect(truecolor.onColor("BOS", RGB(hex: "#FFB81C")).hasPrefix("\u{1B}[38;2;0;0;0;"))
        #expect(TerminalStyle.xterm256(RGB(hex: "#FF0000")) == 196)
        #expect(TerminalStyle.xterm256(RGB(hex: "#808080")) == 244)
        #expect(TerminalStyle(mode: .ansi256).paint("x", background: RGB(hex: "#FF0000")) == "\u{1B}[48;5;196mx\u{1B}[0m")
    }
}

/// Alert lines in a 100-column pane: emoji are two columns, a long line gives up its names,
/// not its score and time, and the scoreboard fills the pane's height.
@Suite(.timeLimit(.minutes(5))) struct TerminalLayoutTests {
    @Test func emojiAreTwoColumns() {
        for emoji in ["🚨", "❌", "✅", "🥅", "⚠️", "✏️", "🎬"] { #expect(DisplayWidth.of(emoji) == 2, "\(emoji)") }
        #expect(DisplayWidth.of("é") == 1)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("大") == 2)
    }

    @Test func aLongLineShortensItsMiddle() {
        let line = "🚨 Maple Leafs goal!  A. Matthews (34) from M. Marner, M. Rielly, W. Nylander, J. Tavares · PP · MTL 1–2 TOR · 2nd 12:34"
        let short = DisplayWidth.shorten(line, to: 80)
        #expect(DisplayWidth.of(short) <= 80, "\(short)")
        #expect(short.hasSuffix(" · MTL 1–2 TOR · 2nd 12:34"), "\(short)")
        #expect(short.hasPrefix("🚨 Maple Leafs goal!"))
        #expect(DisplayWidth.shorten("short · line · here", to: 80) == "short · line · here")
    }

    @Test func theScoreboardUsesTheHeightItHas() throws {
        let feed = try Replays.load(TestPaths.mirror.appendingPathComponent("gamecenter/2025020100/play-by-play"))
        let recent = (1...40).map { ["line \($0) · MTL 1–2 TOR · 2nd 12:34"] }
        let tall = LiveScoreboard(style: .plain).render(GameSnapshot(feed), recent: recent, width: 100, height: 30)
        #expect(tall.split(separator: "\n").count == 29, "\(tall)")
        #expect(tall.contains("line 40 ·") && !tall.contains("line 13 ·"))
        let unknown = LiveScoreboard(style: .plain).render(GameSnapshot(feed), recent: recent, width: 100)
        #expect(unknown.split(separator: "\n").count == 14)
    }

    /// A game joined after it ended says Final (no "3rd 00:00 left"); the scoreboard too.
    @Test func aFinishedGameSaysFinal() throws {
        let feed = try Replays.load(TestPaths.mirror.appendingPathComponent("gamecenter/2025020100/play-by-play"))
        var detector = EventDetector()
        let joined = detector.join(GameSnapshot(feed))
        let line = Renderer.builtIn.line(joined)
        #expect(line.contains(" · Final") && !line.contains("left"), "\(line)")
        #expect(FinalLabel.text("OT") == "Final/OT" && FinalLabel.text("REG") == "Final" && FinalLabel.text("SO") == "Final/SO")
        let board = LiveScoreboard(style: .plain).render(GameSnapshot(feed), recent: [], width: 100)
        #expect(board.contains("Final") && !board.contains("(REG)"), "\(board)")
    }
}
