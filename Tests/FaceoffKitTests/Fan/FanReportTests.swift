import Foundation
import Testing

@testable import FaceoffBase
@testable import FaceoffDaemon
@testable import FaceoffFan
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL

@Suite(
    "fan reports on the real recordings", .timeLimit(.minutes(5)),
    .enabled(if: RealFixtures.available, "../shared/nhl-api/fixtures not present"))
struct FanReportRealTests {
    let time = LocalTime(timeZone: TimeZone(identifier: "America/Montreal")!)

    @Test func aFullSeasonsResultsFromMontrealsSide() throws {
        let schedule = try RealFixtures.decode(ClubSchedule.self, "club-schedule-season_MTL_20242025_full-season-final.json")
        let report = ScheduleReport(schedule: schedule, team: "MTL", time: time)
        #expect(report.games.count == 93)
        let regular = report.games.filter { $0.type == "regular" }
        #expect(regular.count == 82)
        let results = Dictionary(grouping: regular, by: { $0.result ?? "-" }).mapValues(\.count)
        #expect(results == ["W": 40, "L": 31, "OTL": 7, "SOL": 4])
        // A playoff loss in overtime is a loss, not an "overtime loss".
        let playoff = try #require(report.games.first { $0.id == 2024030131 })
        #expect(playoff.result == "L")
        #expect(playoff.endedIn == "OT")
        #expect(playoff.matchup == "@ WSH")
        #expect(playoff.scoreText == "2–3 OT")
        #expect(playoff.series?.contains("R1 game 1") == true)
        // In order, as the API lists them.
        let starts = report.games.compactMap(\.startDate)
        #expect(starts == starts.sorted())
    }

    @Test func cancelledAndTBDGamesAreMarked() throws {
        let nashville = ScheduleReport(
            schedule: try RealFixtures.decode(ClubSchedule.self, "club-schedule-season_NSH_20242025_contains-CNCL-game.json"),
            team: "NSH", time: time)
        #expect(nashville.games.first { $0.id == 2024010044 }?.status == "cancelled")
        let boston = ScheduleReport(
            schedule: try RealFixtures.decode(ClubSchedule.self, "club-schedule-season_BOS_20252026_contains-TBD-game.json"),
            team: "BOS", time: time)
        let tbd = try #require(boston.games.first { $0.id == 2025020873 })
        #expect(tbd.timeTBD)
        #expect(tbd.status == "scheduled")
    }

    @Test func utahsNameComesFromTheAPI() throws {
        let before = TeamsReport(standings: try RealFixtures.decode(Standings.self, "standings_now_2025-03-10.json"))
        let after = TeamsReport(standings: try RealFixtures.decode(Standings.self, "standings_2025-10-07.json"))
        func utah(_ report: TeamsReport) -> String? {
            report.conferences.flatMap(\.divisions).flatMap(\.teams).first { $0.abbrev == "UTA" }?.name
        }
        #expect(utah(before) == "Utah Hockey Club")
        #expect(utah(after) == "Utah Mammoth")
        let schedule = ScheduleReport(
            schedule: try RealFixtures.decode(ClubSchedule.self, "club-schedule-season_UTA_20252026_mostly-FUT.json"), team: "UTA",
            time: time)
        #expect(schedule.games.contains { $0.home.abbrev == "UTA" && $0.home.name == "Mammoth" })
    }

    @Test func standingsFollowTheNHLsSequences() throws {
        let standings = try RealFixtures.decode(Standings.self, "standings_now_2025-03-10.json")
        let league = StandingsReport(standings: standings, by: .league, followed: ["MTL"])
        #expect(league.groups.count == 1)
        let rows = league.groups[0].rows
        #expect(rows.count == 32)
        #expect(rows.first?.abbrev == "WSH")
        #expect(rows.map(\.points) == rows.map(\.points).sorted(by: >))
        #expect(rows.filter(\.followed).map(\.abbrev) == ["MTL"])

        let divisions = StandingsReport(standings: standings, by: .division, followed: [])
        #expect(divisions.groups.map(\.name) == ["Atlantic", "Metropolitan", "Central", "Pacific"])
        for group in divisions.groups {
            let sequences = group.rows.map { row in standings.standings!.first { $0.teamAbbrev?.value == row.abbrev }!.divisionSequence! }
            #expect(sequences == Array(1...group.rows.count))
        }

        let wildcard = StandingsReport(standings: standings, by: .wildcard, followed: [])
        #expect(
            wildcard.groups.map(\.name) == ["Atlantic", "Metropolitan", "Eastern Wild Card", "Central", "Pacific", "Western Wild Card"])
        #expect(wildcard.groups.filter { !$0.name.contains("Wild") }.allSatisfy { $0.rows.count == 3 })
        #expect(wildcard.groups.flatMap(\.rows).count == 32)
    }

    @Test func rosterSortsByNumberWithinPositions() throws {
        let roster = try RealFixtures.decode(Roster.self, "roster_MTL_20252026.json")
        let report = RosterReport(roster: roster, team: "MTL", now: Date(timeIntervalSince1970: 1_760_000_000), time: time)
        #expect(report.groups.map(\.name) == ["Forwards", "Defence", "Goalies"])
        let numbers = report.groups[0].players.compactMap(\.number)
        #expect(numbers == [11, 13, 14, 15, 17, 20, 71, 76, 77, 90, 91, 92, 93])
        #expect(report.groups[2].players.allSatisfy { $0.position == "G" })
    }

    @Test func skaterAndGoalieLines() throws {
        let october = try Date("2025-10-15T12:00:00Z", strategy: .iso8601)
        let mcdavid = try RealFixtures.decode(PlayerLanding.self, "player-landing_8478402_McDavid_skater.json")
        let report = PlayerReport(landing: mcdavid, season: "20252026", now: october, time: time)
        #expect(!report.isGoalie)
        #expect(report.seasonStats?.gamesPlayed != nil)
        #expect(report.seasonStats?.timeOnIcePerGame == "26:21")
        #expect(report.careerStats?.points ?? 0 > 900)
        #expect(report.lastGames.first?.opponent == "vs CGY")
        // The next season, before he has played: no numbers rather than zeros.
        #expect(PlayerReport(landing: mcdavid, season: "20262027", now: october, time: time).seasonStats == nil)

        let montembeault = try RealFixtures.decode(PlayerLanding.self, "player-landing_8478470_Montembeault_goalie.json")
        let goalie = PlayerReport(landing: montembeault, season: String(montembeault.featuredStats?.season ?? 0), now: october, time: time)
        #expect(goalie.isGoalie)
        #expect(goalie.careerStats?.savePct != nil)
        let text = FanText(style: .plain, width: nil, time: time).player(goalie)
        #expect(text.contains("GAA") && text.contains("SV%") && !text.contains("TOI/GP"))
    }
}

@Suite(.timeLimit(.minutes(5))) struct NextGameTests {
    let time = LocalTime(timeZone: TimeZone(identifier: "UTC")!)

    func game(_ id: Int, _ start: String, state: String, schedule: String = "OK") throws -> GameSummary {
        let json = """
            {"id": \(id), "gameType": 2, "startTimeUTC": "\(start)", "gameState": "\(state)", "gameScheduleState": "\(schedule)",
             "awayTeam": {"abbrev": "TOR", "score": 1}, "homeTeam": {"abbrev": "MTL", "score": 2}}
            """
        let decoded = try JSONDecoder().decode(ScheduleGame.self, from: Data(json.utf8))
        return try #require(GameSummary(decoded, team: "TOR", time: time))
    }

    @Test func liveThenUpcomingThenLast() throws {
        let now = try Date("2025-10-25T20:00:00Z", strategy: .iso8601)
        let finished = try game(1, "2025-10-20T23:00:00Z", state: "OFF")
        let live = try game(2, "2025-10-25T19:00:00Z", state: "LIVE")
        let cancelled = try game(3, "2025-10-26T23:00:00Z", state: "FUT", schedule: "CNCL")
        let upcoming = try game(4, "2025-10-28T23:00:00Z", state: "FUT")
        #expect(NextReport.pick(from: [finished, live, cancelled, upcoming], now: now)?.game.id == 2)
        #expect(NextReport.pick(from: [finished, cancelled, upcoming], now: now)?.game.id == 4)
        #expect(NextReport.pick(from: [finished, cancelled], now: now).map { ($0.kind, $0.game.id) } ?? ("", 0) == ("last", 1))
        #expect(NextReport.pick(from: [cancelled], now: now) == nil)
        // An "if necessary" game with no time stands on its day: next while that day lasts,
        // before a later timed game; once it is over, never next.
        func untimed(_ id: Int, _ day: String) -> GameSummary {
            var game = upcoming
            game.id = id
            game.timeTBD = true
            game.start = nil
            game.date = day
            return game
        }
        #expect(NextReport.pick(from: [finished, upcoming, untimed(5, "2025-10-26")], now: now)?.game.id == 5)
        #expect(NextReport.pick(from: [finished, upcoming, untimed(6, "2025-10-23")], now: now)?.game.id == 4)
        #expect(NextReport.pick(from: [finished, untimed(6, "2025-10-23")], now: now)?.kind == "last")
        let report = NextReport(team: "TOR", timezone: "UTC", kind: "next", game: upcoming, now: now, records: [:], live: nil)
        #expect(report.countdown == "in 3d 3h")
        #expect(finished.result == "L")
    }

    @Test func countdowns() {
        let now = Date(timeIntervalSince1970: 0)
        #expect(Countdown.describe(from: now, to: now.addingTimeInterval(3 * 3600 + 5 * 60)) == "in 3h 05m")
        #expect(Countdown.describe(from: now, to: now.addingTimeInterval(90)) == "in 1m")
        #expect(Countdown.describe(from: now, to: now.addingTimeInterval(-5)) == "now")
    }

    @Test func liveSituationFromThePlays() throws {
        let json = """
            {"id": 1, "gameState": "LIVE", "periodDescriptor": {"number": 3, "periodType": "REG"},
             "awayTeam": {"abbrev": "MIN", "sog": 20}, "homeTeam": {"abbrev": "BUF", "sog": 30},
             "clock": {"timeRemaining": "01:10", "inIntermission": false},
             "plays": [{"sortOrder": 1, "situationCode": "1551", "typeDescKey": "faceoff"},
                       {"sortOrder": 2, "situationCode": "0651", "typeDescKey": "shot-on-goal"}]}
            """
        let live = NextReport.live(from: try JSONDecoder().decode(PlayByPlay.self, from: Data(json.utf8)))
        // 6 on 5 with MIN's goalie out is not a power play.
        #expect(live.powerPlay == nil)
        #expect(live.emptyNet == ["MIN"])
        #expect(live.period == "3rd")
        #expect(live.clock == "01:10")
    }
}
