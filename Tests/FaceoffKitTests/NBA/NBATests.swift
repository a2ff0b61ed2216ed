import Foundation
import Testing

@testable import FaceoffAPI
@testable import FaceoffESPN
@testable import FaceoffFan
@testable import FaceoffKit
@testable import FaceoffNHL

@Suite(.timeLimit(.minutes(5))) struct TeamInputTests {
    @Test func aLeagueWrittenIsThatLeague() throws {
        #expect(try TeamInput.resolve("nba:LAL") == .nba(NBATeams.team(id: "13")!))
        #expect(try TeamInput.resolve("NBA:lakers") == .nba(NBATeams.team(id: "13")!))
        #expect(try TeamInput.resolve("nhl:TOR") == .nhl("TOR"))
        #expect(try TeamInput.resolve("nhl:Kings") == .nhl("LAK"))
        #expect(try TeamInput.resolve("nba:Kings") == .nba(NBATeams.team(id: "23")!))
    }

    /// A game is parsed in one place: a league written is that league, an id alone the NHL's
    /// when it has the NHL's shape; a team, a file or a stray number is no game.
    @Test func aGameWrittenIsALeagueAndAnID() {
        #expect(GameKey.parse("nba:401585607") == GameKey(league: .nba, id: 401_585_607))
        #expect(GameKey.parse(" NBA:401585607 ") == GameKey(league: .nba, id: 401_585_607))
        #expect(GameKey.parse("2025020100") == GameKey(league: .nhl, id: 2_025_020_100))
        #expect(GameKey.parse("nhl:2025020100") == GameKey(league: .nhl, id: 2_025_020_100))
        for notAGame in [
            "TOR", "nba:LAL", "12345", "nhl:12345", "nba:", "nba:-5", "nba:0", "mlb:745123", "game.json", "2025020100x", "٢٠٢٥",
        ] {
            #expect(GameKey.parse(notAGame) == nil, "\(notAGame)")
        }
        #expect(GameKey.parse("nba:401585607")?.written == "nba:401585607" && GameKey.parse("nhl:2025020100")?.written == "2025020100")
        // What is written as a game and is none says so; a team or a file is not its business.
        #expect(GameKey.mistake(in: "12345")?.contains("'12345' is no game") == true)
        #expect(GameKey.mistake(in: "nba: 40158560712")?.contains("'nba: 40158560712' is no game") == true)
        #expect(GameKey.mistake(in: "mlb:745123")?.contains("'mlb' is not a league") == true)
        for notWrittenAsAGame in ["TOR", "nba:LAL", "game.json", "2025020100", "nba:401585607"] {
            #expect(GameKey.mistake(in: notWrittenAsAGame) == nil, "\(notWrittenAsAGame)")
        }
    }

    @Test func theNBAsTricodesAndESPNsAbbreviationsAreOneTeam() throws {
        for (typed, espn) in [
            ("GSW", "GS"), ("NYK", "NY"), ("SAS", "SA"), ("NOP", "NO"), ("UTA", "UTAH"), ("WAS", "WSH"), ("utah", "UTAH"),
        ] {
            guard case .nba(let team) = try TeamInput.resolve("nba:\(typed)") else {
                Issue.record("nba:\(typed) is not an NBA team")
                continue
            }
            #expect(team.abbrev == espn, "nba:\(typed)")
        }
    }

    /// A bare NHL abbreviation, or a name only the NHL has, means what it meant before the
    /// NBA: the NHL's team.
    @Test func bareNHLAbbreviationsStayTheNHLs() throws {
        for abbrev in ["TOR", "BOS", "WSH", "UTA", "MIN", "DAL", "PHI", "CHI", "DET"] {
            #expect(try TeamInput.resolve(abbrev) == .nhl(abbrev))
        }
        #expect(try TeamInput.resolve("Leafs") == .nhl("TOR"))
        #expect(try TeamInput.resolve("Habs") == .nhl("MTL"))
    }

    @Test func aNameOnlyTheNBAHasIsTheNBAs() throws {
        #expect(try TeamInput.resolve("Lakers") == .nba(NBATeams.team(id: "13")!))
        #expect(try TeamInput.resolve("Golden State") == .nba(NBATeams.team(id: "9")!))
        #expect(try TeamInput.resolve("sixers") == .nba(NBATeams.team(id: "20")!))
    }

    /// Where only the NHL goes (config `teams`, `follow`, `watch`, `calendar`), every name
    /// means what it always meant; only an NBA team's name or `nba:` is refused as the NBA's.
    @Test func whereOnlyTheNHLGoesNamesKeepTheirMeaning() throws {
        #expect(try TeamInput.nhl("Kings") == "LAK")
        #expect(try TeamInput.nhl("Utah") == "UTA")
        #expect(try TeamInput.nhl("Boston") == "BOS")
        #expect(try TeamInput.nhl("nhl:Hawks") == "CHI")
        #expect {
            try TeamInput.nhl("New York")
        } throws: { "\($0)".contains("NYI, NYR") && !"\($0)".contains("Knicks") }
        #expect {
            try TeamInput.nhl("PHX")
        } throws: { "\($0)".contains("Coyotes") }
        #expect {
            try TeamInput.nhl("Lakers")
        } throws: { "\($0)".contains("are an NBA team") }
    }

    @Test func aNameBothLeaguesHaveAsksForTheLeague() {
        for name in ["Kings", "Boston", "Hawks"] {
            #expect {
                try TeamInput.resolve(name)
            } throws: { error in
                let said = "\(error)"
                return said.contains("both leagues") && said.contains("nhl:\(name)") && said.contains("nba:\(name)")
            }
        }
    }

    /// "New York" is two NHL teams and an NBA one: all three are named.
    @Test func aNameOfSeveralTeamsNamesThemAll() {
        #expect {
            try TeamInput.resolve("New York")
        } throws: { "\($0)".contains("NYI, NYR, nba:NY") }
    }

    @Test func unknownTeamsAndLeaguesSayWhatToWrite() {
        #expect(throws: UnknownTeamError.self) { try TeamInput.resolve("mlb:NYY") }
        #expect {
            try TeamInput.resolve("nba:LAX")
        } throws: { "\($0)".contains("did you mean nba:") }
        // Where only the NHL goes so far, an NBA team is refused, saying what the NBA has.
        #expect {
            try TeamInput.nhl("nba:LAL")
        } throws: { "\($0)".contains("with nba:LAL") }
    }
}

@Suite(.timeLimit(.minutes(5)), .enabled(if: ESPNRecordings.available, "../shared/espn-api/fixtures not present"))
struct NBARecordingTests {
    /// The fact table agrees with ESPN: ids, abbreviations and divisions with its by-division
    /// list, names with its team list, conferences with its standings.
    @Test func theFactTableIsWhatESPNSays() throws {
        let byDivision = try #require(
            (ESPNRecordings.json("teams_by-division_nfl-mlb-nba-nhl.json") as? [String: Any])?["nba"] as? [[String: Any]])
        var seen = 0
        for division in byDivision {
            let name = try #require(division["name"] as? String)
            for team in try #require(division["teams"] as? [[String: Any]]) {
                let id = try #require(team["id"] as? String)
                let known = try #require(NBATeams.team(id: id), "ESPN's team \(id)")
                #expect(known.abbrev == team["abbreviation"] as? String)
                #expect(known.division == name, "\(known.name)")
                seen += 1
            }
        }
        #expect(seen == 30 && NBATeams.all.count == 30)
        let list = try ESPNRecordings.decode(ESPNTeamList.self, "teams_nba_2024-25.json")
        #expect(list.teams.count == 30)
        for team in list.teams {
            #expect(NBATeams.team(id: team.id ?? "")?.name == team.displayName)
        }
        let standings = try ESPNRecordings.decode(ESPNStandings.self, "standings_nba_2025-26_final.json")
        for group in standings.children ?? [] {
            for entry in group.standings?.entries ?? [] {
                let team = try #require(NBATeams.team(id: entry.team?.id ?? ""))
                #expect(group.name == "\(team.conference) Conference", "\(team.name)")
            }
        }
    }

    /// By conference in seed order (ESPN's entries are not), the marks as given; by division
    /// by record, games behind the division's leader.
    @Test func standingsByConferenceAndByDivision() throws {
        let standings = try ESPNRecordings.decode(ESPNStandings.self, "standings_nba_2025-26_final.json")
        let conference = NBAStandingsReport(standings: standings, by: .conference)
        #expect(conference.season == "2025-26")
        #expect(conference.groups.map(\.name) == ["Eastern Conference", "Western Conference"])
        let east = conference.groups[0].rows
        #expect(east.map(\.seed) == Array(1...15))
        #expect(east.map(\.rank) == Array(1...15))
        #expect(east.first?.abbrev == "DET" && east.first?.clinch == "z" && east.first?.gamesBehind == "-")
        #expect(east.last?.clinch == "e")
        #expect(conference.groups[1].rows.first?.abbrev == "OKC" && conference.groups[1].rows.first?.clinch == "*")

        let division = NBAStandingsReport(standings: standings, by: .division)
        #expect(division.groups.map(\.name) == ["Atlantic", "Central", "Southeast", "Northwest", "Pacific", "Southwest"])
        for group in division.groups {
            #expect(group.rows.count == 5, "\(group.name)")
            #expect(group.rows.first?.gamesBehind == "-")
            let pcts = group.rows.map { Double($0.wins) / Double($0.wins + $0.losses) }
            #expect(pcts == pcts.sorted(by: >), "\(group.name)")
        }
        // Games behind the division's leader, worked out by hand from the recorded records
        // (LAL 53-29, PHX 45-37, LAC 42-40, GS 37-45, SAC 22-60).
        let pacific = try #require(division.groups.first { $0.name == "Pacific" })
        #expect(pacific.rows.map(\.abbrev) == ["LAL", "PHX", "LAC", "GS", "SAC"])
        #expect(pacific.rows.map(\.gamesBehind) == ["-", "8", "11", "16", "31"])
        // The East's first seed leads its division too.
        let central = try #require(division.groups.first { $0.name == "Central" })
        #expect(central.rows.first?.abbrev == "DET")
    }

    @Test func aRosterByJerseyNumberWithHeightAndAge() throws {
        let roster = try ESPNRecordings.decode(ESPNRoster.self, "roster_nba_13_lal_2025-05-31.json")
        let report = RosterReport(nba: roster, team: NBATeams.team(id: "13")!)
        #expect(report.league == "NBA" && report.team == "LAL")
        #expect(report.groups.map(\.name) == ["Players"])
        let players = report.groups[0].players
        #expect(players.count == 17)
        let numbers = players.compactMap(\.number)
        #expect(numbers == numbers.sorted())
        let luka = try #require(players.first { $0.name == "Luka Doncic" })
        #expect(luka.number == 77 && luka.position == "PG" && luka.heightInches == 78 && luka.weightPounds == 230 && luka.age == 26)
        #expect(luka.birthDate == "1999-02-28" && luka.handedness == nil)
    }

    /// An answer about another team is refused before anything is cached or shown.
    @Test func aRosterOfAnotherTeamIsRefused() throws {
        let roster = try ESPNRecordings.decode(ESPNRoster.self, "roster_nba_13_lal_2026-05-23.json")
        let celtics = NBATeams.team(id: "2")!
        #expect(Endpoint<ESPNRoster>.nbaRoster(celtics).problem(roster)?.contains("not the Boston Celtics") == true)
        #expect(Endpoint<ESPNRoster>.nbaRoster(NBATeams.team(id: "13")!).problem(roster) == nil)
    }

    @Test func teamsInTheirColoursFromESPNsList() throws {
        let list = try ESPNRecordings.decode(ESPNTeamList.self, "teams_nba_2024-25.json")
        let report = TeamsReport(nba: list)
        #expect(report.league == "NBA" && report.source == "api")
        #expect(report.conferences.map(\.name) == ["Eastern", "Western"])
        #expect(report.conferences[1].divisions.map(\.name) == ["Northwest", "Pacific", "Southwest"])
        let lakers = try #require(report.conferences.flatMap(\.divisions).flatMap(\.teams).first { $0.abbrev == "LAL" })
        #expect(lakers.primaryColor == "#552583" && lakers.secondaryColor == "#FDB927")
        let offline = TeamsReport(nba: nil)
        #expect(offline.source == "built-in" && offline.conferences.flatMap(\.divisions).flatMap(\.teams).count == 30)
    }

    /// Both recorded schedules: every game the Lakers', finals with their scores (an object in
    /// one recording, integers in the other), `Final/OT` as OT, a game with no time on its
    /// Eastern day; another team's schedule and one that lost every game are refused.
    @Test func schedulesAsGames() throws {
        let lakers = NBATeams.team(id: "13")!
        let time = LocalTime(timeZone: TimeZone(identifier: "America/Los_Angeles")!)
        for name in ["schedule_nba_13_lal_2026_postseason_with_ot_and_tbd.json", "schedule_nba_13_lal_2025_postseason.json"] {
            let schedule = try ESPNRecordings.decode(ESPNTeamSchedule.self, name)
            #expect(Endpoint<ESPNTeamSchedule>.nbaSchedule(lakers).problem(schedule) == nil, "\(name)")
            #expect(
                Endpoint<ESPNTeamSchedule>.nbaSchedule(NBATeams.team(id: "2")!).problem(schedule)?.contains("not the Boston Celtics")
                    == true)
            let games = (schedule.events ?? []).compactMap { GameSummary(nba: $0, team: lakers, time: time) }
            #expect(games.count == schedule.events?.count)
            for game in games where game.isFinal {
                let ours = game.homeOrAway == "home" ? game.home.score : game.away.score
                let theirs = game.homeOrAway == "home" ? game.away.score : game.home.score
                #expect(ours != nil && theirs != nil && (game.result == "W") == (ours! > theirs!), "\(game.id)")
                #expect(game.type == "playoffs")
            }
        }
        let schedule = try ESPNRecordings.decode(ESPNTeamSchedule.self, "schedule_nba_13_lal_2026_postseason_with_ot_and_tbd.json")
        let games = (schedule.events ?? []).compactMap { GameSummary(nba: $0, team: lakers, time: time) }
        #expect(games.filter { $0.endedIn == "OT" }.map(\.id) == [401_869_400])
        #expect(games.filter(\.timeTBD).map(\.date) == ["2026-05-13", "2026-05-16", "2026-05-18"])
        var emptied = schedule
        emptied.events = []
        #expect(Endpoint<ESPNTeamSchedule>.nbaSchedule(lakers).regression(emptied, schedule)?.contains("no games") == true)
        // One rule for every league: a part of a season that lost most of its games is refused,
        // as the NHL's is; another part (the playoffs after the regular season) is no loss.
        var gutted = schedule
        gutted.events = (schedule.events ?? []).enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        #expect(
            Endpoint<ESPNTeamSchedule>.nbaSchedule(lakers).regression(gutted, schedule)?.contains("games are missing from it") == true)
        var regular = schedule
        regular.season?.type = 2
        #expect(Endpoint<ESPNTeamSchedule>.nbaSchedule(lakers).regression(gutted, regular) == nil)
        var oneGone = schedule
        oneGone.events?.removeLast()
        #expect(Endpoint<ESPNTeamSchedule>.nbaSchedule(lakers).regression(oneGone, schedule) == nil)
        // A series over early: its three "if necessary" games (no time yet) go, which is news,
        // not a broken answer.
        var swept = schedule
        swept.events = (schedule.events ?? []).filter(\.hasTime)
        #expect((schedule.events?.count ?? 0) - (swept.events?.count ?? 0) == 3)
        #expect(Endpoint<ESPNTeamSchedule>.nbaSchedule(lakers).regression(swept, schedule) == nil)
    }

    /// The recorded summaries as box scores: a final's periods add up to its score and its
    /// players' points to the team's; the game in progress is live with no final; a game not
    /// begun has no score, players or leaders (its summary's leaders are the season's).
    @Test func summariesAsBoxScores() throws {
        let finals = [
            ("summary_nba_401585607_final_tor_at_orl_20240317.json", 401_585_607, "TOR", 96, "ORL", 111),
            ("summary_nba_401468642_final_dal_at_hou_20221223.json", 401_468_642, "DAL", 112, "HOU", 106),
        ]
        for (name, id, away, awayScore, home, homeScore) in finals {
            let summary = try ESPNRecordings.decode(ESPNSummary.self, name)
            #expect(Endpoint<ESPNSummary>.nbaSummary(id).problem(summary) == nil)
            #expect(Endpoint<ESPNSummary>.nbaSummary(id + 1).problem(summary)?.contains("not \(id + 1)") == true)
            let report = NBABoxScoreReport(summary: summary, id: id)
            #expect(report.status == "final")
            #expect(
                report.away.abbrev == away && report.away.score == awayScore && report.home.abbrev == home && report.home.score == homeScore
            )
            for team in [report.away, report.home] {
                #expect(team.periods.reduce(0, +) == team.score, "\(team.abbrev)")
                #expect(team.players.compactMap(\.points).reduce(0, +) == team.score, "\(team.abbrev)")
                #expect(team.players.filter(\.starter).count == 5, "\(team.abbrev)")
            }
            let top = try #require(report.leaders.first { $0.category == "Points" && $0.team == home })
            #expect(Int(top.value) == report.home.players.compactMap(\.points).max())
        }
        let live = NBABoxScoreReport(
            summary: try ESPNRecordings.decode(ESPNSummary.self, "summary_nba_401705066_in-progress-q4_lac_at_min_20250106.json"),
            id: 401_705_066)
        #expect(live.status == "live" && live.detail == "8:10 - 4th Quarter" && live.home.score == 87 && live.away.score == 78)
        #expect(live.home.periods.reduce(0, +) == 87)
        // The playoff series, not the regular season's meetings listed before it.
        let sixth = NBABoxScoreReport(
            summary: try ESPNRecordings.decode(ESPNSummary.self, "summary_nba_401772994_pregame_ecf_g6.json"), id: 401_772_994)
        #expect(sixth.series == "IND leads series 3-2" && sixth.start != nil && sixth.day == nil)
        for name in ["summary_nba_401772994_pregame_ecf_g6.json", "summary_nba_401812480_pregame_phi_at_ny.json"] {
            let summary = try ESPNRecordings.decode(ESPNSummary.self, name)
            let report = NBABoxScoreReport(summary: summary, id: Int(summary.header?.id ?? "") ?? 0)
            #expect(report.status == "scheduled" && report.away.score == nil && report.home.score == nil)
            #expect(report.away.players.isEmpty && report.home.players.isEmpty && report.leaders.isEmpty && report.home.periods.isEmpty)
        }
    }

    /// Scoreboards say whether a game has its time on the competition, schedules on the event:
    /// a game without one, either way, shows its day and no time.
    @Test func aGameWithNoTimeYetWhereverESPNSaysSo() throws {
        var board = try ESPNRecordings.decode(ESPNScoreboard.self, "scoreboard_nba_20221225_all-scheduled.json")
        let time = LocalTime(timeZone: TimeZone(identifier: "America/Los_Angeles")!)
        #expect(board.events?.allSatisfy { $0.timeValid == nil && $0.hasTime } == true)
        board.events?[0].competitions?[0].timeValid = false
        let report = ScoresReport(nba: board, day: "2022-12-25", followed: [], time: time)
        let untimed = try #require(report.games.first { $0.timeTBD })
        #expect(untimed.start == nil && untimed.startLocal == nil)
        #expect(report.games.filter(\.timeTBD).count == 1)
    }
}
