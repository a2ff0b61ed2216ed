import Foundation
import Testing

@testable import FaceoffDaemon
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL

// MARK: - Fixture locations

/// The real recorded API responses live outside the repository, in `<repo>/../shared/nhl-api/fixtures`.
/// Tests on them use `.enabled(if: RealFixtures.available, …)` so they show as skipped when it is absent.
enum RealFixtures {
    /// The folder holding Package.swift, found by walking up from this file.
    static let repoRoot: URL = TestPaths.repositoryRoot

    static let directory: URL = TestPaths.shared.appendingPathComponent("nhl-api/fixtures", isDirectory: true)

    /// Present, or required: under FACEOFF_TEST_ALL (CI) the tests over the recordings run,
    /// and fail if they are missing, rather than being skipped or running no cases.
    static var available: Bool {
        if ProcessInfo.processInfo.environment["FACEOFF_TEST_ALL"] == "1" { return true }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    static func decode<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
        try JSONDecoder().decode(T.self, from: data(name))
    }

    static func jsonFileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") }
            .sorted()
    }
}

/// The project's own synthetic API mirror, `Tests/Fixtures/mirror/v1` (file paths equal URL paths).
private enum MirrorFixtures {
    static let directory: URL = TestPaths.mirror

    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(path))
    }

    static func decode<T: Decodable>(_ type: T.Type, _ path: String) throws -> T {
        try JSONDecoder().decode(T.self, from: data(path))
    }

    /// Relative paths of every file in the mirror.
    static func allPaths() throws -> [String] {
        let fm = FileManager.default
        return try fm.subpathsOfDirectory(atPath: directory.path).filter { path in
            var isDirectory: ObjCBool = false
            return fm.fileExists(atPath: directory.appendingPathComponent(path).path, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }.sorted()
    }
}

private func decodeJSON<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(json.utf8))
}

/// Encodes a value and parses it back with JSONSerialization, to look at the JSON shape.
private func jsonObject<T: Encodable>(_ value: T) throws -> Any {
    try JSONSerialization.jsonObject(with: JSONEncoder().encode(value), options: [.fragmentsAllowed])
}

private let realFixturesMissing: Comment = "../shared/nhl-api/fixtures not present"

/// The stats REST API (api.nhle.com/stats/rest) is a different API with no model in FaceoffKit;
/// this tiny struct only checks that its recording is what we think it is.
private struct StatsRestTeamList: Decodable {
    struct Team: Decodable {
        var id: Int?
        var franchiseId: Int?
        var fullName: String?
        var triCode: String?
    }
    var data: [Team]?
    var total: Int?
}

// MARK: - Real recordings

@Suite("NHL models: real recorded responses", .timeLimit(.minutes(5)))
struct RealFixtureDecodingTests {

    @Test(
        "every recorded response decodes into its model and a file-specific fact holds",
        .enabled(if: RealFixtures.available, realFixturesMissing))
    func everyRealFixtureDecodes() throws {
        let names = try RealFixtures.jsonFileNames()
        #expect(names.count >= 22, "expected the 22 recorded files, found \(names.count)")
        var checked = 0
        for name in names {
            do {
                try Self.checkRealFixture(name)
                checked += 1
            } catch {
                Issue.record("\(name) failed: \(error)")
            }
        }
        #expect(checked == names.count)
    }

    /// Chooses the model from the file-name prefix, decodes, and checks one fact about the file.
    static func checkRealFixture(_ name: String) throws {
        if name.hasPrefix("club-schedule-season_") {
            let schedule = try RealFixtures.decode(ClubSchedule.self, name)
            let games = try #require(schedule.games, "\(name): games")
            #expect(!games.isEmpty, "\(name)")
            #expect(games.allSatisfy { $0.id != nil && $0.gameState != nil && $0.startTime != nil }, "\(name)")
            if name.contains("_MTL_") {
                #expect(games.count == 93)
            } else if name.contains("_NSH_") {
                #expect(games.contains { $0.id == 2024010044 && $0.gameScheduleState == .cncl })
            } else if name.contains("_BOS_") {
                #expect(games.contains { $0.id == 2025020873 && $0.gameScheduleState == .tbd })
            } else if name.contains("_UTA_") {
                #expect(games.first?.homeTeam?.id == 68)
            } else {
                Issue.record("no specific fact for \(name)")
            }
        } else if name.hasPrefix("schedule_") {
            let schedule = try RealFixtures.decode(LeagueSchedule.self, name)
            #expect(schedule.gameWeek?.count == 7, "\(name)")
            #expect(schedule.allGames.count == schedule.numberOfGames, "\(name)")
            #expect(schedule.numberOfGames == (name.contains("2025-03-14") ? 54 : 48), "\(name)")
        } else if name.hasPrefix("scoreboard_") {
            let board = try RealFixtures.decode(Scoreboard.self, name)
            #expect(board.focusedDate == "2025-03-05")
            #expect(board.gamesByDate?.count == 7)
        } else if name.hasPrefix("score_") {
            let score = try RealFixtures.decode(DailyScore.self, name)
            let games = try #require(score.games)
            #expect(games.count == (name.contains("2025-03-14") ? 6 : 3), "\(name)")
            #expect(games.allSatisfy { $0.gameState == .off && !($0.goals ?? []).isEmpty }, "\(name)")
        } else if name.hasPrefix("play-by-play_") {
            let pbp = try RealFixtures.decode(PlayByPlay.self, name)
            let goals = (pbp.plays ?? []).filter { $0.typeDescKey == .goal }
            #expect(pbp.gameState == .off, "\(name)")
            if name.contains("2024021015") {
                #expect(goals.count == 4)
                #expect(goals.contains { $0.situationCode == "1560" && $0.details?.goalieInNetId == nil })
            } else {
                #expect(goals.count == 5)
                #expect(pbp.plays?.contains { $0.situationCode == "0651" } == true)
            }
        } else if name.hasPrefix("landing_") {
            let landing = try RealFixtures.decode(GameLanding.self, name)
            let summary = try #require(landing.summary, "\(name)")
            if name.contains("2023020207") {
                #expect(summary.shootout?.count == 10)
            } else {
                #expect(landing.homeTeam?.score == 5 && landing.awayTeam?.score == 0)
            }
        } else if name.hasPrefix("boxscore_") {
            let box = try RealFixtures.decode(Boxscore.self, name)
            #expect(box.playerByGameStats?.awayTeam?.defense?.count == 7)
        } else if name.hasPrefix("right-rail_") {
            let rail = try RealFixtures.decode(GameRightRail.self, name)
            #expect(rail.teamStat("powerPlay")?.awayValue?.text == "0/4")
        } else if name.hasPrefix("standings_") {
            let standings = try RealFixtures.decode(Standings.self, name)
            #expect(standings.standings?.count == 32, "\(name)")
        } else if name.hasPrefix("roster_") {
            let roster = try RealFixtures.decode(Roster.self, name)
            #expect(roster.defensemen?.count == 7, "\(name)")
        } else if name.hasPrefix("player-landing_") {
            let player = try RealFixtures.decode(PlayerLanding.self, name)
            if name.contains("goalie") {
                #expect(player.careerTotals?.regularSeason?.savePctg != nil)
            } else {
                #expect(player.position == "C" && player.playerId == 8478402)
            }
        } else if name.hasPrefix("stats-rest_") {
            // Different API (api.nhle.com/stats/rest): no FaceoffKit model, decoded into a tiny local struct.
            let list = try RealFixtures.decode(StatsRestTeamList.self, name)
            #expect(list.total == 61 && list.data?.count == 61)
        } else {
            Issue.record("no model chosen for \(name): add a case for this prefix")
        }
    }

    @Test(
        "MTL 2024-25 season: counts, the OT playoff loss, shootout wins without a winning goal scorer",
        .enabled(if: RealFixtures.available, realFixturesMissing))
    func montrealSeason() throws {
        let schedule = try RealFixtures.decode(ClubSchedule.self, "club-schedule-season_MTL_20242025_full-season-final.json")
        #expect(schedule.currentSeason == 20242025)
        #expect(schedule.nextSeason == 20252026)
        #expect(schedule.clubTimezone == "America/Montreal")
        let games = try #require(schedule.games)
        #expect(games.count == 93)
        #expect(games.filter { $0.gameType == .preseason }.count == 6)
        #expect(games.filter { $0.gameType == .regularSeason }.count == 82)
        #expect(games.filter { $0.gameType == .playoffs }.count == 5)
        // Preseason games stay FINAL, everything else is OFF.
        #expect(games.filter { $0.gameState == .final }.allSatisfy { $0.gameType == .preseason })
        #expect(games.allSatisfy { $0.gameState?.isFinal == true })

        let g1 = try #require(games.first { $0.id == 2024030131 })
        #expect(g1.awayTeam?.abbrev == "MTL")
        #expect(g1.awayTeam?.score == 2)
        #expect(g1.homeTeam?.abbrev == "WSH")
        #expect(g1.homeTeam?.score == 3)
        #expect(g1.gameOutcome?.lastPeriodType == .ot)
        #expect(g1.periodDescriptor?.periodType == .ot)
        #expect(g1.periodDescriptor?.number == nil)
        #expect(g1.seriesStatus?.seriesLetter == "C")
        #expect(g1.seriesStatus?.topSeedWins == 1)
        #expect(g1.seriesStatus?.bottomSeedWins == 0)
        #expect(g1.seriesStatus?.neededToWin == 4)
        #expect(g1.winningGoalScorer?.playerId == 8471214)
        #expect(g1.winningGoalScorer?.lastName?.value == "Ovechkin")
        #expect(g1.winningGoalie?.displayName == "L. Thompson")

        let shootouts = games.filter { $0.gameOutcome?.lastPeriodType == .so }
        #expect(shootouts.count == 6)
        #expect(shootouts.allSatisfy { $0.winningGoalScorer == nil })
        #expect(games.filter { $0.gameOutcome?.lastPeriodType == .ot }.count == 16)

        let first = try #require(games.first)
        #expect(first.id == 2024010015)
        #expect(first.startTime == Date(timeIntervalSince1970: 1_727_132_400))  // 2024-09-23T23:00:00Z
        #expect(first.homeTeam?.placeName?.value == "Montréal")
    }

    @Test(
        "NSH has a cancelled preseason game that stays FUT; BOS has a TBD Stadium Series game",
        .enabled(if: RealFixtures.available, realFixturesMissing))
    func cancelledAndTBDGames() throws {
        let nsh = try RealFixtures.decode(ClubSchedule.self, "club-schedule-season_NSH_20242025_contains-CNCL-game.json")
        let cancelled = (nsh.games ?? []).filter { $0.gameScheduleState?.isCancelled == true }
        #expect(cancelled.count == 1)
        let game = try #require(cancelled.first)
        #expect(game.id == 2024010044)
        #expect(game.gameState == .fut)
        #expect(game.gameState?.isUpcoming == true)
        #expect(game.gameType == .preseason)
        #expect(game.awayTeam?.abbrev == "NSH" && game.homeTeam?.abbrev == "TBL")

        let bos = try RealFixtures.decode(ClubSchedule.self, "club-schedule-season_BOS_20252026_contains-TBD-game.json")
        #expect(bos.nextSeason == nil)
        let tbd = (bos.games ?? []).filter { $0.gameScheduleState?.isTimeTBD == true }
        #expect(tbd.map(\.id) == [2025020873])
        let stadium = try #require(tbd.first)
        #expect(stadium.neutralSite == true)
        #expect(stadium.venue?.value == "Raymond James Stadium")
        #expect(stadium.specialEvent?.parentId == 31)
        #expect(stadium.specialEvent?.name?.value.contains("Stadium Series") == true)
    }

    @Test(
        "UTA 2025-26: team id 68, named Mammoth, no nextSeason, games without gameCenterLink",
        .enabled(if: RealFixtures.available, realFixturesMissing))
    func utahMammoth() throws {
        let schedule = try RealFixtures.decode(ClubSchedule.self, "club-schedule-season_UTA_20252026_mostly-FUT.json")
        #expect(schedule.nextSeason == nil)
        #expect(schedule.currentSeason == 20252026)
        let games = try #require(schedule.games)
        #expect(games.count == 89)
        #expect(games.filter { $0.gameState == .fut }.count == 81)
        let utahSides = games.flatMap { [$0.awayTeam, $0.homeTeam] }.compactMap { $0 }.filter { $0.abbrev == "UTA" }
        #expect(utahSides.count == 89)
        #expect(utahSides.allSatisfy { $0.id == 68 && $0.commonName?.value == "Mammoth" })
        #expect(games.filter { $0.gameCenterLink == nil }.compactMap(\.id) == [2025010103, 2025010068])
        let broadcasts = games.compactMap(\.tvBroadcasts).flatMap { $0 }
        #expect(!broadcasts.isEmpty)
        #expect(broadcasts.allSatisfy { $0.network != nil && $0.market != nil })
    }

    @Test(
        "PIT@MIN play-by-play: PP goals 1541/1451 and an empty-net goal at 1560 without goalieInNetId",
        .enabled(if: RealFixtures.available, realFixturesMissing))
    func pittsburghAtMinnesota() throws {
        let pbp = try RealFixtures.decode(PlayByPlay.self, "play-by-play_2024021015_PIT-at-MIN_final_PP-goals-and-empty-net-goal_RAW.json")
        #expect(pbp.id == 2024021015)
        #expect(pbp.awayTeam?.abbrev == "PIT" && pbp.awayTeam?.score == 3)
        #expect(pbp.homeTeam?.abbrev == "MIN" && pbp.homeTeam?.score == 1)
        #expect(pbp.plays?.count == 295)
        #expect(pbp.rosterSpots?.count == 40)
        #expect(pbp.displayPeriod == 1)
        #expect(pbp.periodDescriptor?.number == 3)
        #expect(pbp.gameOutcome?.lastPeriodType == .reg)

        let goals = pbp.playsInOrder.filter { $0.typeDescKey == .goal }
        #expect(goals.map(\.situationCode) == ["1541", "1551", "1451", "1560"])
        #expect(goals.allSatisfy { $0.typeCode == 505 })

        let pp = try #require(goals.first)
        #expect(pp.eventId == 731)
        #expect(pp.details?.scoringPlayerId == 8471215)
        #expect(pp.details?.scoringPlayerTotal == 13)
        #expect(pp.details?.assist2PlayerTotal == 30)
        #expect(pp.details?.goalieInNetId == 8470594)
        #expect(pp.details?.eventOwnerTeamId == pbp.awayTeam?.id)

        let emptyNet = try #require(goals.last)
        #expect(emptyNet.details?.goalieInNetId == nil)
        #expect(emptyNet.details?.scoringPlayerId == 8471675)
        #expect(emptyNet.details?.eventOwnerTeamId == 5)
        #expect(emptyNet.timeInPeriod == "18:47")
        #expect(emptyNet.timeRemaining == "01:13")
        #expect(goals.filter { $0.details?.goalieInNetId == nil }.count == 1)
        #expect(pbp.rosterSpot(for: emptyNet.details?.scoringPlayerId)?.lastName?.value == "Crosby")

        let doubleMinor = (pbp.plays ?? []).first { $0.details?.descKey == "high-sticking-double-minor" }
        #expect(doubleMinor?.details?.duration == 4)
        #expect(doubleMinor?.details?.typeCode == "MIN")
        #expect(pbp.plays?.last?.typeDescKey == .gameEnd)
    }

    @Test(
        "MIN@BUF play-by-play: the away team pulls its goalie (0651)",
        .enabled(if: RealFixtures.available, realFixturesMissing))
    func minnesotaAtBuffalo() throws {
        let pbp = try RealFixtures.decode(PlayByPlay.self, "play-by-play_2023020204_MIN-at-BUF_final_PP-goals-goalie-pulled.json")
        let plays = try #require(pbp.plays)
        #expect(plays.count == 320)
        #expect(plays.filter { $0.situationCode == "0651" }.count == 20)
        let goals = plays.filter { $0.typeDescKey == .goal }
        #expect(goals.filter { $0.situationCode == "1541" }.count == 2)
        #expect(goals.allSatisfy { $0.details?.goalieInNetId != nil })
        #expect(plays.filter { $0.typeDescKey == .penalty }.count == 8)
        #expect(plays.filter { $0.typeDescKey == .delayedPenalty }.count == 4)
        #expect(pbp.venue?.value == "KeyBank Center")
        #expect(pbp.venueLocation?.value == "Buffalo")
    }

    @Test(
        "landing: shootout attempts, the 1010 SO goal, three stars with plain-string teamAbbrev",
        .enabled(if: RealFixtures.available, realFixturesMissing))
    func landingShootout() throws {
        let landing = try RealFixtures.decode(GameLanding.self, "landing_2023020207_CGY-at-TOR_final-shootout.json")
        #expect(landing.gameState?.isFinal == true)
        #expect(landing.periodDescriptor?.periodType == .so)
        #expect(landing.periodDescriptor?.label == "SO")
        let summary = try #require(landing.summary)
        let shootout = try #require(summary.shootout)
        #expect(shootout.count == 10)
        #expect(shootout.filter { $0.result == "goal" }.count == 3)
        let winner = try #require(shootout.first { $0.gameWinner == true })
        #expect(winner.sequence == 9)
        #expect(winner.lastName?.value == "Domi")
        #expect(winner.teamAbbrev?.value == "TOR")
        #expect(summary.scoring?.map { $0.periodDescriptor?.periodType?.rawValue ?? "" } == ["REG", "REG", "REG", "OT", "SO"])
        #expect(summary.scoring?.last?.goals?.first?.situationCode == "1010")
        #expect(summary.allGoals.count == 9)
        let first = try #require(summary.allGoals.first)
        #expect(first.strength == "pp")
        #expect(first.teamAbbrev?.value == "TOR")
        #expect(first.name?.value == "W. Nylander")
        #expect(first.assists?.isEmpty == true)  // unassisted
        let kadri = try #require(summary.allGoals[1].assists?.first)
        #expect(kadri.name?.value == "N. Kadri" && kadri.sweaterNumber == 91 && kadri.assistsToDate == 6)
        #expect(summary.threeStars?.first?.name?.value == "W. Nylander")
        #expect(summary.threeStars?.first?.teamAbbrev?.value == "TOR")
        let penalties = (summary.penalties ?? []).flatMap { $0.penalties ?? [] }
        #expect(penalties.count == 5)
        #expect(penalties.first?.committedByPlayer?.displayName == "A. Greer")
        #expect(penalties.first?.teamAbbrev?.value == "CGY")
        #expect(penalties.first?.drawnBy?.displayName == "N. Robertson")
    }

    @Test(
        "landing: a short-handed goal and a goalie star with savePctg",
        .enabled(if: RealFixtures.available, realFixturesMissing))
    func landingRegulation() throws {
        let landing = try RealFixtures.decode(GameLanding.self, "landing_2023020209_SJS-at-VGK_final.json")
        let summary = try #require(landing.summary)
        #expect(summary.shootout?.isEmpty == true)
        let shorthanded = summary.allGoals.filter { $0.strength == "sh" }
        #expect(shorthanded.count == 1)
        #expect(shorthanded.first?.situationCode == "1541")
        let goalieStar = try #require(summary.threeStars?.first { $0.position == "G" })
        #expect(goalieStar.savePctg == 1.0)
        #expect(goalieStar.goals == nil)
        #expect(landing.clock?.secondsRemaining == 0)
        #expect(landing.clock?.running == false)
    }

    @Test(
        "boxscore: forwards/defense/goalies; a goalie who didn't play has no savePctg",
        .enabled(if: RealFixtures.available, realFixturesMissing))
    func boxscore() throws {
        let box = try RealFixtures.decode(Boxscore.self, "boxscore_2023020280_CHI-at-CBJ_final.json")
        #expect(box.awayTeam?.abbrev == "CHI" && box.awayTeam?.score == 3 && box.awayTeam?.sog == 36)
        #expect(box.homeTeam?.abbrev == "CBJ" && box.homeTeam?.score == 7 && box.homeTeam?.sog == 26)
        let away = try #require(box.playerByGameStats?.awayTeam)
        let home = try #require(box.playerByGameStats?.homeTeam)
        #expect(away.forwards?.count == 11 && away.defense?.count == 7 && away.goalies?.count == 2)
        #expect(home.forwards?.count == 12 && home.defense?.count == 6 && home.goalies?.count == 2)
        let mrazek = try #require(away.goalies?.first { $0.name?.value == "P. Mrazek" })
        #expect(mrazek.savePctg == 0.722222)
        #expect(mrazek.decision == "L")
        #expect(mrazek.saveShotsAgainst == "13/18")
        #expect(mrazek.starter == true)
        let martin = try #require(home.goalies?.first { $0.name?.value == "S. Martin" })
        #expect(martin.savePctg == nil)
        #expect(martin.decision == nil)
        #expect(home.skaters.first { $0.name?.value == "Z. Werenski" }?.assists == 4)
        #expect(box.gameOutcome?.lastPeriodType == .reg)
    }

    @Test(
        "rosters use `defensemen`; every recorded player has a sweater number",
        .enabled(if: RealFixtures.available, realFixturesMissing))
    func rosters() throws {
        let mtl = try RealFixtures.decode(Roster.self, "roster_MTL_20252026.json")
        #expect(mtl.forwards?.count == 13 && mtl.defensemen?.count == 7 && mtl.goalies?.count == 2)
        let monty = try #require(mtl.goalies?.first { $0.id == 8478470 })
        #expect(monty.sweaterNumber == 35)
        #expect(monty.fullName == "Sam Montembeault")
        #expect(monty.birthCountry == "CAN")
        let uta = try RealFixtures.decode(Roster.self, "roster_UTA_current_2024-25.json")
        #expect(uta.allPlayers.count == 23)
        #expect(uta.allPlayers.allSatisfy { $0.sweaterNumber != nil })
    }

    @Test(
        "player landings: skater featured stats and non-NHL rows; goalie savePctg and 0/1 flags",
        .enabled(if: RealFixtures.available, realFixturesMissing))
    func playerLandings() throws {
        let mcdavid = try RealFixtures.decode(PlayerLanding.self, "player-landing_8478402_McDavid_skater.json")
        #expect(mcdavid.fullName == "Connor McDavid")
        #expect(mcdavid.inHHOF?.boolValue == false)
        #expect(mcdavid.draftDetails?.overallPick == 1)
        #expect(mcdavid.featuredStats?.season == 20252026)
        #expect(mcdavid.featuredStats?.regularSeason?.career?.points == 1084)
        #expect(mcdavid.careerTotals?.regularSeason?.points == 1084)
        #expect(mcdavid.careerTotals?.regularSeason?.shootingPctg == 0.1496)
        #expect(mcdavid.seasonTotals?.count == 34)
        #expect(mcdavid.nhlSeasons().count == 11)
        #expect(mcdavid.seasonTotals?.contains { $0.leagueAbbrev == "OHL" } == true)
        #expect(mcdavid.seasonTotals?.last?.stats.avgToi == "26:21")
        #expect(mcdavid.last5Games?.first?.toi == "26:21")
        #expect(mcdavid.awards?.count == 5)

        let monty = try RealFixtures.decode(PlayerLanding.self, "player-landing_8478470_Montembeault_goalie.json")
        #expect(monty.isGoalie)
        #expect(monty.careerTotals?.regularSeason?.savePctg == 0.898807)
        #expect(monty.careerTotals?.regularSeason?.goalsAgainstAvg == 3.20963)
        #expect(monty.careerTotals?.regularSeason?.timeOnIce == "11590:07")
        #expect(monty.featuredStats?.regularSeason?.career?.wins == 80)
        #expect(monty.featuredStats?.regularSeason?.subSeason?.savePctg == 0.88)
        #expect(monty.last5Games?.first?.decision == "L")
        #expect(monty.last5Games?.first?.opponentAbbrev == "TOR")
        #expect(monty.seasonTotals?.count == 25)
        #expect(monty.awards == nil)
    }

    @Test(
        "standings: 32 rows, no team id, UTA renamed between the two dates",
        .enabled(if: RealFixtures.available, realFixturesMissing))
    func standings() throws {
        let march = try RealFixtures.decode(Standings.self, "standings_now_2025-03-10.json")
        #expect(march.standings?.count == 32)
        let wsh = try #require(march.standings?.first)
        #expect(wsh.teamAbbrev?.value == "WSH")
        #expect(wsh.leagueSequence == 1)
        #expect(wsh.points == 92)
        #expect(wsh.pointPctg == 0.71875)
        #expect(wsh.recordText == "\(wsh.wins ?? -1)-\(wsh.losses ?? -1)-\(wsh.otLosses ?? -1)")
        #expect(march.row(for: "uta")?.teamName?.value == "Utah Hockey Club")
        #expect(march.standings?.allSatisfy { $0.clinchIndicator == nil } == true)

        let october = try RealFixtures.decode(Standings.self, "standings_2025-10-07.json")
        #expect(october.standings?.count == 32)
        #expect(october.row(for: "UTA")?.teamName?.value == "Utah Mammoth")
        #expect(october.row(for: "UTA")?.placeName?.value == "Utah")
        #expect(october.standingsDate == Date(timeIntervalSince1970: 1_759_988_557))  // 2025-10-09T05:42:37Z
        for row in october.standings ?? [] {
            #expect(row.points == 2 * (row.wins ?? 0) + (row.otLosses ?? 0))
        }
    }

    @Test(
        "score: plain-string teamAbbrev, strength case varies by era, OT outcome with otPeriods",
        .enabled(if: RealFixtures.available, realFixturesMissing))
    func dailyScores() throws {
        let march = try RealFixtures.decode(DailyScore.self, "score_2025-03-14_all-final.json")
        #expect(march.currentDate == "2025-03-14")
        #expect(march.gameWeek?.allSatisfy { $0.games == nil } == true)
        let games = try #require(march.games)
        let utah = try #require(games.first { $0.awayTeam?.abbrev == "UTA" })
        #expect(utah.awayTeam?.id == 59)
        #expect(utah.awayTeam?.name?.value == "Utah Hockey Club")
        let goals = games.flatMap { $0.goals ?? [] }
        #expect(goals.filter(\.isEmptyNet).count == 3)
        #expect(goals.allSatisfy { $0.teamAbbrev != nil && $0.normalizedStrength != nil })
        let car = try #require(games.first { $0.id == 2024021049 })
        #expect(car.homeTeam?.name?.value == "Hurricanes")
        #expect(car.homeTeam?.sog == 32)
        #expect(car.goals?.last?.teamAbbrev?.value == "CAR")
        #expect(car.goals?.last?.goalModifier == "empty-net")
        #expect(car.goals?.last?.assists?.first?.assistsToDate == 18)
        #expect(car.clock?.timeRemaining == "00:00")
        #expect(car.period == 3)

        let old = try RealFixtures.decode(DailyScore.self, "score_2023-11-08_extracted-from-openapi-devtools-example.json")
        let fla = try #require(old.games?.first { $0.id == 2023020191 })
        #expect(fla.gameOutcome?.lastPeriodType == .ot)
        #expect(fla.gameOutcome?.otPeriods == 1)
        #expect(fla.goals?.contains { $0.strength == "SH" && $0.normalizedStrength == "sh" } == true)
    }

    @Test(
        "scoreboard and league schedule reuse the game object",
        .enabled(if: RealFixtures.available, realFixturesMissing))
    func scoreboardAndSchedule() throws {
        let board = try RealFixtures.decode(Scoreboard.self, "scoreboard_now_focused-2025-03-05.json")
        let games = (board.gamesByDate ?? []).flatMap { $0.games ?? [] }
        #expect(games.count == 52)
        let upcoming = try #require(games.first { $0.id == 2024020988 })
        #expect(upcoming.gameState == .fut)
        #expect(upcoming.awayTeam?.record == "27-25-9")
        #expect(upcoming.homeTeam?.record == "30-25-6")
        let tor = try #require(games.first { $0.id == 2024020961 })
        #expect(tor.awayTeam?.name?.value == "Toronto Maple Leafs")
        #expect(tor.awayTeam?.commonName?.value == "Maple Leafs")

        let week = try RealFixtures.decode(LeagueSchedule.self, "schedule_2025-10-07_league-week.json")
        #expect(week.regularSeasonStartDate == "2025-10-07")
        #expect(week.gameWeek?.first { $0.date == "2025-10-10" }?.games?.isEmpty == true)
        #expect(week.allGames.filter { $0.gameOutcome?.lastPeriodType == .so }.count == 2)
        #expect(week.allGames.filter { $0.gameState == .off }.count == 7)
    }

    @Test(
        "right-rail: mixed number/string team stats and the linescore",
        .enabled(if: RealFixtures.available, realFixturesMissing))
    func rightRail() throws {
        let rail = try RealFixtures.decode(GameRightRail.self, "right-rail_2023020209_SJS-at-VGK_final.json")
        #expect(rail.linescore?.totals?.away == 0)
        #expect(rail.linescore?.totals?.home == 5)
        #expect(rail.teamStat("sog")?.awayValue?.int == 20)
        #expect(rail.teamStat("sog")?.homeValue?.int == 39)
        #expect(rail.teamStat("powerPlay")?.awayValue?.text == "0/4")
        #expect(rail.teamStat("powerPlay")?.awayValue?.number == nil)
        #expect(rail.teamStat("faceoffWinningPctg")?.awayValue?.number == 0.559322)
        #expect(rail.seasonSeriesWins?.homeTeamWins == 4)
        #expect(rail.seasonSeries?.count == 4)
    }

    @Test(
        "responses carrying a gameState adopt GameStateCarrying",
        .enabled(if: RealFixtures.available, realFixturesMissing))
    func gameStateCarrying() throws {
        let carriers: [any GameStateCarrying] = [
            try RealFixtures.decode(PlayByPlay.self, "play-by-play_2024021015_PIT-at-MIN_final_PP-goals-and-empty-net-goal_RAW.json"),
            try RealFixtures.decode(GameLanding.self, "landing_2023020209_SJS-at-VGK_final.json"),
            try RealFixtures.decode(Boxscore.self, "boxscore_2023020280_CHI-at-CBJ_final.json"),
        ]
        #expect(carriers.allSatisfy { $0.gameState == .off && $0.gameState?.isOfficial == true })
    }
}

// MARK: - Synthetic mirror (Tests/Fixtures/mirror/v1)

@Suite("NHL models: synthetic mirror fixtures", .timeLimit(.minutes(5)))
struct MirrorFixtureDecodingTests {

    @Test("every file of the mirror decodes into the model its URL path selects")
    func everyMirrorFileDecodes() throws {
        let paths = try MirrorFixtures.allPaths()
        #expect(paths.count >= 10, "found \(paths)")
        for path in paths {
            do {
                try Self.decodeMirrorFile(path)
            } catch {
                Issue.record("\(path) failed: \(error)")
            }
        }
    }

    static func decodeMirrorFile(_ path: String) throws {
        let parts = path.split(separator: "/").map(String.init)
        switch (parts.first, parts.last) {
        case ("club-schedule-season", _), ("club-schedule", _):
            _ = try MirrorFixtures.decode(ClubSchedule.self, path)
        case ("schedule", _):
            _ = try MirrorFixtures.decode(LeagueSchedule.self, path)
        case ("score", _):
            _ = try MirrorFixtures.decode(DailyScore.self, path)
        case ("scoreboard", _):
            _ = try MirrorFixtures.decode(Scoreboard.self, path)
        case ("standings", _):
            _ = try MirrorFixtures.decode(Standings.self, path)
        case ("roster", _):
            _ = try MirrorFixtures.decode(Roster.self, path)
        case ("player", "landing"):
            _ = try MirrorFixtures.decode(PlayerLanding.self, path)
        case ("gamecenter", "play-by-play"):
            _ = try MirrorFixtures.decode(PlayByPlay.self, path)
        case ("gamecenter", "landing"):
            _ = try MirrorFixtures.decode(GameLanding.self, path)
        case ("gamecenter", "boxscore"):
            _ = try MirrorFixtures.decode(Boxscore.self, path)
        case ("gamecenter", "right-rail"):
            _ = try MirrorFixtures.decode(GameRightRail.self, path)
        case ("playoff-bracket", _):
            _ = try MirrorFixtures.decode(PlayoffBracket.self, path)
        default:
            Issue.record("no model for mirror path \(path)")
        }
    }

    @Test("TOR schedule: now and 20252026 agree; OFF/OT/SO, LIVE, TBD, CNCL and preseason games")
    func torontoSchedule() throws {
        #expect(try MirrorFixtures.data("club-schedule-season/TOR/now") == MirrorFixtures.data("club-schedule-season/TOR/20252026"))
        let schedule = try MirrorFixtures.decode(ClubSchedule.self, "club-schedule-season/TOR/now")
        #expect(schedule.currentSeason == 20252026)
        let games = try #require(schedule.games)
        #expect(games.count == 9)
        #expect(games.filter { $0.gameState == .off }.count == 4)
        #expect(games.filter { $0.gameState?.isLive == true }.count == 1)
        #expect(games.filter { $0.gameState?.isUpcoming == true }.count == 3)
        #expect(games.filter { $0.gameOutcome?.lastPeriodType == .ot }.count == 1)

        let preseason = try #require(games.first)
        #expect(preseason.gameType == .preseason && preseason.gameState == .final)

        let shootout = try #require(games.first { $0.gameOutcome?.lastPeriodType == .so })
        #expect(shootout.awayTeam?.abbrev == "TOR")
        #expect((shootout.awayTeam?.score ?? 0) > (shootout.homeTeam?.score ?? 0))
        #expect(shootout.winningGoalScorer == nil)

        let live = try #require(games.first { $0.gameState == .live })
        #expect(live.awayTeam?.score == 2 && live.homeTeam?.score == 1)
        #expect(live.periodDescriptor?.label == "2nd")

        #expect(games.first { $0.gameScheduleState == .tbd }?.id == 2025020166)
        #expect(games.first { $0.gameScheduleState == .cncl }?.gameState == .fut)
        let next = games.first { $0.gameState?.isUpcoming == true && $0.gameScheduleState == .ok }
        #expect(next?.id == 2025020133)
        #expect(next?.startTime == Date(timeIntervalSince1970: 1_761_692_400))  // 2025-10-28T23:00:00Z
        #expect(games.allSatisfy { !($0.tvBroadcasts ?? []).isEmpty && $0.venue != nil })
        let ids = games.compactMap(\.id)
        #expect(Set(ids).count == ids.count)
    }

    @Test("MTL and TOR schedules share the MTL@TOR game")
    func sharedGame() throws {
        let tor = try MirrorFixtures.decode(ClubSchedule.self, "club-schedule-season/TOR/now")
        let mtl = try MirrorFixtures.decode(ClubSchedule.self, "club-schedule-season/MTL/now")
        let shared = Set((tor.games ?? []).compactMap(\.id)).intersection((mtl.games ?? []).compactMap(\.id))
        #expect(shared == [2025020004])
        let a = try #require(tor.games?.first { $0.id == 2025020004 })
        let b = try #require(mtl.games?.first { $0.id == 2025020004 })
        #expect(a == b)
        #expect(a.awayTeam?.abbrev == "MTL" && a.homeTeam?.abbrev == "TOR")
    }

    @Test("standings: 32 consistent rows, and TOR's row matches its schedule")
    func standings() throws {
        let standings = try MirrorFixtures.decode(Standings.self, "standings/now")
        let rows = try #require(standings.standings)
        #expect(rows.count == 32)
        #expect(Set(rows.compactMap { $0.teamAbbrev?.value }).count == 32)
        #expect(standings.row(for: "UTA")?.teamName?.value == "Utah Mammoth")
        for row in rows {
            let (w, l, otl) = (row.wins ?? -99, row.losses ?? -99, row.otLosses ?? -99)
            #expect(row.points == 2 * w + otl, "\(row.teamAbbrev?.value ?? "?")")
            #expect(row.gamesPlayed == w + l + otl, "\(row.teamAbbrev?.value ?? "?")")
            #expect(row.conferenceAbbrev != nil && row.divisionAbbrev != nil && row.leagueSequence != nil)
        }
        // Every game has one winner and one loser (in regulation or after OT/SO).
        let wins = rows.reduce(0) { $0 + ($1.wins ?? 0) }
        let losses = rows.reduce(0) { $0 + ($1.losses ?? 0) + ($1.otLosses ?? 0) }
        #expect(wins == losses)
        #expect(rows.map { $0.leagueSequence ?? 0 } == Array(1...32))

        // TOR's record from the schedule's finished regular-season games.
        let tor = try MirrorFixtures.decode(ClubSchedule.self, "club-schedule-season/TOR/now")
        var record = (w: 0, l: 0, otl: 0)
        for game in tor.games ?? [] where game.gameType == .regularSeason && game.gameState == .off {
            let torIsHome = game.homeTeam?.abbrev == "TOR"
            let mine = (torIsHome ? game.homeTeam?.score : game.awayTeam?.score) ?? 0
            let theirs = (torIsHome ? game.awayTeam?.score : game.homeTeam?.score) ?? 0
            if mine > theirs { record.w += 1 } else if game.gameOutcome?.lastPeriodType == .reg { record.l += 1 } else { record.otl += 1 }
        }
        let row = try #require(standings.row(for: "TOR"))
        #expect(row.wins == record.w && row.losses == record.l && row.otLosses == record.otl)
        #expect(row.recordText == "3-0-1")
    }

    @Test("roster: three forwards (one without a sweater number), two defensemen, one goalie")
    func roster() throws {
        let roster = try MirrorFixtures.decode(Roster.self, "roster/TOR/current")
        #expect(roster.forwards?.count == 3 && roster.defensemen?.count == 2 && roster.goalies?.count == 1)
        #expect(roster.allPlayers.filter { $0.sweaterNumber == nil }.count == 1)
        #expect(roster.forwards?.first { $0.id == 8479318 }?.sweaterNumber == 34)
    }

    @Test("player landings agree with their own rows")
    func players() throws {
        let matthews = try MirrorFixtures.decode(PlayerLanding.self, "player/8479318/landing")
        let sub = try #require(matthews.featuredStats?.regularSeason?.subSeason)
        let last = try #require(matthews.last5Games)
        #expect(sub.goals == last.reduce(0) { $0 + ($1.goals ?? 0) })
        #expect(sub.assists == last.reduce(0) { $0 + ($1.assists ?? 0) })
        let nhl = matthews.nhlSeasons()
        #expect(matthews.careerTotals?.regularSeason?.goals == nhl.reduce(0) { $0 + ($1.stats.goals ?? 0) })
        #expect(
            matthews.careerTotals?.playoffs?.points == matthews.nhlSeasons(gameType: .playoffs).reduce(0) { $0 + ($1.stats.points ?? 0) })
        #expect(matthews.seasonTotals?.contains { $0.leagueAbbrev != "NHL" } == true)
        #expect(matthews.featuredStats?.playoffs?.career?.gamesPlayed != nil)

        let monty = try MirrorFixtures.decode(PlayerLanding.self, "player/8478470/landing")
        #expect(monty.isGoalie)
        let games = try #require(monty.last5Games)
        #expect(games.count == 4)
        let current = try #require(monty.nhlSeasons().last)
        #expect(current.season == 20252026)
        #expect(current.stats.goalsAgainst == games.reduce(0) { $0 + ($1.goalsAgainst ?? 0) })
        #expect(current.stats.shotsAgainst == games.reduce(0) { $0 + ($1.shotsAgainst ?? 0) })
        #expect(monty.featuredStats?.regularSeason?.subSeason?.savePctg != nil)
    }

    @Test("score/now: one finished game with goals, one live game with clock and situation")
    func scoreNow() throws {
        let score = try MirrorFixtures.decode(DailyScore.self, "score/now")
        let games = try #require(score.games)
        #expect(games.count == 2)
        let final = try #require(games.first { $0.gameState == .off })
        let lastGoal = try #require(final.goals?.last)
        #expect(lastGoal.awayScore == final.awayTeam?.score && lastGoal.homeScore == final.homeTeam?.score)
        #expect(lastGoal.teamAbbrev?.value == "MTL")
        let live = try #require(games.first { $0.gameState?.isLive == true })
        #expect(live.clock?.running == true)
        #expect(live.clock?.secondsRemaining == 527)
        #expect(live.period == 2)
        #expect(live.situation?.situationCode == "1541")
        #expect(live.situation?.awayTeam?.situationDescriptions == ["PP"])
        #expect(live.situation?.homeTeam?.situationDescriptions == nil)
        #expect(live.goals?.last?.homeScore == live.homeTeam?.score)

        let week = try MirrorFixtures.decode(LeagueSchedule.self, "schedule/now")
        #expect(week.gameWeek?.count == 2)
        #expect(week.allGames.count == week.numberOfGames)
        let tor = try MirrorFixtures.decode(ClubSchedule.self, "club-schedule-season/TOR/now")
        #expect(week.allGames.first { $0.id == live.id } == tor.games?.first { $0.id == live.id })
    }

    @Test("play-by-play: PP goal, penalty, pulled goalie and empty-net goal")
    func playByPlay() throws {
        let pbp = try MirrorFixtures.decode(PlayByPlay.self, "gamecenter/2025020100/play-by-play")
        #expect(pbp.gameState == .off)
        let plays = pbp.playsInOrder
        #expect(plays == pbp.plays)
        #expect(plays.first?.typeDescKey == .periodStart)
        #expect(plays.last?.typeDescKey == .gameEnd)
        let goals = plays.filter { $0.typeDescKey == .goal }
        #expect(goals.count == 4)
        #expect(goals.last?.details?.homeScore == pbp.homeTeam?.score)
        #expect(goals.last?.details?.awayScore == pbp.awayTeam?.score)
        #expect(goals.first?.situationCode == "1451")
        let emptyNet = try #require(goals.last)
        #expect(emptyNet.situationCode == "0651")
        #expect(emptyNet.details?.goalieInNetId == nil)
        #expect(goals.dropLast().allSatisfy { $0.details?.goalieInNetId != nil })
        let penalty = try #require(plays.first { $0.typeDescKey == .penalty })
        #expect(penalty.details?.typeCode == "MIN" && penalty.details?.duration == 2)
        #expect(penalty.details?.descKey == "tripping")
        #expect(penalty.details?.eventOwnerTeamId == pbp.awayTeam?.id)
        let ids = goals.flatMap {
            [$0.details?.scoringPlayerId, $0.details?.assist1PlayerId, $0.details?.assist2PlayerId, $0.details?.goalieInNetId]
        }
        .compactMap { $0 }
        #expect(ids.allSatisfy { pbp.rosterSpot(for: $0) != nil })
    }
}

// MARK: - Leniency

@Suite("NHL models: lenient decoding", .timeLimit(.minutes(5)))
struct LenientDecodingTests {

    @Test("unknown enum values are kept raw and encode back unchanged")
    func unknownEnumValues() throws {
        let game = try decodeJSON(
            ScheduleGame.self,
            """
            {"id": 1, "gameType": 20, "gameState": "SUSP", "gameScheduleState": "MAYBE",
             "periodDescriptor": {"periodType": "SD"}, "gameOutcome": {"lastPeriodType": "SD"}}
            """)
        #expect(game.gameState?.rawValue == "SUSP")
        #expect(game.gameState?.isLive == false && game.gameState?.isFinal == false && game.gameState?.isUpcoming == false)
        #expect(game.gameType?.rawValue == 20)
        #expect(game.gameType?.isStandard == false)
        #expect(game.gameScheduleState?.rawValue == "MAYBE")
        #expect(game.periodDescriptor?.periodType?.rawValue == "SD")

        let play = try decodeJSON(Play.self, #"{"typeCode": 999, "typeDescKey": "laser-show"}"#)
        #expect(play.typeDescKey?.rawValue == "laser-show")
        #expect(play.typeDescKey != .goal)

        #expect(try jsonObject(GameState("SUSP")) as? String == "SUSP")
        #expect(try jsonObject(GameType(20)) as? Int == 20)
        #expect(try jsonObject(PlayType("laser-show")) as? String == "laser-show")
        #expect(try jsonObject(GameScheduleState("MAYBE")) as? String == "MAYBE")

        let roundTrip = try JSONDecoder().decode(ScheduleGame.self, from: JSONEncoder().encode(game))
        #expect(roundTrip == game)
        #expect(try decodeJSON(GameState.self, #""LIVE""#) == .live)
        #expect(try decodeJSON(GameType.self, "3") == .playoffs)
    }

    @Test("known enum helpers")
    func enumHelpers() {
        #expect(GameState.crit.isLive && GameState.live.isLive)
        #expect(GameState.over.isFinal && GameState.final.isFinal && GameState.off.isFinal)
        #expect(GameState.fut.isUpcoming && GameState.pre.isUpcoming)
        #expect(GameScheduleState.cncl.isCancelled && GameScheduleState.ppd.isPostponed && GameScheduleState.tbd.isTimeTBD)
        #expect(GameType(rawValue: 1) == .preseason && GameType.allStar.rawValue == 4)
        #expect(PlayType.shotOnGoal.rawValue == "shot-on-goal")
    }

    @Test("LocalizedString decodes from a plain string or an object and encodes as an object")
    func localizedString() throws {
        let plain = try decodeJSON(LocalizedString.self, #""TOR""#)
        #expect(plain.value == "TOR" && plain.fr == nil)
        let object = try decodeJSON(LocalizedString.self, #"{"default": "Montréal", "fr": "Montréal", "cs": "Montreal"}"#)
        #expect(object.default == "Montréal" && object.fr == "Montréal")
        let frenchOnly = try decodeJSON(LocalizedString.self, #"{"fr": "Sénateurs"}"#)
        #expect(frenchOnly.value == "Sénateurs")

        let encoded = try #require(try jsonObject(plain) as? [String: String])
        #expect(encoded == ["default": "TOR"])

        let scoreGoal = try decodeJSON(ScoreGoal.self, #"{"teamAbbrev": "CAR", "strength": "EV"}"#)
        let landingGoal = try decodeJSON(LandingGoal.self, #"{"teamAbbrev": {"default": "CAR"}}"#)
        #expect(scoreGoal.teamAbbrev == landingGoal.teamAbbrev)
        #expect(scoreGoal.normalizedStrength == "ev")
    }

    /// A name the API left empty is no name, in every shape it can take: the team reads as
    /// its abbreviation, as it would with no name at all; a name of the wrong type still fails.
    @Test("an empty name is no name, and the team reads as its abbreviation")
    func emptyNames() throws {
        for empty in [#"{}"#, #"{"default": ""}"#, #"{"default": null}"#, #""  ""#] {
            let team = try decodeJSON(GameTeam.self, #"{"abbrev": "TOR", "name": "# + empty + #", "commonName": "# + empty + "}")
            #expect(team.name == nil && team.commonName == nil, "\(empty)")
            #expect(team.displayName == "TOR" && team.fullName == "TOR", "\(empty)")
        }
        #expect(throws: DecodingError.self) { try decodeJSON(GameTeam.self, #"{"abbrev": "TOR", "name": {"default": 42}}"#) }
    }

    @Test("penalty names accept a string, a localized object, or first/last names")
    func personNames() throws {
        #expect(try decodeJSON(PersonName.self, #""A. Greer""#).displayName == "A. Greer")
        #expect(try decodeJSON(PersonName.self, #"{"default": "A. Greer"}"#).displayName == "A. Greer")
        let parts = try decodeJSON(
            PersonName.self, #"{"firstName": {"default": "A."}, "lastName": {"default": "Greer"}, "sweaterNumber": 18}"#)
        #expect(parts.displayName == "A. Greer")
        #expect(parts.sweaterNumber == 18)
        // Encoded back in the API's shapes.
        let plain = try #require(try jsonObject(decodeJSON(PersonName.self, #""A. Greer""#)) as? [String: String])
        #expect(plain == ["default": "A. Greer"])
        #expect(try JSONDecoder().decode(PersonName.self, from: JSONEncoder().encode(parts)) == parts)
    }

    @Test("flexible scalars: number-or-string values and 0/1 flags")
    func flexibleScalars() throws {
        #expect(try decodeJSON(FlexibleValue.self, "20").int == 20)
        #expect(try decodeJSON(FlexibleValue.self, "0.5").number == 0.5)
        #expect(try decodeJSON(FlexibleValue.self, #""0/4""#).text == "0/4")
        #expect(try jsonObject(decodeJSON(FlexibleValue.self, #""0/4""#)) as? String == "0/4")
        #expect(try decodeJSON(FlexibleBool.self, "0").boolValue == false)
        #expect(try decodeJSON(FlexibleBool.self, "1").boolValue == true)
        #expect(try decodeJSON(FlexibleBool.self, "true").boolValue == true)
    }

    @Test("missing keys decode to nil, extra keys are ignored")
    func missingAndExtraKeys() throws {
        let game = try decodeJSON(ScheduleGame.self, #"{"someFutureKey": {"nested": [1, 2]}}"#)
        #expect(game.id == nil && game.gameState == nil && game.awayTeam == nil && game.startTime == nil)
        let schedule = try decodeJSON(ClubSchedule.self, "{}")
        #expect(schedule.games == nil && schedule.nextSeason == nil)
        let empty = try decodeJSON(Standings.self, #"{"wildCardIndicator": false, "standings": []}"#)
        #expect(empty.standings?.isEmpty == true)
        #expect(try decodeJSON(PlayByPlay.self, "{}").plays == nil)
        #expect(try decodeJSON(GameLanding.self, "{}").summary == nil)
        #expect(try decodeJSON(Boxscore.self, "{}").playerByGameStats == nil)
        #expect(try decodeJSON(PlayerLanding.self, "{}").seasonTotals == nil)
        #expect(try decodeJSON(Roster.self, "{}").allPlayers.isEmpty)
        #expect(try decodeJSON(DailyScore.self, "{}").games == nil)
        #expect(try decodeJSON(LeagueSchedule.self, "{}").allGames.isEmpty)
        let row = try decodeJSON(SeasonTotal.self, #"{"season": 20252026}"#)
        #expect(row.season == 20252026 && row.stats.goals == nil)
    }

    @Test("a wrong type in a required-shape position throws a DecodingError")
    func wrongTypesThrow() {
        #expect(throws: DecodingError.self) { try decodeJSON(ScheduleGame.self, #"{"id": "abc"}"#) }
        #expect(throws: DecodingError.self) { try decodeJSON(ClubSchedule.self, #"{"games": {"id": 1}}"#) }
        #expect(throws: DecodingError.self) { try decodeJSON(LocalizedString.self, "42") }
        #expect(throws: DecodingError.self) { try decodeJSON(LocalizedString.self, #"{"default": 42}"#) }
        #expect(throws: DecodingError.self) { try decodeJSON(GameState.self, "5") }
        #expect(throws: DecodingError.self) { try decodeJSON(GameType.self, #""regular""#) }
        #expect(throws: DecodingError.self) { try decodeJSON(Standings.self, "[]") }
        #expect(throws: DecodingError.self) { try decodeJSON(PlayByPlay.self, #"{"plays": [{"details": []}]}"#) }
    }

    @Test("timestamps parse as ISO-8601 UTC; malformed ones give nil")
    func timestamps() throws {
        let game = try decodeJSON(ScheduleGame.self, #"{"startTimeUTC": "2025-10-12T00:00:00Z"}"#)
        #expect(game.startTime == Date(timeIntervalSince1970: 1_760_227_200))
        #expect(try decodeJSON(ScheduleGame.self, #"{"startTimeUTC": "soon"}"#).startTime == nil)
        let standings = try decodeJSON(Standings.self, #"{"standingsDateTimeUtc": "2025-10-09T05:42:37Z"}"#)
        #expect(standings.standingsDate == Date(timeIntervalSince1970: 1_759_988_557))
    }

    @Test("period labels")
    func periodLabels() {
        #expect(PeriodDescriptor(number: 1, periodType: .reg).label == "1st")
        #expect(PeriodDescriptor(number: 3, periodType: .reg).label == "3rd")
        #expect(PeriodDescriptor(number: 4, periodType: .ot).label == "OT")
        #expect(PeriodDescriptor(number: 6, periodType: .ot, maxRegulationPeriods: 3).label == "3OT")
        #expect(PeriodDescriptor(number: 5, periodType: .so).label == "SO")
        #expect(PeriodDescriptor(periodType: .reg, maxRegulationPeriods: 3).label == "")
    }

    @Test("season rows keep their flat JSON shape when encoded")
    func seasonTotalRoundTrip() throws {
        let json =
            #"{"season": 20242025, "leagueAbbrev": "NHL", "gameTypeId": 2, "goals": 33, "savePctg": 0.9, "teamName": {"default": "Toronto Maple Leafs"}}"#
        let row = try decodeJSON(SeasonTotal.self, json)
        #expect(row.stats.goals == 33 && row.stats.savePctg == 0.9 && row.gameTypeId == .regularSeason)
        let object = try #require(try jsonObject(row) as? [String: Any])
        #expect(object["goals"] as? Int == 33)
        #expect(object["season"] as? Int == 20242025)
        #expect(try JSONDecoder().decode(SeasonTotal.self, from: JSONEncoder().encode(row)) == row)
    }
}
