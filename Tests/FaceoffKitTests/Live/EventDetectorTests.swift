import Foundation
import PropertyBased
import Testing

@testable import FaceoffDaemon
@testable import FaceoffDelivery
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL

@Suite(.timeLimit(.minutes(5))) struct SituationCodeTests {
    @Test func readsStrengthAndNets() throws {
        let pp = try #require(SituationCode("1451"))
        #expect(pp.homePowerPlay && !pp.awayPowerPlay)
        #expect(pp.strength == "5v4")
        let pulled = try #require(SituationCode("0651"))
        // Six on five with a pulled goalie is not a power play.
        #expect(!pulled.awayPowerPlay && !pulled.homePowerPlay)
        #expect(pulled.awayNetEmpty && !pulled.homeNetEmpty)
        #expect(pulled.strength == "6v5")
        // The away team is a man short and the home goalie is off for the extra attacker: still
        // a home power play (5 on 4 plus the sixth skater).
        let shortAndPulled = try #require(SituationCode("1460"))
        #expect(shortAndPulled.homeNetEmpty)
        #expect(shortAndPulled.homePowerPlay && !shortAndPulled.awayPowerPlay)
        #expect(try #require(SituationCode("1351")).homePowerPlay)
        #expect(try #require(SituationCode("1331")).strength == "3v3")
        #expect(try #require(SituationCode("1010")).isPenaltyShot)
        #expect(try #require(SituationCode("0101")).isPenaltyShot)
        for bad in [nil, "", "155", "15511", "2551", "15a1"] {
            #expect(SituationCode(bad) == nil)
        }
    }
}

/// Every recorded and project game, replayed one play at a time.
@Suite("event detection on whole games", .timeLimit(.minutes(5))) struct EventDetectorGameTests {
    static let games = Replays.recorded + Replays.ownGames

    @Test func theProjectsOwnGamesAreThere() {
        // A parameterised test with no arguments would pass silently.
        #expect(Replays.ownGames.count >= 4)
    }

    @Test(arguments: games)
    func goalsMatchTheFinalScoreAndTheFinalIsRight(url: URL) async throws {
        let replayed = try await Replays.replay(url)
        let (feed, events) = (replayed.feed, replayed.events)
        let goals = events.filter { $0.kind == .goal }
        let away = feed.awayTeam?.abbrev
        let home = feed.homeTeam?.abbrev
        let shootout = feed.gameOutcome?.lastPeriodType == .so
        let awayGoals = goals.filter { $0.team == away }.count
        let homeGoals = goals.filter { $0.team == home }.count
        // In a shootout the winner gets one more goal on the scoreboard than it scored.
        let expectedAway = (feed.awayTeam?.score ?? 0) - (shootout && (feed.awayTeam?.score ?? 0) > (feed.homeTeam?.score ?? 0) ? 1 : 0)
        let expectedHome = (feed.homeTeam?.score ?? 0) - (shootout && (feed.homeTeam?.score ?? 0) > (feed.awayTeam?.score ?? 0) ? 1 : 0)
        #expect(awayGoals == expectedAway, "\(url.lastPathComponent)")
        #expect(homeGoals == expectedHome, "\(url.lastPathComponent)")
        let finals = events.filter { $0.kind == .final }
        #expect(finals.count == 1)
        #expect(finals.first?.score == GameEvent.Score(away: feed.awayTeam?.score ?? 0, home: feed.homeTeam?.score ?? 0))
        #expect(finals.first?.details["ended_in"] == feed.gameOutcome?.lastPeriodType?.rawValue)
        #expect(events.filter { $0.kind == .gameStart }.count == 1)
        #expect(Set(events.map(\.id)).count == events.count, "duplicate ids")
        // Every power play that ends was started, and ends once.
        let starts = Set(events.filter { $0.kind == .powerPlayStart }.map { $0.id.split(separator: ":").last! })
        let ends = events.filter { $0.kind == .powerPlayEnd }.map { $0.id.split(separator: ":").last! }
        #expect(Set(ends).isSubset(of: starts))
        #expect(Set(ends).count == ends.count)
    }

    @Test(arguments: Replays.recorded)
    func goalStrengthAgreesWithTheNHLsOwnLabels(url: URL) async throws {
        let replayed = try await Replays.replay(url)
        let feed = replayed.feed
        let goals = replayed.events.filter { $0.kind == .goal }
        for play in feed.playsInOrder where play.typeDescKey == .goal && play.periodDescriptor?.periodType != .so {
            let label = (play.details?.highlightClipSharingUrl ?? "").lowercased()
            guard let goal = goals.first(where: { $0.id.hasSuffix(":\(play.eventId ?? -1)") }) else {
                Issue.record("goal \(play.eventId ?? -1) not reported")
                continue
            }
            if label.contains("ppg") || label.contains("power-play") || label.contains("powerplay") {
                #expect(goal.strength == "PP", "\(label)")
            }
            if label.contains("shg") || label.contains("shorthanded") { #expect(goal.strength == "SH", "\(label)") }
            if label.contains("empty-net") { #expect(goal.emptyNet == true, "\(label)") }
            // Only empty-net goals lack a goalie in net.
            #expect((goal.emptyNet == true) == (play.details?.goalieInNetId == nil), "goal \(play.eventId ?? -1)")
        }
    }

    @Test(arguments: Replays.ownGames)
    func ownGamesMatchTheirWrittenTruth(url: URL) async throws {
        let truthURL = url.deletingPathExtension().appendingPathExtension("expected.json")
        guard let data = try? Data(contentsOf: truthURL), let truth = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            Issue.record("no \(truthURL.lastPathComponent)")
            return
        }
        let events = try await Replays.replay(url).events
        let goals = events.filter { $0.kind == .goal }
        let expectedGoals = truth["goals"] as? [[String: Any]] ?? []
        #expect(goals.count == expectedGoals.count)
        for (goal, expected) in zip(goals, expectedGoals) {
            #expect(goal.id.hasSuffix(":\(expected["eventId"] as? Int ?? -1)"))
            #expect(goal.team == expected["team"] as? String)
            #expect(goal.strength == expected["strength"] as? String, "goal \(expected["eventId"] ?? "?")")
            #expect(goal.emptyNet == expected["emptyNet"] as? Bool, "goal \(expected["eventId"] ?? "?")")
            #expect(goal.penaltyShot == (expected["penaltyShot"] as? Bool ?? false))
        }
        let powerPlays = truth["powerPlays"] as? [[String: Any]] ?? []
        let starts = events.filter { $0.kind == .powerPlayStart }
        #expect(starts.map { $0.team } == powerPlays.map { $0["team"] as? String })
        #expect(
            starts.map { $0.id.split(separator: ":").last.map(String.init) }
                == powerPlays.map { ($0["startEventId"] as? Int).map(String.init) })
        #expect(starts.map(\.strength) == powerPlays.map { $0["strength"] as? String })
        for expected in powerPlays {
            let key = String(expected["startEventId"] as? Int ?? -1)
            let end = events.first { $0.kind == .powerPlayEnd && $0.id.hasSuffix(":\(key)") }
            if let reason = expected["endReason"] as? String { #expect(end?.details["reason"] == reason, "power play \(key)") }
            // When it ended: the moment its penalty ran out, not the next play's time.
            if let ends = expected["ends"] as? String { #expect(end.map(Self.when) == ends, "power play \(key)") }
            if let changes = expected["changes"] as? [[String: String]] {
                let found = events.filter { $0.kind == .powerPlayChange && $0.id.contains(":power_play_change:\(key)-") }
                #expect(
                    found.map { [$0.strength ?? "", $0.details["reason"] ?? "", Self.when($0)] }
                        == changes.map { [$0["strength"] ?? "", $0["reason"] ?? "", $0["at"] ?? ""] }, "power play \(key)")
            }
        }
        // Every change belongs to a power play the truth lists.
        let keys = Set(powerPlays.map { String($0["startEventId"] as? Int ?? -1) })
        for change in events where change.kind == .powerPlayChange {
            let key = change.id.split(separator: ":").last?.split(separator: "-").first.map(String.init) ?? ""
            #expect(keys.contains(key), "\(change.id)")
        }
        let pulls = truth["realGoaliePulls"] as? [[String: Any]] ?? []
        #expect(events.filter { $0.kind == .goalieReturned }.count <= pulls.count, "a goalie back in net that was never pulled")
        let pulled = events.filter { $0.kind == .goaliePulled }
        #expect(pulled.map(\.team) == pulls.map { $0["team"] as? String })
        #expect(
            pulled.map { $0.id.split(separator: ":").last.map(String.init) } == pulls.map { ($0["startEventId"] as? Int).map(String.init) })
        let periods = truth["periods"] as? [[String: Any]] ?? []
        #expect(events.filter { $0.kind == .periodStart }.map(\.period) == periods.map { $0["number"] as? Int })
        #expect(events.first { $0.kind == .final }?.details["winner"] == truth["winner"] as? String)
    }
}

extension EventDetectorGameTests {
    static func when(_ event: GameEvent) -> String { "\(event.periodLabel ?? "?") \(event.clock ?? "?")" }

    /// The manpower the penalties and goals make, computed without the situation codes, is
    /// what the NHL's own code says on every play: except placeholders (period and game
    /// ends, period starts, penalty shots, the shootout) and plays with a goalie pulled.
    /// Two things the feeds record either way are allowed: a penalty play's own code (before
    /// the call, or already with the calls before it at that stoppage) in the recordings of
    /// ../shared/nhl-api/fixtures/games, and a play in the very second a penalty ran out,
    /// which may still show it.
    @Test(arguments: games)
    func strengthFromThePenaltiesEqualsTheSituationCodes(url: URL) throws {
        let snapshot = GameSnapshot(try Replays.load(url))
        let timeline = StrengthTimeline(snapshot)
        let strictPenalties = !url.path.contains("/fixtures/games/")
        var compared = 0
        var wrong: [String] = []
        for (index, play) in snapshot.plays.enumerated() {
            guard let code = Strength.meaningfulCode(play), code.awayGoalieIn, code.homeGoalieIn else { continue }
            if play.typeDescKey == .penalty, !strictPenalties { continue }
            compared += 1
            let computed = timeline.atPlay[index]
            let shown = Manpower(away: code.awaySkaters, home: code.homeSkaters)
            let time = GameClockTime.seconds(period: play.periodDescriptor?.number, clock: play.timeInPeriod)
            if timeline.changes.contains(where: { $0.cause == .expired && $0.time == time && $0.from == shown }) { continue }
            if computed != shown {
                let shown = computed.map { "\($0.away)v\($0.home)" } ?? "nothing"
                wrong.append(
                    "\(play.eventId ?? -1) P\(play.periodDescriptor?.number ?? 0) \(play.timeInPeriod ?? "?") \(play.typeDescKey?.rawValue ?? "?"): code \(code), computed \(shown)"
                )
            }
        }
        #expect(compared > 50, "\(url.lastPathComponent): too few plays to compare")
        #expect(wrong.isEmpty, "\(url.lastPathComponent):\n\(wrong.joined(separator: "\n"))")
    }
}

@Suite(
    "delayed-penalty pulls in the recordings", .timeLimit(.minutes(5)),
    .enabled(if: RealFixtures.available, "../shared/nhl-api/fixtures not present"))
struct DelayedPenaltyPullTests {
    @Test func aGoalieOffOnThePenaltyPlayIsNotAnEmptyNet() throws {
        // PIT at MIN, 2nd period 01:54: the penalty to PIT is called with MIN's goalie already
        // on the bench (1560), and he is back for the faceoff.
        let url = try #require(Replays.recorded.first { $0.lastPathComponent.contains("2024021015") })
        let feed = try Replays.load(url)
        var detector = EventDetector()
        let events = Replays.run(feed, polls: Replays.every(feed), detector: &detector)
        #expect(!events.contains { $0.kind == .goaliePulled && $0.period == 2 })
        // The real pull late in the 3rd is still there.
        #expect(events.contains { $0.kind == .goaliePulled && $0.period == 3 && $0.team == "MIN" })
    }
}

@Suite(.timeLimit(.minutes(5))) struct EventDetectorRobustnessTests {
    static var sample: PlayByPlay {
        get throws { try Replays.load(TestPaths.mirror.appendingPathComponent("gamecenter/2025020100/play-by-play")) }
    }

    static func keyEvents(_ events: [GameEvent]) -> Set<String> {
        Set(
            events.filter { [.goal, .penalty, .periodStart, .periodEnd, .final, .goaliePulled, .powerPlayStart].contains($0.kind) }.map(
                \.id))
    }

    @Test func repeatedSkippedAndLatePollsReportTheSame() async throws {
        let feed = try Self.sample
        let count = feed.plays?.count ?? 0
        var reference = EventDetector()
        let expected = Self.keyEvents(Replays.run(feed, polls: Replays.every(feed), detector: &reference))
        #expect(!expected.isEmpty)
        // Any schedule of polls that ends on the final feed: repeats, gaps, stale polls.
        await propertyCheck(count: 200, input: Gen.int(in: 1...count).array(of: 0...40)) { polls in
            var detector = EventDetector()
            let events = Replays.run(feed, polls: polls + [count], detector: &detector)
            #expect(Self.keyEvents(events) == expected)
            #expect(Set(events.map(\.id)).count == events.count)
        }
    }

    @Test func aRestartWithSavedStateNeitherRepeatsNorLoses() async throws {
        let feed = try Self.sample
        let count = feed.plays?.count ?? 0
        var reference = EventDetector()
        let expected = Replays.run(feed, polls: Replays.every(feed), detector: &reference).map(\.id)
        await propertyCheck(count: 100, input: Gen.int(in: 1...count)) { crashAt in
            var first = EventDetector()
            var seen = Replays.run(feed, polls: Array(1...crashAt), detector: &first).map(\.id)
            // The state goes through JSON, as it would through the store.
            let saved = try JSONEncoder().encode(first.state)
            var second = EventDetector(state: try JSONDecoder().decode(EventDetector.State.self, from: saved))
            seen += Replays.run(feed, polls: Array(crashAt...count), detector: &second).map(\.id)
            #expect(seen == expected)
        }
    }

    @Test func aPlaySentTwiceCountsOnce() throws {
        let feed = try Self.sample
        var detector = EventDetector()
        let expected = detector.process(GameSnapshot(feed)).events.map(\.id)
        var doubled = feed
        let goal = try #require(feed.plays?.first { $0.typeDescKey == .goal })
        var again = goal
        again.sortOrder = (feed.plays?.compactMap(\.sortOrder).max() ?? 0) + 1
        doubled.plays?.append(again)
        var fresh = EventDetector()
        #expect(fresh.process(GameSnapshot(doubled)).events.map(\.id) == expected)
    }

    @Test func aTruncatedPlayListIsAGlitch() throws {
        let feed = try Self.sample
        var detector = EventDetector()
        _ = detector.process(GameSnapshot(feed))
        var truncated = feed
        truncated.plays = Array(feed.playsInOrder.suffix(4))
        let (events, skipped) = detector.process(GameSnapshot(truncated))
        #expect(events.isEmpty)
        guard case .playsVanished? = skipped else {
            Issue.record("expected the snapshot to be skipped, got \(String(describing: skipped))")
            return
        }
    }

    @Test func aStaleSnapshotIsIgnored() throws {
        let feed = try Self.sample
        var detector = EventDetector()
        _ = detector.process(GameSnapshot(Replays.prefix(feed, 30)))
        let (events, skipped) = detector.process(GameSnapshot(Replays.prefix(feed, 10)))
        #expect(events.isEmpty)
        #expect(skipped == .stale(maxSortOrder: Replays.prefix(feed, 10).playsInOrder.last?.sortOrder ?? 0))
    }

    @Test func aScoreThatGoesBackwardsWithoutARemovedGoalIsAGlitch() throws {
        let feed = try Self.sample
        var detector = EventDetector()
        let full = feed.plays?.count ?? 0
        _ = detector.process(GameSnapshot(Replays.prefix(feed, full - 1)))
        var glitch = Replays.prefix(feed, full - 1)
        glitch.awayTeam?.score = 0
        glitch.homeTeam?.score = 0
        let (events, skipped) = detector.process(GameSnapshot(glitch))
        #expect(events.isEmpty)
        #expect(skipped == .scoreWentBackwards)
    }

    @Test func aGoalOverturnedIsConfirmedOnTheSecondPoll() throws {
        let feed = try Self.sample
        var detector = EventDetector()
        let before = detector.process(GameSnapshot(feed)).events
        let goal = try #require(before.last { $0.kind == .goal && $0.team == feed.homeTeam?.abbrev })
        let eventID = Int(goal.id.split(separator: ":").last!)!
        var corrected = feed
        corrected.plays?.removeAll { $0.eventId == eventID }
        corrected.homeTeam?.score = (feed.homeTeam?.score ?? 1) - 1
        // Later plays arrive too, so the snapshot isn't mistaken for a stale one.
        #expect(detector.process(GameSnapshot(corrected)).events.isEmpty)
        let confirmed = detector.process(GameSnapshot(corrected)).events
        #expect(confirmed.map(\.kind) == [.goalOverturned])
        #expect(confirmed.first?.id == "\(feed.id ?? 0):goal_overturned:\(eventID)")
        // Only once.
        #expect(detector.process(GameSnapshot(corrected)).events.isEmpty)
    }

    @Test func aGoalThatComesBackIsNotOverturned() throws {
        let feed = try Self.sample
        var detector = EventDetector()
        let goal = try #require(detector.process(GameSnapshot(feed)).events.last { $0.kind == .goal })
        let eventID = Int(goal.id.split(separator: ":").last!)!
        var flicker = feed
        flicker.plays?.removeAll { $0.eventId == eventID }
        #expect(detector.process(GameSnapshot(flicker)).events.isEmpty)
        #expect(detector.process(GameSnapshot(feed)).events.isEmpty)
        #expect(detector.process(GameSnapshot(flicker)).events.isEmpty)
    }

    /// The feed drops a goal (the review took it away), then puts it back under a new eventId
    /// (the review reversed): one overturn, then one reinstatement of the old goal, never a
    /// second goal alert.
    @Test func aGoalPutBackUnderANewIdIsReinstatedNotNew() throws {
        let feed = try Self.sample
        var detector = EventDetector()
        let goal = try #require(detector.process(GameSnapshot(feed)).events.last { $0.kind == .goal && $0.team == feed.homeTeam?.abbrev })
        let eventID = Int(goal.id.split(separator: ":").last!)!
        var gone = feed
        gone.plays?.removeAll { $0.eventId == eventID }
        gone.homeTeam?.score = (feed.homeTeam?.score ?? 1) - 1
        _ = detector.process(GameSnapshot(gone))
        #expect(detector.process(GameSnapshot(gone)).events.map(\.kind) == [.goalOverturned])
        var back = feed
        let index = try #require(back.plays?.firstIndex { $0.eventId == eventID })
        back.plays?[index].eventId = 9_001
        back.plays?[index].sortOrder = (feed.plays?.compactMap(\.sortOrder).max() ?? 0) + 1
        let events = detector.process(GameSnapshot(back)).events
        #expect(events.map(\.kind) == [.goalReinstated])
        #expect(events.first?.id == "\(feed.id ?? 0):goal_reinstated:\(eventID)")
        #expect(events.first?.score == GameEvent.Score(away: feed.awayTeam?.score ?? -1, home: feed.homeTeam?.score ?? -1))
        #expect(detector.process(GameSnapshot(back)).events.isEmpty)
    }

    /// A goal's highlight link appears in a later poll of the same feed: one `goal_highlight`,
    /// and only with a web link.
    @Test func aHighlightLinkIsAFollowUpEvent() throws {
        var feed = try Self.sample
        for index in 0..<(feed.plays?.count ?? 0) where feed.plays?[index].typeDescKey == .goal {
            feed.plays?[index].details?.highlightClipSharingUrl = nil
        }
        var detector = EventDetector()
        let goals = detector.process(GameSnapshot(feed)).events.filter { $0.kind == .goal }
        #expect(!goals.isEmpty)
        #expect(detector.process(GameSnapshot(feed)).events.isEmpty)
        let first = try #require(feed.plays?.firstIndex { $0.typeDescKey == .goal })
        let second = try #require(feed.plays?.lastIndex { $0.typeDescKey == .goal })
        #expect(first != second)
        feed.plays?[first].details?.highlightClipSharingUrl = "https://nhl.com/video/a-goal-6340906550112"
        feed.plays?[second].details?.highlightClipSharingUrl = "javascript:alert(1)"
        let events = detector.process(GameSnapshot(feed)).events
        #expect(events.map(\.kind) == [.goalHighlight])
        #expect(events.first?.id == goals.first?.id.replacingOccurrences(of: ":goal:", with: ":goal_highlight:"))
        #expect(events.first?.details["highlight_url"] == "https://nhl.com/video/a-goal-6340906550112")
        #expect(detector.process(GameSnapshot(feed)).events.isEmpty)
    }

    /// A sink without `events` gets every kind but the highlights; one that lists them gets them.
    @Test func highlightsGoOnlyToSinksThatAskForThem() {
        let highlight = SampleEvent.make(.goalHighlight, team: "TOR")
        let goal = SampleEvent.make(.goal, team: "TOR")
        let everything = SinkFilter(teams: ["TOR"])
        #expect(everything.matches(goal) && !everything.matches(highlight))
        let asked = SinkFilter(kinds: [.goal, .goalHighlight], teams: ["TOR"])
        #expect(asked.matches(goal) && asked.matches(highlight))
        #expect(!EventKindName.byDefault.contains("goal_highlight") && EventKindName.all.contains("goal_highlight"))
    }

    /// A cached copy from before the newest goal (an earlier clock, one play short) is stale,
    /// however many polls repeat it: no overturn, and nothing when the fresh feed returns.
    @Test func aStaleCopyFromBeforeAGoalIsNotARemoval() throws {
        let feed = try Self.sample
        let replay = ReplayFeed(feed)
        let goalIndex = try #require(replay.plays.firstIndex { $0.typeDescKey == .goal })
        var detector = EventDetector()
        let before = detector.process(GameSnapshot(replay.prefix(goalIndex + 1))).events
        #expect(before.contains { $0.kind == .goal })
        let old = GameSnapshot(replay.prefix(goalIndex))
        for _ in 0..<4 {
            let (events, skipped) = detector.process(old)
            #expect(events.isEmpty)
            #expect(skipped != nil)
        }
        #expect(detector.process(GameSnapshot(replay.prefix(goalIndex + 1))).events.isEmpty)
    }

    @Test func aScoringChangeIsReportedWithARevision() throws {
        let feed = try Self.sample
        var detector = EventDetector()
        let goal = try #require(detector.process(GameSnapshot(feed)).events.first { $0.kind == .goal })
        let eventID = Int(goal.id.split(separator: ":").last!)!
        var changed = feed
        let index = try #require(changed.plays?.firstIndex { $0.eventId == eventID })
        changed.plays?[index].details?.assist1PlayerId = 8_999_999
        let events = detector.process(GameSnapshot(changed)).events
        #expect(events.map(\.kind) == [.scoringChange])
        #expect(events.first?.id == "\(feed.id ?? 0):scoring_change:\(eventID)-1")
        #expect(detector.process(GameSnapshot(changed)).events.isEmpty)
    }

    @Test func joiningInProgressGivesOneSummary() throws {
        let feed = try Self.sample
        var detector = EventDetector()
        let halfway = Replays.prefix(feed, (feed.plays?.count ?? 0) / 2)
        let joined = detector.join(GameSnapshot(halfway))
        #expect(joined.kind == .gameJoined)
        #expect(joined.score == GameEvent.Score(away: halfway.awayTeam?.score ?? -1, home: halfway.homeTeam?.score ?? -1))
        // Nothing stale follows; only what happens next.
        let next = detector.process(GameSnapshot(halfway)).events
        #expect(next.isEmpty)
        let rest = detector.process(GameSnapshot(feed)).events
        #expect(rest.contains { $0.kind == .final })
        #expect(!rest.contains { $0.kind == .gameStart })
    }
}
