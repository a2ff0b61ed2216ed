import Foundation
import Testing

@testable import FaceoffBase
@testable import FaceoffFan
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL

/// `faceoff playoffs`' report from the project's bracket fixtures (a finished one in the
/// mirror, one in progress) and the recorded MTL 2024-25 schedule.
@Suite(.timeLimit(.minutes(5))) struct PlayoffsReportTests {
    static let time = LocalTime(timeZone: TimeZone(identifier: "America/Toronto")!)
    static let now = Date(timeIntervalSince1970: 1_761_422_400)  // 2025-10-25 20:00 UTC

    static func bracket(_ path: URL) throws -> PlayoffBracket {
        try JSONDecoder().decode(PlayoffBracket.self, from: Data(contentsOf: path))
    }
    static var finished: PlayoffBracket { get throws { try bracket(TestPaths.mirror.appendingPathComponent("playoff-bracket/2025")) } }
    static var inProgress: PlayoffBracket {
        get throws { try bracket(TestPaths.fixtures.appendingPathComponent("playoffs/bracket-2026-in-progress.json")) }
    }
    static var mtlSchedule: ClubSchedule {
        get throws {
            try JSONDecoder().decode(
                ClubSchedule.self,
                from: Data(
                    contentsOf: RealFixtures.directory.appendingPathComponent(
                        "club-schedule-season_MTL_20242025_full-season-final.json")))
        }
    }

    static func report(
        _ bracket: PlayoffBracket?, season: String = "20242025", team: String? = nil, schedule: ClubSchedule? = nil,
        standings: Standings? = nil, ends: String? = nil, followed: [String] = []
    ) -> PlayoffsReport {
        PlayoffsReport(
            season: Season(season)!, bracket: bracket, team: team, schedule: schedule, standings: standings,
            regularSeasonEnds: ends, followed: followed, time: time, now: now)
    }

    @Test func aFinishedBracketHasFifteenSeriesAndAChampion() throws {
        let report = Self.report(try Self.finished, followed: ["MTL"])
        #expect(report.hasBracket && report.year == 2025)
        #expect(report.rounds.map(\.title) == ["1st Round", "2nd Round", "Conference Finals", "Stanley Cup Final"])
        #expect(report.rounds.map(\.series.count) == [8, 4, 2, 1])
        #expect(report.rounds.flatMap(\.series).allSatisfy { $0.state == "won" })
        #expect(report.champion == "FLA")
        let washington = try #require(report.rounds[0].series.first { $0.letter == "C" })
        #expect(washington.text == "WSH wins 4–1")
        #expect(washington.top?.seed == "M1" && washington.bottom?.seed == "WC2")
        #expect(washington.bottom?.followed == true && washington.top?.followed == false)
        // Bottom seed winning: the score is still written winner first.
        #expect(report.rounds[0].series.first { $0.letter == "B" }?.text == "FLA wins 4–1")
    }

    /// On a colour terminal a followed team is bold on its colour; other teams are plain.
    @Test func followedTeamsStandOutInTheBracket() throws {
        let report = Self.report(try Self.finished, followed: ["MTL"])
        let text = FanText(style: TerminalStyle(mode: .truecolor), width: nil, time: Self.time).playoffs(report)
        let montreal = try #require(TeamFactsTable.facts(for: "MTL")?.primary)
        let line = try #require(text.split(separator: "\n").first { $0.contains("WSH (M1)") && $0.contains("MTL") })
        #expect(line.contains("48;2;\(montreal.red);\(montreal.green);\(montreal.blue)m"), "\(line.debugDescription)")
        #expect(line.contains("\u{1B}[1m"))
        // A series without a followed team is not painted.
        let toronto = try #require(text.split(separator: "\n").first { $0.contains("TOR (A1)") && $0.contains("OTT") })
        #expect(!toronto.contains("\u{1B}["), "\(toronto.debugDescription)")
        let plain = FanText(style: .plain, width: nil, time: Self.time).playoffs(report)
        #expect(!plain.contains("\u{1B}["))
    }

    @Test func aBracketInProgressHasOpenSlotsAndATiedSeries() throws {
        let report = Self.report(try Self.inProgress, season: "20252026", team: "TOR")
        #expect(report.champion == nil)
        let second = try #require(report.rounds.first { $0.number == 2 })
        #expect(second.series.map(\.state) == ["tied", "leads", "upcoming", "won"])
        #expect(second.series.map(\.text) == ["series tied 3–3", "CAR leads 2–1", "not started", "VGK wins 4–1"])
        let finals = try #require(report.rounds.first { $0.number == 3 })
        #expect(finals.series.map(\.state) == ["tbd", "tbd"])
        #expect(finals.series[1].top?.abbrev == "VGK" && finals.series[1].bottom == nil)
        #expect(report.rounds.last?.series.first?.text == "to be decided")
        // In the bracket but without its club schedule: in the playoffs, nothing more known.
        #expect(report.run?.made == true)
    }

    @Test func beforeTheBracketTheRaceAndTheRegularSeasonsEnd() throws {
        let standings = try JSONDecoder().decode(
            Standings.self, from: Data(contentsOf: TestPaths.mirror.appendingPathComponent("standings/now")))
        let report = Self.report(nil, season: "20252026", team: "TOR", standings: standings, ends: "2026-04-16")
        #expect(!report.hasBracket && report.rounds.isEmpty)
        #expect(report.regularSeasonEnds == "2026-04-16")
        #expect(report.race?.position == "1st in the Atlantic")
        #expect(report.run?.made == nil)
        // A team outside the top three of its division is placed in the wild-card race.
        let wildcard = StandingsReport(standings: standings, by: .wildcard, followed: [])
        let eastern = try #require(wildcard.groups.first { $0.name == "Eastern Wild Card" })
        let third = eastern.rows[2]
        let race = try #require(Self.report(nil, season: "20252026", team: third.abbrev, standings: standings).race)
        let behind = eastern.rows[1].points - third.points
        #expect(race.position == "\(behind) point\(behind == 1 ? "" : "s") behind WC2 in the Eastern Conference")
        #expect(
            Self.report(nil, season: "20252026", team: eastern.rows[0].abbrev, standings: standings).race?.position
                == "WC1 in the Eastern Conference")
    }

    @Test(.enabled(if: RealFixtures.available, "../shared/nhl-api/fixtures not present"))
    func montrealsRunFromTheRecordedSchedule() throws {
        let report = Self.report(try Self.finished, team: "MTL", schedule: try Self.mtlSchedule)
        let run = try #require(report.run)
        #expect(run.made == true)
        #expect(run.text == "out in the 1st Round, 1–4 against WSH")
        let series = try #require(run.series.first)
        #expect(run.series.count == 1)
        #expect(series.opponent == "WSH" && series.opponentSeed == "M1" && series.state == "lost" && series.text == "lost 1–4")
        #expect(series.games.map(\.number) == [1, 2, 3, 4, 5])
        #expect(series.games.map(\.score) == ["2–3", "1–3", "6–3", "2–5", "1–4"])
        #expect(series.games.map(\.result) == ["L", "L", "W", "L", "L"])
        #expect(series.games.map(\.endedIn) == ["OT", "REG", "REG", "REG", "REG"])
        #expect(series.games.map(\.homeOrAway) == ["away", "away", "home", "home", "away"])
        #expect(series.games.map(\.date) == ["2025-04-21", "2025-04-23", "2025-04-25", "2025-04-27", "2025-04-30"])
        // With the game's play-by-play saying it took two overtimes: 2OT.
        let told = PlayoffsReport(
            season: Season("20242025")!, bracket: try Self.finished, team: "MTL", schedule: try Self.mtlSchedule, standings: nil,
            regularSeasonEnds: nil, followed: [], time: Self.time, now: Self.now, overtimes: [2024030131: "2OT"])
        #expect(told.run?.series.first?.games.first?.endedIn == "2OT")
    }

    /// A series under way: the games it may still need are listed, those past the certain
    /// ones "if necessary"; a scheduled game a finished series didn't need is "not needed".
    @Test(.enabled(if: RealFixtures.available, "../shared/nhl-api/fixtures not present"))
    func gamesStillPossibleAreMarkedIfNecessary() throws {
        var schedule = try Self.mtlSchedule
        // As it stood after game 3 (MTL down 1–2), with games 4 and 5 on the schedule.
        schedule.games = schedule.games?.map { game in
            var game = game
            guard game.gameType == .playoffs, let number = game.seriesStatus?.gameNumberOfSeries, number > 3 else { return game }
            game.gameState = .fut
            game.awayTeam?.score = nil
            game.homeTeam?.score = nil
            game.gameOutcome = nil
            return game
        }
        let series = try #require(Self.report(try Self.inProgress, team: "MTL", schedule: schedule).run?.series.first)
        #expect(series.state == "trails" && series.text == "trails 1–2")
        // Game 5 is certain (WSH needs two more); 6 and 7 only if necessary, not yet dated.
        #expect(series.games.map(\.status) == ["final", "final", "final", "scheduled", "scheduled", "if necessary", "if necessary"])
        #expect(series.games.suffix(2).allSatisfy { $0.date == nil })

        // The series over after four games: game 5 on the schedule was not needed.
        var swept = try Self.mtlSchedule
        swept.games = swept.games?.map { game in
            var game = game
            if game.seriesStatus?.gameNumberOfSeries == 3 {
                game.awayTeam?.score = 4
                game.homeTeam?.score = 1
                game.seriesStatus?.topSeedWins = 3
                game.seriesStatus?.bottomSeedWins = 0
            }
            if game.seriesStatus?.gameNumberOfSeries == 4 {
                game.seriesStatus?.bottomSeedWins = 0
                game.seriesStatus?.topSeedWins = 4
            }
            if game.seriesStatus?.gameNumberOfSeries == 5 {
                game.gameState = .fut
                game.awayTeam?.score = nil
                game.homeTeam?.score = nil
            }
            return game
        }
        let over = try #require(Self.report(try Self.finished, team: "MTL", schedule: swept).run?.series.first)
        #expect(over.text == "lost 0–4")
        #expect(over.games.last?.status == "not needed")
    }
}
