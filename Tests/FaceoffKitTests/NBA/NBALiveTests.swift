import FaceoffAPI
import FaceoffESPN
import FaceoffHTTP
import FaceoffStore
import Foundation
import Testing

@testable import FaceoffDaemon
@testable import FaceoffDelivery
@testable import FaceoffKit

/// The basketball engine on ESPN's recorded summaries: each replayed one play at a time, as
/// polls of a live game would have seen it.
@Suite(.timeLimit(.minutes(5))) struct NBALiveTests {
    static let finals = [
        "summary_nba_401468642_final_dal_at_hou_20221223.json", "summary_nba_401585607_final_tor_at_orl_20240317.json",
    ]
    static let inProgress = "summary_nba_401705066_in-progress-q4_lac_at_min_20250106.json"

    /// Every event a poll after each play hands out, in order. Seconds of CPU for a whole
    /// game, so on a thread of its own, off the pool every other test's tasks run on.
    static func replayed(_ summary: ESPNSummary) async throws -> [GameEvent] {
        try await Replays.offPool {
            var detector = NBAEventDetector()
            let count = summary.plays?.count ?? 0
            return (1...max(1, count)).flatMap { detector.process(NBASnapshot(summary, playCount: $0)) }
        }
    }

    /// Lead changes counted straight from the answer's plays: each scoring play's points to
    /// its team, in the answer's order, and the other team going ahead.
    static func leadChanges(_ name: String) throws -> Int {
        let root = try #require(try ESPNRecordings.json(name) as? [String: Any])
        let plays = try #require(root["plays"] as? [[String: Any]])
        let header = try #require((root["header"] as? [String: Any])?["competitions"] as? [[String: Any]])
        let competitors = try #require(header.first?["competitors"] as? [[String: Any]])
        let homeID = try #require(competitors.first { $0["homeAway"] as? String == "home" }?["team"] as? [String: Any])["id"] as? String
        var leader = 0
        var changes = 0
        var away = 0
        var home = 0
        for play in plays where play["scoringPlay"] as? Bool == true {
            let points = play["scoreValue"] as? Int ?? 0
            if (play["team"] as? [String: Any])?["id"] as? String == homeID { home += points } else { away += points }
            let now = away > home ? -1 : home > away ? 1 : 0
            if now != 0, now != leader {
                if leader != 0 { changes += 1 }
                leader = now
            }
        }
        return changes
    }

    @Test(ESPNRecordings.needed, arguments: finals) func aFinishedGameGivesOneFinalTheQuartersAndItsLeadChanges(_ name: String) async throws
    {
        let summary = try ESPNRecordings.decode(ESPNSummary.self, name)
        let events = try await Self.replayed(summary)
        let finals = events.filter { $0.kind == .final }
        try #require(finals.count == 1)
        let header = summary.header?.competitions?.first?.competitors ?? []
        let away = try #require(header.first { $0.homeAway == "away" }?.score?.points)
        let home = try #require(header.first { $0.homeAway == "home" }?.score?.points)
        #expect(finals[0].score == GameEvent.Score(away: away, home: home))
        #expect(finals[0].league == .nba)
        #expect(finals[0].details["winner"] == (away > home ? finals[0].away : finals[0].home))
        #expect(events.last?.kind == .final)
        #expect(events.filter { $0.kind == .periodStart }.compactMap(\.period) == [1, 2, 3, 4])
        #expect(events.filter { $0.kind == .periodEnd }.compactMap(\.period) == [1, 2, 3, 4])
        #expect(events.filter { $0.kind == .periodEnd && $0.details["halftime"] == "true" }.compactMap(\.period) == [2])
        #expect(events.filter { $0.kind == .gameStart }.count == 1)
        let changes = try Self.leadChanges(name)
        #expect(changes > 0)
        #expect(events.filter { $0.kind == .leadChange }.count == changes)
        #expect(finals[0].details["lead_changes"] == String(changes))
        #expect(Set(events.map(\.id)).count == events.count, "an event handed out twice")
        // Polling doesn't change what is found: the whole game at once gives the same events.
        #expect(NBAEventDetector.derive(NBASnapshot(summary)).map(\.id) == events.map(\.id))
    }

    @Test(ESPNRecordings.needed) func aGameInProgressGivesTheEventsSoFarAndNoFinal() async throws {
        let summary = try ESPNRecordings.decode(ESPNSummary.self, Self.inProgress)
        let events = try await Self.replayed(summary)
        #expect(!events.contains { $0.kind == .final })
        #expect(events.filter { $0.kind == .periodStart }.compactMap(\.period) == [1, 2, 3, 4])
        #expect(events.filter { $0.kind == .periodEnd }.compactMap(\.period) == [1, 2, 3])
        #expect(events.filter { $0.kind == .leadChange }.count == (try Self.leadChanges(Self.inProgress)))
        #expect(Set(events.map(\.id)).count == events.count)
        let snapshot = NBASnapshot(summary)
        #expect(snapshot.isLive)
        #expect(snapshot.away.score == 78 && snapshot.home.score == 87)
        // Joined now: one summary with the quarter and the clock, and nothing before it later.
        var detector = NBAEventDetector()
        let joined = detector.join(snapshot)
        #expect(joined.kind == .gameJoined)
        #expect(joined.period == 4 && joined.details["time_remaining"] == "8:10")
        #expect(joined.details["scorers"]?.hasPrefix("LAC: ") == true)
        #expect(detector.process(snapshot).isEmpty)
    }

    /// Milestones are counted from the plays; at the end of each recording, every player's
    /// points, rebounds and assists counted that way are the box score's.
    @Test(ESPNRecordings.needed, arguments: finals + [inProgress]) func thePlayersLinesFromThePlaysAreTheBoxScores(_ name: String) throws {
        let summary = try ESPNRecordings.decode(ESPNSummary.self, name)
        let lines = NBAEventDetector.lines(NBASnapshot(summary))
        var checked = 0
        for team in summary.boxscore?.players ?? [] {
            let names = team.statistics?.first?.names ?? []
            for athlete in team.statistics?.first?.athletes ?? [] {
                guard let id = athlete.athlete?.id, let stats = athlete.stats, stats.count == names.count else { continue }
                let box = Dictionary(uniqueKeysWithValues: zip(names, stats))
                let line = lines[id] ?? (0, 0, 0)
                #expect(box["PTS"] == String(line.points), "\(name) \(id) points")
                #expect(box["REB"] == String(line.rebounds), "\(name) \(id) rebounds")
                #expect(box["AST"] == String(line.assists), "\(name) \(id) assists")
                checked += 1
            }
        }
        #expect(checked >= 16)
    }

    @Test(ESPNRecordings.needed) func aBigNightIsSaidOncePerMilestone() async throws {
        let summary = try ESPNRecordings.decode(ESPNSummary.self, Self.finals[0])
        let milestones = try await Self.replayed(summary).filter { $0.kind == .milestone }
        // Luka Doncic's 50 points with 10 assists (Dec 23, 2022).
        let luka = milestones.filter { $0.players.first?.name == "Luka Doncic" }.compactMap { $0.details["milestone"] }
        #expect(luka == ["30 points", "40 points", "double-double", "50 points"])
        #expect(milestones.allSatisfy { $0.team == $0.players.first?.team })
    }

    // Hand-made plays for the rules the recordings show only once or not at all.

    static func summary(_ plays: [ESPNSummary.Play], final: Bool = false) throws -> ESPNSummary {
        let header: [String: Any] = [
            "id": "401000001",
            "competitions": [
                [
                    "status": [
                        "type": ["state": final ? "post" : "in", "completed": final, "name": final ? "STATUS_FINAL" : "STATUS_IN_PROGRESS"]
                    ],
                    "competitors": [
                        ["homeAway": "home", "team": ["id": "13", "abbreviation": "LAL"], "score": "0"],
                        ["homeAway": "away", "team": ["id": "2", "abbreviation": "BOS"], "score": "0"],
                    ],
                ]
            ],
        ]
        var summary = try JSONDecoder().decode(ESPNSummary.self, from: JSONSerialization.data(withJSONObject: ["header": header]))
        summary.plays = plays
        return summary
    }

    /// Baskets: (team id, points, quarter, clock); the score after each follows.
    static func baskets(_ list: [(String, Int, Int, String)]) -> [ESPNSummary.Play] {
        var away = 0
        var home = 0
        return list.enumerated().map { index, basket in
            if basket.0 == "13" { home += basket.1 } else { away += basket.1 }
            return ESPNSummary.Play(
                sequenceNumber: String(index + 1), type: "Jump Shot", awayScore: away, homeScore: home, period: basket.2, clock: basket.3,
                scoringPlay: true, scoreValue: basket.1, team: basket.0, participants: ["\(basket.0)01"])
        }
    }

    @Test func aCloseFinishIsSaidOnceEachTimeItGetsClose() throws {
        let plays = Self.baskets([
            ("13", 3, 4, "9:00"), ("13", 3, 4, "8:00"),  // 0-6, too early anyway
            ("2", 2, 4, "5:00"),  // 2-6: close, at 5:00 left
            ("2", 2, 4, "4:30"),  // 4-6: still the same stretch
            ("13", 3, 4, "4:00"), ("13", 3, 4, "3:30"),  // 4-12: not close
            ("2", 3, 4, "2:00"),  // 7-12: close again
            ("2", 3, 5, "4:00"),  // overtime goes on with the same stretch
        ])
        let events = NBAEventDetector.derive(NBASnapshot(try Self.summary(plays)))
        let close = events.filter { $0.kind == .closeGame }
        #expect(close.map(\.id) == ["401000001:close_game:1", "401000001:close_game:2"])
        #expect(close.map { $0.details["margin"] } == ["4", "5"])
        #expect(close[0].details["time_remaining"] == "5:00")
    }

    @Test func aRunIsTenUnansweredPointsSaidOnce() throws {
        let plays = Self.baskets([
            ("2", 2, 1, "11:00"),
            ("13", 3, 1, "10:40"), ("13", 2, 1, "10:20"), ("13", 3, 1, "10:00"),  // 8-0
            ("13", 2, 1, "9:40"),  // 10-0: the run
            ("13", 2, 1, "9:20"),  // 12-0: the same run
            ("2", 2, 1, "9:00"),  // answered
            ("13", 3, 1, "8:40"), ("13", 3, 1, "8:20"), ("13", 3, 1, "8:00"),  // 9-0, no run
        ])
        let runs = NBAEventDetector.derive(NBASnapshot(try Self.summary(plays))).filter { $0.kind == .run }
        #expect(runs.map(\.id) == ["401000001:run:LAL-1"])
        #expect(runs.first?.details["run_score"] == "10-0")
        #expect(runs.first?.team == "LAL")
        #expect(runs.first?.clock == "02:20")
    }

    @Test func aTieDoesNotChangeTheLeadButTheOtherTeamGoingAheadDoes() throws {
        let plays = Self.baskets([("13", 2, 1, "11:00"), ("2", 2, 1, "10:00"), ("13", 2, 1, "9:00"), ("2", 3, 1, "8:00")])
        let changes = NBAEventDetector.derive(NBASnapshot(try Self.summary(plays))).filter { $0.kind == .leadChange }
        #expect(changes.map(\.id) == ["401000001:lead_change:4"])
        #expect(changes.first?.team == "BOS")
    }

    /// ESPN logs a play late with the score as it stood before the one it was inserted
    /// behind (the TOR @ ORL recording: a layup at 22–26 right after 24–24): each basket counts
    /// for its team, so no score goes backwards and no lead changes twice.
    @Test func aStaleScoreOnALatePlayIsNotBelieved() throws {
        var plays = Self.baskets([("2", 2, 1, "11:00"), ("13", 2, 1, "10:30"), ("2", 2, 1, "10:00")])  // 4-2
        plays.append(
            ESPNSummary.Play(
                sequenceNumber: "9", type: "Layup Shot", awayScore: 2, homeScore: 4, period: 1, clock: "9:30", scoringPlay: true,
                scoreValue: 2, team: "13", participants: ["1301"]))
        let events = NBAEventDetector.derive(NBASnapshot(try Self.summary(plays)))
        let scores = events.filter { $0.kind == .score }.map(\.score)
        #expect(scores.map(\.away) == [2, 2, 4, 4] && scores.map(\.home) == [0, 2, 2, 4], "\(scores)")
        #expect(events.filter { $0.kind == .leadChange }.isEmpty)
    }

    /// A play ESPN wrote oddly (a score as text) costs that play, not the game.
    @Test func aMalformedPlayLosesOnlyItself() throws {
        let text =
            #"{"header": {"id": "1"}, "plays": [{"sequenceNumber": "1", "awayScore": 2}, {"sequenceNumber": "2", "awayScore": "two"}]}"#
        let summary = try JSONDecoder().decode(ESPNSummary.self, from: Data(text.utf8))
        #expect(summary.plays?.map(\.sequenceNumber) == ["1"])
    }

    /// A basket whose points the answer left out: its own score, ahead of the count, is taken.
    @Test func aPlaysScoreAheadOfTheCountIsTaken() throws {
        var plays = Self.baskets([("2", 2, 1, "11:00")])
        plays.append(
            ESPNSummary.Play(
                sequenceNumber: "2", type: "Layup Shot", awayScore: 2, homeScore: 2, period: 1, clock: "10:30", scoringPlay: true,
                team: "13", participants: ["1301"]))
        plays += Self.baskets([("2", 2, 1, "10:00"), ("13", 3, 1, "9:30"), ("13", 2, 1, "9:00")]).enumerated().map { index, play in
            var play = play
            play.sequenceNumber = String(3 + index)
            play.awayScore = (play.awayScore ?? 0) + 2
            play.homeScore = (play.homeScore ?? 0) + 2
            return play
        }
        let events = NBAEventDetector.derive(NBASnapshot(try Self.summary(plays)))
        let scores = events.filter { $0.kind == .score }.map { "\($0.score.away)-\($0.score.home)" }
        #expect(scores == ["2-0", "2-2", "4-2", "4-5", "4-7"], "\(scores)")
    }

    /// After a gap, the summary counts what the sink would have had, not every basket.
    @Test(ESPNRecordings.needed) func aCatchUpCountsNoBasketsNobodyAskedFor() throws {
        let snapshot = NBASnapshot(try ESPNRecordings.decode(ESPNSummary.self, Self.finals[1]))
        let all = NBAEventDetector.derive(snapshot).filter { $0.kind != .final }
        var detector = NBAEventDetector()
        let summary = detector.caughtUp(snapshot, missed: all)
        let others = all.filter { $0.kind != .score && $0.kind != .leadChange }.count
        #expect(summary.details["missed"] == "6 lead changes, \(others) other alerts")
        #expect(summary.details["caught_up"] == "true")
    }

    /// The end of the 4th with a winner is the end of the game: no break follows.
    @Test(ESPNRecordings.needed) func theLastQuartersEndIsNoBreak() throws {
        let events = NBAEventDetector.derive(NBASnapshot(try ESPNRecordings.decode(ESPNSummary.self, Self.finals[1])))
        let ends = events.filter { $0.kind == .periodEnd }
        #expect(ends.map { $0.details["intermission"] } == ["true", "true", "true", nil])
    }

    @Test func anOvertimeFinalSaysSo() throws {
        var plays = Self.baskets([("13", 2, 4, "1:00"), ("2", 2, 4, "0:30"), ("2", 3, 5, "2:00")])
        plays.append(ESPNSummary.Play(sequenceNumber: "4", type: "End Game", awayScore: 5, homeScore: 2, period: 5, clock: "0.0"))
        var summary = try Self.summary(plays, final: true)
        let scored = summary.header?.competitions?[0].competitors?.map { competitor in
            var competitor = competitor
            competitor.score = ESPNScore(points: competitor.homeAway == "home" ? 2 : 5)
            return competitor
        }
        summary.header?.competitions?[0].competitors = scored
        let snapshot = NBASnapshot(summary)
        #expect(snapshot.finalLabel == "Final/OT")
        let final = try #require(NBAEventDetector.derive(snapshot).last)
        #expect(final.kind == .final && final.details["ended_in"] == "OT" && final.periodLabel == "OT")
        #expect(final.details["winner"] == "BOS")
    }

    /// The Celtics are `BOS` and so are the Bruins: a follower of one never gets the other's
    /// games, and a player's milestone goes to his team's followers, not the other team's.
    @Test func aSinkFilterKnowsTheLeague() {
        var celtics = SampleEvent.make(.leadChange, team: "LAL")
        celtics.team = "BOS"
        let bruinsFans = SinkFilter(teams: ["BOS"])
        let celticsFans = SinkFilter(teams: ["nba:BOS"])
        #expect(!bruinsFans.matches(celtics))
        #expect(celticsFans.matches(celtics))
        #expect(!celticsFans.matches(SampleEvent.make(.goal, team: "BOS")))
        let milestone = SampleEvent.make(.milestone, team: "LAL")
        #expect(SinkFilter(teams: ["nba:LAL"]).matches(milestone))
        #expect(!celticsFans.matches(milestone))
        #expect(SinkFilter(teams: [], players: [1966]).matches(milestone))
        // A followed player (top-level `players`) reaches a sink that lists none of its own,
        // in a game of teams nobody follows; a sink's own list replaces it.
        var goal = SampleEvent.make(.goal, team: "EDM")
        goal.away = "CGY"
        let plain = SinkConfig(.webhook(.init(url: "https://example.org/hook")))
        #expect(SinkFilter(plain, defaultTeams: ["TOR"], defaultPlayers: [8_478_402]).matches(goal))
        #expect(!SinkFilter(plain, defaultTeams: ["TOR"]).matches(goal))
        var own = plain
        own.players = [1]
        #expect(!SinkFilter(own, defaultTeams: ["TOR"], defaultPlayers: [8_478_402]).matches(goal))
        // Every basket only when asked for.
        #expect(!SinkFilter(teams: ["nba:LAL"]).matches(SampleEvent.make(.score, team: "LAL")))
        #expect(SinkFilter(kinds: [.score], teams: ["nba:LAL"]).matches(SampleEvent.make(.score, team: "LAL")))
    }
}

/// Following NBA teams beside the NHL's: one `teams` list, each team written to mean it alone.
@Suite(.timeLimit(.minutes(1))) struct NBAFollowTests {
    @Test func theConfigTakesNBATeamsWithTheirLeague() throws {
        let config = try ConfigLoader.parse(#"teams = ["TOR", "nba:Lakers", "nba:GSW", "Kings"]"#, file: "c")
        #expect(config.teams == ["TOR", "nba:LAL", "nba:GS", "LAK"])
        #expect(config.nhlTeams == ["TOR", "LAK"])
        #expect(config.nbaTeams.map(\.abbrev) == ["LAL", "GS"])
        #expect(ConfigRenderer.render(config, paths: Paths(environment: [:])).contains(#"teams = ["TOR", "nba:LAL", "nba:GS", "LAK"]"#))
        do {
            _ = try ConfigLoader.parse(#"teams = ["Lakers"]"#, file: "c")
            Issue.record("a name only the NBA has was taken as the NHL's")
        } catch {
            #expect("\(error)".contains("write nba:LAL"), "\(error)")
        }
    }

    /// `status` shows a followed NBA team's game, and a Bruins fan never sees the Celtics'.
    @Test(ESPNRecordings.needed) func theStatusLineKnowsWhoseGameItIs() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store(path: directory.appendingPathComponent("f.sqlite").path)
        let now = Date()
        var game = NBASnapshot(try ESPNRecordings.decode(ESPNSummary.self, NBALiveTests.inProgress))
        try await LiveStatus(store: store).record(game, at: now)
        var config = Config()
        config.teams = ["nba:LAC"]
        let report = StatusLine(store: store, config: config, now: now).report()
        #expect(report.state == "live")
        #expect(report.text == "LAC 78–87 MIN · Q4 8:10 left", "\(report.text)")
        config.teams = ["MIN"]  // the Wild
        #expect(StatusLine(store: store, config: config, now: now).report().state != "live")
        game = NBASnapshot(try ESPNRecordings.decode(ESPNSummary.self, NBALiveTests.finals[1]))
        try await LiveStatus(store: store).record(game, at: now.addingTimeInterval(1))
        config.teams = ["nba:ORL"]
        #expect(StatusLine(store: store, config: config, now: now.addingTimeInterval(2)).report().text == "Final: TOR 96–111 ORL")
    }
    /// Between games, the next one of a followed NBA team comes from ESPN's cached schedule.
    @Test(ESPNRecordings.needed) func theStatusLineSaysTheNextNBAGame() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store(path: directory.appendingPathComponent("f.sqlite").path)
        var config = Config()
        config.teams = ["TOR", "nba:LAL"]
        config.timezone = "America/New_York"
        let now = try Date("2026-05-05T12:00:00Z", strategy: .iso8601)
        let team = try #require(NBATeams.team(abbreviation: "LAL"))
        try await ResponseCache(store: store).save(
            CachedResponse(
                url: config.espnBase + Endpoint<ESPNTeamSchedule>.nbaSchedule(team).path,
                body: Array(try Data(contentsOf: ESPNRecordings.directory.appendingPathComponent(ESPNRecordings.lakersPostseason))),
                validators: Validators(), fetchedAt: now, freshness: .seconds(3600)))
        let report = StatusLine(store: store, config: config, now: now).report()
        #expect(report.state == "next" && report.game == 401_871_326)
        #expect(report.text == "Next: LAL @ OKC Tue May 5 20:30", "\(report.text)")
        // Past the last game with a time, the untimed ones wait for theirs.
        let later = StatusLine(store: store, config: config, now: try Date("2026-05-12T09:00:00Z", strategy: .iso8601)).report()
        #expect(later.state == "none", "\(later.text)")
    }
}
