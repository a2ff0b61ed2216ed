import Foundation
import Testing

@testable import FaceoffAPI
@testable import FaceoffBase
@testable import FaceoffCalendar
@testable import FaceoffDaemon
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL
@testable import FaceoffStore

/// Feeds from a copy of the project's mirror (so tests can change the schedule), a real
/// SQLite store, and a clock the test moves.
final class CalendarHarness: @unchecked Sendable {
    let directory: URL
    let mirror: URL
    let store: Store
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_761_422_400)  // 2025-10-25T20:00:00Z

    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }

    init() throws {
        directory = try TestPaths.temporaryDirectory()
        mirror = directory.appendingPathComponent("mirror/v1")
        try FileManager.default.createDirectory(at: mirror.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.mirror, to: mirror)
        store = try Store(path: directory.appendingPathComponent("faceoff.sqlite").path)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func publisher(_ configure: (inout CalendarSettings) -> Void = { _ in }, allowEmpty: Bool = false, cache: Bool = true) throws
        -> CalendarPublisher
    {
        var options = CalendarSettings()
        configure(&options)
        let client = APIClient(
            service: .nhl, base: "file://\(mirror.path)/", http: CurlHTTPClient(clock: TestClock()),
            cache: cache ? ResponseCache(store: store) : nil,
            now: { [self] in now })
        let service = CalendarService(
            clients: [client], state: CalendarState(store: store), templates: try TemplateSet(overrides: nil), options: options,
            now: { [self] in now })
        return CalendarPublisher(service: service, directory: directory.appendingPathComponent("calendars").path, allowEmpty: allowEmpty)
    }

    /// Rewrites a schedule file in the mirror.
    func editSchedule(_ team: String, _ edit: (inout [[String: Any]]) -> Void) throws {
        let file = mirror.appendingPathComponent("club-schedule-season/\(team)/now")
        var document = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
        var games = document["games"] as! [[String: Any]]
        edit(&games)
        document["games"] = games
        try JSONSerialization.data(withJSONObject: document).write(to: file)
    }

    func text(_ feed: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent("calendars/\(feed).ics"), encoding: .utf8)
    }

    /// The unfolded lines of each VEVENT, by UID.
    func events(_ feed: String) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        var current: [String]?
        for line in SampleFeed.unfold(try text(feed)) {
            if line == "BEGIN:VEVENT" {
                current = []
            } else if line == "END:VEVENT", let lines = current {
                let uid = lines.first { $0.hasPrefix("UID:") }!.dropFirst(4)
                result[String(uid)] = lines
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return result
    }
}

func value(_ lines: [String]?, _ name: String) -> String? {
    lines?.first { $0.hasPrefix(name + ":") }.map { String($0.dropFirst(name.count + 1)) }
}

@Suite(.timeLimit(.minutes(5))) struct CalendarServiceTests {
    @Test func theBiggestFeedsStartFirst() {
        let kinds: [FeedKind] = [.team("TOR"), .team("MTL"), .favourites(["TOR", "MTL"]), .all, .team("BOS")]
        #expect(CalendarPublisher.startOrder(kinds) == [3, 2, 0, 1, 4])
        #expect(CalendarPublisher.startOrder([]) == [])
    }

    @Test func aTeamFeedFromItsSide() async throws {
        let harness = try CalendarHarness()
        let reports = try await harness.publisher().publish([.team("TOR")])
        #expect(reports.first?.error == nil)
        #expect(reports.first?.outcome == .written)
        let events = try harness.events("TOR")
        // Eight regular-season games; the preseason game is left out by default.
        #expect(events.count == 8)
        #expect(value(events["nhl-game-2025020004@faceoff"], "SUMMARY") == "Maple Leafs 5–2 Canadiens · W")
        #expect(value(events["nhl-game-2025020021@faceoff"], "SUMMARY") == "Maple Leafs 3–4 Red Wings (OT) · OTL")
        #expect(value(events["nhl-game-2025020058@faceoff"], "SUMMARY")?.hasSuffix("(SO) · W") == true)
        #expect(value(events["nhl-game-2025020119@faceoff"], "SUMMARY") == "Maple Leafs 2–1 Sabres (live)")
        #expect(value(events["nhl-game-2025020140@faceoff"], "SUMMARY") == nil)
        #expect(events.values.contains { value($0, "SUMMARY") == "Maple Leafs @ Rangers" })
        let cancelled = try #require(events.values.first { value($0, "STATUS") == "CANCELLED" })
        #expect(value(cancelled, "SUMMARY")?.hasPrefix("CANCELLED: Maple Leafs vs Blue Jackets") == true)
        let tbd = try #require(events.values.first { value($0, "SUMMARY")?.hasPrefix("TBD:") == true })
        #expect(value(tbd, "STATUS") == "TENTATIVE")
        let home = try #require(events["nhl-game-2025020004@faceoff"])
        #expect(value(home, "LOCATION") == "Scotiabank Arena\\, Toronto\\, ON")
        #expect(value(home, "GEO") != nil)
        #expect(value(home, "DESCRIPTION")?.contains("Final: MTL 2–5 TOR") == true)
        // Networks by market, in the API's order, with their country.
        let description = try #require(value(home, "DESCRIPTION"))
        #expect(description.contains("TV: SN (CA)\\, TVAS (CA)\\n"), "\(description)")
        #expect(description.contains("TV (TOR market): SNO (CA)\\n"), "\(description)")
        #expect(description.contains("TV (MTL market): TSN2 (CA)\\, RDS (CA)\\n"), "\(description)")
    }

    @Test func postponedGamesAreTentative() async throws {
        let harness = try CalendarHarness()
        _ = try await harness.publisher().publish([.team("MTL")])
        let game = try #require(try harness.events("MTL")["nhl-game-2025020170@faceoff"])
        #expect(value(game, "STATUS") == "TENTATIVE")
        #expect(value(game, "SUMMARY")?.hasPrefix("POSTPONED: ") == true)
    }

    @Test func regeneratingChangesNothingUnlessTheDataDoes() async throws {
        let harness = try CalendarHarness()
        _ = try await harness.publisher().publish([.team("TOR")])
        let first = try harness.text("TOR")
        harness.advance(3600)
        let again = try await harness.publisher().publish([.team("TOR")])
        #expect(again.first?.outcome == .unchanged)
        #expect(try harness.text("TOR") == first)
    }

    @Test func unreadableStoredEventsAreRebuiltAndRepaired() async throws {
        let harness = try CalendarHarness()
        _ = try await harness.publisher().publish([.team("TOR")])
        let before = try harness.events("TOR")
        let rows = try harness.store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM calendar_event") ?? 0 }
        // Garble every stored event (a damaged row, or one written in another format).
        try await harness.store.write { db in try db.execute(sql: "UPDATE calendar_event SET event = X'7B7B'") }
        harness.advance(3600)
        let report = try await harness.publisher().publish([.team("TOR")])
        #expect(report.first?.error == nil, "\(report)")
        // Every game is still in the feed, built anew...
        #expect(Set(try harness.events("TOR").keys) == Set(before.keys))
        // ... and every row can be read again, so a game that later loses its time or leaves
        // the schedule is still marked TBD or cancelled instead of silently dropped.
        let readable = try harness.store.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM calendar_event WHERE event != X'7B7B'") ?? 0
        }
        #expect(readable == rows)
    }

    @Test func aMovedGameRaisesItsSequenceAndOnlyItsTimestamps() async throws {
        let harness = try CalendarHarness()
        _ = try await harness.publisher().publish([.team("TOR")])
        let before = try harness.events("TOR")
        harness.advance(7 * 3600)
        try harness.editSchedule("TOR") { games in
            for index in games.indices where games[index]["id"] as? Int == 2025020133 {
                games[index]["startTimeUTC"] = "2025-10-29T00:00:00Z"
            }
        }
        _ = try await harness.publisher().publish([.team("TOR")])
        let after = try harness.events("TOR")
        let uid = "nhl-game-2025020133@faceoff"
        #expect(Set(after.keys) == Set(before.keys))
        #expect(value(after[uid], "SEQUENCE") == "1")
        #expect(value(after[uid], "DTSTART") == "20251029T000000Z")
        #expect(value(after[uid], "LAST-MODIFIED") == "20251026T030000Z")
        #expect(value(after[uid], "DTSTAMP") == "20251026T030000Z")
        for (other, lines) in after where other != uid {
            #expect(lines == before[other], "\(other) changed")
        }
    }

    @Test func aFinalScoreUpdatesTheSummaryWithoutRaisingTheSequence() async throws {
        let harness = try CalendarHarness()
        _ = try await harness.publisher().publish([.team("TOR")])
        harness.advance(4 * 3600)
        try harness.editSchedule("TOR") { games in
            for index in games.indices where games[index]["id"] as? Int == 2025020119 {
                games[index]["gameState"] = "OFF"
                var away = games[index]["awayTeam"] as! [String: Any]
                away["score"] = 4
                games[index]["awayTeam"] = away
                games[index]["gameOutcome"] = ["lastPeriodType": "REG"]
            }
        }
        _ = try await harness.publisher().publish([.team("TOR")])
        let game = try #require(try harness.events("TOR")["nhl-game-2025020119@faceoff"])
        #expect(value(game, "SUMMARY") == "Maple Leafs 4–1 Sabres · W")
        #expect(value(game, "SEQUENCE") == "0")
        #expect(value(game, "LAST-MODIFIED") == "20251026T000000Z")
    }

    @Test func aGameThatLeavesTheScheduleStaysCancelled() async throws {
        let harness = try CalendarHarness()
        _ = try await harness.publisher().publish([.team("TOR")])
        harness.advance(3600)
        try harness.editSchedule("TOR") { games in games.removeAll { $0["id"] as? Int == 2025020133 } }
        _ = try await harness.publisher().publish([.team("TOR")])
        let gone = try #require(try harness.events("TOR")["nhl-game-2025020133@faceoff"])
        #expect(value(gone, "STATUS") == "CANCELLED")
        #expect(value(gone, "SEQUENCE") == "1")
        #expect(value(gone, "SUMMARY")?.hasPrefix("CANCELLED: ") == true)
        // Later runs keep it as it is.
        let text = try harness.text("TOR")
        harness.advance(3600)
        _ = try await harness.publisher().publish([.team("TOR")])
        #expect(try harness.text("TOR") == text)
    }

    /// With the good answer cached, the client keeps it (and says so); without a cache, the
    /// calendar's own record of the feed's games refuses the answer.
    @Test(arguments: [true, false])
    func anEmptyOrGuttedScheduleIsNotTrusted(cached: Bool) async throws {
        let harness = try CalendarHarness()
        _ = try await harness.publisher(cache: cached).publish([.team("TOR")])
        let good = try harness.text("TOR")
        harness.advance(3600)
        try harness.editSchedule("TOR") { games in games.removeAll() }
        harness.advance(7 * 3600)
        let empty = try await harness.publisher(cache: cached).publish([.team("TOR")])
        if cached {
            #expect(empty.first?.error == nil)
            #expect(empty.first?.notes.first?.contains("it has no games, where the last good copy has") == true, "\(empty)")
        } else {
            #expect(empty.first?.error?.contains("no games") == true)
        }
        #expect(try harness.text("TOR") == good)

        try FileManager.default.removeItem(at: harness.mirror.appendingPathComponent("club-schedule-season/TOR/now"))
        try FileManager.default.copyItem(
            at: TestPaths.mirror.appendingPathComponent("club-schedule-season/TOR/now"),
            to: harness.mirror.appendingPathComponent("club-schedule-season/TOR/now"))
        try harness.editSchedule("TOR") { games in
            games.removeAll { ($0["gameType"] as? Int) == 2 && ($0["id"] as? Int ?? 0) != 2025020004 }
        }
        harness.advance(7 * 3600)
        let gutted = try await harness.publisher(cache: cached).publish([.team("TOR")])
        if cached {
            #expect(gutted.first?.error == nil)
            #expect(gutted.first?.notes.first?.contains("games are missing from it") == true, "\(gutted)")
        } else {
            #expect(gutted.first?.error?.contains("missing from the schedule") == true, "\(gutted.first?.error ?? "no error")")
        }
        #expect(try harness.text("TOR") == good)
    }

    @Test func aPlayedGameThatLeavesTheScheduleIsNotCancelled() async throws {
        let harness = try CalendarHarness()
        _ = try await harness.publisher().publish([.team("TOR")])
        let before = try harness.events("TOR")["nhl-game-2025020004@faceoff"]
        harness.advance(3600)
        try harness.editSchedule("TOR") { games in games.removeAll { $0["id"] as? Int == 2025020004 } }
        _ = try await harness.publisher().publish([.team("TOR")])
        #expect(try harness.events("TOR")["nhl-game-2025020004@faceoff"] == before)
    }

    @Test func unfollowingATeamTakesItsGamesOutOfFavourites() async throws {
        let harness = try CalendarHarness()
        _ = try await harness.publisher().publish([.favourites(["TOR", "MTL"])])
        #expect(try harness.events("favourites").count == 14)
        harness.advance(3600)
        _ = try await harness.publisher().publish([.favourites(["TOR"])])
        let events = try harness.events("favourites")
        #expect(events.count == 8)
        #expect(!events.values.contains { value($0, "STATUS") == "CANCELLED" && value($0, "SUMMARY")?.contains("Kraken") == true })
        #expect(!(try harness.text("favourites")).contains("CANCELLED: POSTPONED"))
    }

    @Test func otherOptionsKeepTheirOwnState() async throws {
        let harness = try CalendarHarness()
        _ = try await harness.publisher().publish([.team("TOR")])
        let text = try harness.text("TOR")
        harness.advance(3600)
        // A preview with other flags, written elsewhere, doesn't touch the real feed's state.
        let preview = try harness.publisher { $0.duration = .seconds(7200) }
        _ = try await preview.render(.team("TOR"))
        _ = try await preview.render(.team("TOR"))
        harness.advance(3600)
        let again = try await harness.publisher().publish([.team("TOR")])
        #expect(again.first?.outcome == .unchanged)
        #expect(try harness.text("TOR") == text)
    }

    @Test func favouritesHomeOnlyKeepsEveryFollowedTeamsHomeGames() async throws {
        let harness = try CalendarHarness()
        _ = try await harness.publisher { $0.homeOnly = true }.publish([.team("TOR"), .team("MTL"), .favourites(["MTL", "TOR"])])
        let tor = try harness.events("TOR").count
        let mtl = try harness.events("MTL").count
        #expect(try harness.events("favourites").count == tor + mtl)
        // MTL at TOR, seen from Toronto's side since it is their home game.
        #expect(value(try harness.events("favourites")["nhl-game-2025020004@faceoff"], "SUMMARY") == "Maple Leafs 5–2 Canadiens · W")
    }

    @Test func aGameThatLosesItsTimeStaysAsTBD() async throws {
        let harness = try CalendarHarness()
        _ = try await harness.publisher().publish([.team("TOR")])
        harness.advance(3600)
        try harness.editSchedule("TOR") { games in
            for index in games.indices where games[index]["id"] as? Int == 2025020133 { games[index]["startTimeUTC"] = nil }
        }
        _ = try await harness.publisher().publish([.team("TOR")])
        let game = try #require(try harness.events("TOR")["nhl-game-2025020133@faceoff"])
        #expect(value(game, "STATUS") == "TENTATIVE")
        #expect(value(game, "SUMMARY") == "TBD: Maple Leafs @ Rangers")
        #expect(value(game, "SEQUENCE") == "1")
    }

    @Test func spoilerFreeFeedsHaveNoScores() async throws {
        let harness = try CalendarHarness()
        _ = try await harness.publisher { $0.scores = false }.publish([.team("TOR")])
        let events = try harness.events("TOR")
        #expect(value(events["nhl-game-2025020004@faceoff"], "SUMMARY") == "Maple Leafs vs Canadiens")
        for lines in events.values {
            let summary = value(lines, "SUMMARY") ?? ""
            #expect(!summary.contains("–"), "\(summary)")
            #expect(value(lines, "DESCRIPTION")?.contains("Final:") == false)
            #expect(value(lines, "DESCRIPTION")?.contains("Records:") == false)
        }
    }

    @Test func filtersAndReminders() async throws {
        let harness = try CalendarHarness()
        _ = try await harness.publisher {
            $0.homeOnly = true
            $0.reminders = [.seconds(3600)]
            $0.gameTypes = [.preseason, .regular]
        }.publish([.team("TOR")])
        let home = try harness.events("TOR")
        #expect(home.values.allSatisfy { value($0, "LOCATION")?.hasPrefix("Scotiabank Arena") == true })
        #expect(home.keys.contains("nhl-game-2025010061@faceoff"))
        #expect(try harness.text("TOR").contains("TRIGGER:-PT1H"))

        _ = try await harness.publisher { $0.futureOnly = true }.publish([.team("MTL")])
        let future = try harness.events("MTL")
        #expect(future.values.allSatisfy { value($0, "DTSTART")! >= "20251025" })
    }

    @Test func favouritesHaveEachGameOnce() async throws {
        let harness = try CalendarHarness()
        _ = try await harness.publisher().publish([.favourites(["TOR", "MTL"])])
        let events = try harness.events("favourites")
        let text = try harness.text("favourites")
        #expect(text.components(separatedBy: "UID:nhl-game-2025020004@faceoff").count == 2)
        // Seen from the first followed team.
        #expect(value(events["nhl-game-2025020004@faceoff"], "SUMMARY") == "Maple Leafs 5–2 Canadiens · W")
        #expect(events.count == 8 + 7 - 1)
    }

    @Test func aFailedFetchKeepsTheLastGoodFeed() async throws {
        let harness = try CalendarHarness()
        _ = try await harness.publisher(cache: false).publish([.team("TOR")])
        let good = try harness.text("TOR")
        try "<html>oops</html>".write(
            to: harness.mirror.appendingPathComponent("club-schedule-season/TOR/now"), atomically: true, encoding: .utf8)
        let reports = try await harness.publisher(cache: false).publish([.team("TOR")])
        #expect(reports.first?.error?.contains("not JSON") == true)
        #expect(try harness.text("TOR") == good)
    }

    @Test func aFeedThatWouldEmptyIsNotWrittenUnlessAllowed() async throws {
        let harness = try CalendarHarness()
        _ = try await harness.publisher().publish([.team("TOR")])
        let good = try harness.text("TOR")
        // Only playoff games, and there are none yet: the feed would lose all eight games.
        let refused = try await harness.publisher { $0.gameTypes = [.playoffs] }.publish([.team("TOR")])
        #expect(refused.first?.outcome == .refusedEmpty(previousEvents: 8))
        #expect(try harness.text("TOR") == good)
        let allowed = try await harness.publisher({ $0.gameTypes = [.playoffs] }, allowEmpty: true).publish([.team("TOR")])
        #expect(allowed.first?.outcome == .written)
        #expect(FeedWriter.eventCount(try harness.text("TOR")) == 0)

        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("x.ics").path
        let full = try CalendarBuilder.serialize(SampleFeed.feed([SampleFeed.event()]))
        let empty = try CalendarBuilder.serialize(SampleFeed.feed([]))
        #expect(try FeedWriter.write(full, to: path, allowEmpty: false) == .written)
        #expect(try FeedWriter.write(full, to: path, allowEmpty: false) == .unchanged)
        #expect(try FeedWriter.write(empty, to: path, allowEmpty: false) == .refusedEmpty(previousEvents: 1))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == full)
        #expect(try FeedWriter.write(empty, to: path, allowEmpty: true) == .written)
    }

    @Test func uidsDependOnTheGameAlone() async throws {
        let harness = try CalendarHarness()
        _ = try await harness.publisher().publish([.team("TOR"), .team("MTL")])
        let tor = try harness.events("TOR")
        let mtl = try harness.events("MTL")
        #expect(tor.keys.contains("nhl-game-2025020004@faceoff"))
        #expect(mtl.keys.contains("nhl-game-2025020004@faceoff"))
        #expect(Set(tor.keys).allSatisfy { $0.hasPrefix("nhl-game-") && $0.hasSuffix("@faceoff") })
    }
}

@Suite(
    "feeds from every recorded club schedule", .timeLimit(.minutes(5)),
    .enabled(if: RealFixtures.available, "../shared/nhl-api/fixtures not present"))
struct RecordedScheduleFeedTests {
    @Test(arguments: [
        ("club-schedule-season_MTL_20242025_full-season-final.json", "MTL"),
        ("club-schedule-season_NSH_20242025_contains-CNCL-game.json", "NSH"),
        ("club-schedule-season_BOS_20252026_contains-TBD-game.json", "BOS"),
        ("club-schedule-season_UTA_20252026_mostly-FUT.json", "UTA"),
    ])
    func everyGameBecomesAnEvent(file: String, team: String) async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("v1/club-schedule-season/\(team)/now")
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: RealFixtures.directory.appendingPathComponent(file), to: target)
        let schedule = try RealFixtures.decode(ClubSchedule.self, file)
        var options = CalendarSettings()
        options.gameTypes = [.preseason, .regular, .playoffs]
        let client = APIClient(service: .nhl, base: "file://\(directory.path)/v1/", http: CurlHTTPClient(clock: TestClock()), cache: nil)
        let service = CalendarService(clients: [client], state: nil, templates: try TemplateSet(overrides: nil), options: options)
        let (feed, _, _) = try await service.feed(.team(team))
        let expected = (schedule.games ?? []).filter { [1, 2, 3].contains($0.gameType?.rawValue ?? 0) && $0.startTime != nil }
        #expect(feed.events.count == expected.count)
        #expect(Set(feed.events.map(\.uid)).count == feed.events.count)
        let text = try CalendarBuilder.serialize(feed)
        #expect(FeedWriter.eventCount(text) == expected.count)
        #expect(text.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 })
    }
}
