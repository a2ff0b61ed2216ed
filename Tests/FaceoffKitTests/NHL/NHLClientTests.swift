import Foundation
import Testing

@testable import FaceoffAPI
@testable import FaceoffDaemon
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL
@testable import FaceoffStore

/// The NHL client end to end: libcurl against a loopback server, a real SQLite cache.
@Suite(.timeLimit(.minutes(5))) struct NHLClientTests {
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var current = Date(timeIntervalSince1970: 1_800_000_000)
        var now: Date { lock.withLock { current } }
        func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
    }

    struct Harness {
        let server: LoopbackHTTPServer
        let cache: ResponseCache
        let clock = Clock()
        let directory: URL

        init(handler: @escaping @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply) throws {
            server = try LoopbackHTTPServer(handler: handler)
            directory = try TestPaths.temporaryDirectory()
            cache = ResponseCache(store: try Store(path: directory.appendingPathComponent("faceoff.sqlite").path))
        }

        func client(_ mode: FetchMode = .normal) -> APIClient {
            let clock = self.clock
            return APIClient(
                service: .nhl, base: server.baseURL + "/v1/", http: CurlHTTPClient(clock: TestClock()), cache: cache, mode: mode,
                now: { clock.now })
        }

        func close() {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    static let standings = #"{"wildCardIndicator": true, "standings": [{"teamAbbrev": {"default": "TOR"}, "points": 30}]}"#

    @Test func cachesWithinFreshnessThenRevalidatesWith304() async throws {
        let harness = try Harness { request in
            request.headers["if-none-match"] == "\"s1\""
                ? .response(status: 304, headers: [("ETag", "\"s1\"")])
                : .json(Self.standings, headers: [("ETag", "\"s1\"")])
        }
        defer { harness.close() }
        let client = harness.client()

        let first = try await client.fetch(.standings())
        #expect(first.origin == .network)
        #expect(first.value.standings?.first?.points == 30)

        harness.clock.advance(3600)
        let second = try await client.fetch(.standings())
        #expect(second.origin == .cache(age: 3600))
        #expect(harness.server.requests.count == 1)

        harness.clock.advance(24 * 3600)
        let third = try await client.fetch(.standings())
        #expect(third.origin == .network)
        #expect(third.value.standings?.first?.points == 30)
        #expect(harness.server.requests.count == 2)
        #expect(harness.server.requests.last?.headers["if-none-match"] == "\"s1\"")
        // The 304 restarted the freshness clock.
        #expect(try harness.cache.entry(for: client.base + "standings/now")?.fetchedAt == harness.clock.now)
    }

    @Test func offlineAnswersFromTheCacheAndSaysHowOld() async throws {
        let harness = try Harness { _ in .json(Self.standings) }
        defer { harness.close() }
        _ = try await harness.client().fetch(.standings())
        harness.server.stop()
        harness.clock.advance(3 * 3600)

        let offline = try await harness.client(.offline).fetch(.standings())
        #expect(offline.origin == .stale(age: 3 * 3600, reason: "offline"))
        #expect(offline.staleness == "using data from 3 h ago (offline)")

        let error = await #expect(throws: APIError.self) { try await harness.client(.offline).fetch(.roster("TOR")) }
        #expect(error?.code == .notCached)
        #expect(error?.description.contains("run once without --offline") == true)
    }

    @Test func aBrokenResponseNeverReplacesAGoodCopy() async throws {
        let calls = Counter()
        let harness = try Harness { _ in
            calls.next() == 0
                ? .json(Self.standings)
                : .response(status: 200, headers: [("Content-Type", "text/html")], body: Array("<html>Service Unavailable</html>".utf8))
        }
        defer { harness.close() }
        _ = try await harness.client().fetch(.standings())
        harness.clock.advance(2 * 86400)

        let fallback = try await harness.client().fetch(.standings())
        guard case .stale(_, let reason) = fallback.origin else {
            Issue.record("expected a stale copy, got \(fallback.origin)")
            return
        }
        #expect(reason.contains("not JSON"))
        #expect(fallback.value.standings?.first?.points == 30)
        #expect(try harness.cache.entry(for: harness.client().base + "standings/now")?.body == Array(Self.standings.utf8))
    }

    /// What may replace a season's schedule: more games, a few fewer, a new season; never
    /// nothing, nor a third of it.
    @Test func aScheduleThatLostItsGamesNeverReplacesTheLastGoodOne() throws {
        func schedule(season: Int, ids: some Sequence<Int>) throws -> ClubSchedule {
            let games = ids.map { "{\"id\": \($0), \"awayTeam\": {\"abbrev\": \"TOR\"}, \"homeTeam\": {\"abbrev\": \"MTL\"}}" }
            return try JSONDecoder().decode(
                ClubSchedule.self, from: Data("{\"currentSeason\": \(season), \"games\": [\(games.joined(separator: ","))]}".utf8))
        }
        let good = try schedule(season: 20252026, ids: 1...82)
        #expect(
            AnswerChecks.clubSchedule(try schedule(season: 20252026, ids: []), replacing: good)
                == "it has no games, where the last good copy has 82")
        #expect(
            AnswerChecks.clubSchedule(try schedule(season: 20252026, ids: 1...27), replacing: good)
                == "55 of the last good copy's 82 games are missing from it")
        // A game or two taken off (rescheduled under a new id), games added, a new season: fine.
        #expect(AnswerChecks.clubSchedule(try schedule(season: 20252026, ids: 3...84), replacing: good) == nil)
        #expect(AnswerChecks.clubSchedule(try schedule(season: 20262027, ids: [500]), replacing: good) == nil)
        #expect(
            AnswerChecks.clubSchedule(try schedule(season: 20252026, ids: 1...5), replacing: try schedule(season: 20252026, ids: [])) == nil
        )
    }

    /// Escape sequences in the API's text (a title change, a clear screen, a clipboard write,
    /// a C1 CSI) are gone once decoded; newlines, tabs and other escapes are kept.
    @Test func controlCharactersNeverLeaveTheDecoder() throws {
        let json =
            #"{"playerId": 8471675, "firstName": {"default": "Sid\u001b]0;pwned\u0007ney"}, "lastName": {"default": "\u001b[2J\u001b]52;c;cHduZWQ=\u0007Cros\u009b31mby\b\r"}, "birthCity": {"default": "Cole \"Harbour\"\n\tN.S. \\ \/ é"}}"#
        let raw = Array(json.utf8) + []
        let player = try APIText.decode(PlayerLanding.self, from: raw)
        let first = try #require(player.firstName?.value)
        let last = try #require(player.lastName?.value)
        for text in [first, last] {
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(text.debugDescription)")
        }
        #expect(first == "Sid ]0;pwned ney")
        #expect(player.birthCity?.value == "Cole \"Harbour\"\n\tN.S. \\ / é")
        // A raw C1 control (UTF-8 C2 9B) and DEL become spaces too.
        let rawC1 = Array(#"{"playerId": 1, "firstName": {"default": "A"#.utf8) + [0xC2, 0x9B, 0x7F] + Array(#"B"}}"#.utf8)
        #expect(try APIText.decode(PlayerLanding.self, from: rawC1).firstName?.value == "A  B")
    }

    @Test func undecodableJSONIsAnErrorNamingTheURLAndField() async throws {
        let harness = try Harness { _ in .json(#"{"standings": [{"points": "thirty"}]}"#) }
        defer { harness.close() }
        let error = await #expect(throws: APIError.self) { try await harness.client().fetch(.standings()) }
        #expect(error?.code == .undecodable)
        #expect(error?.description.contains("/v1/standings/now") == true)
        #expect(error?.description.contains("standings[0].points") == true)
        #expect(try harness.cache.entry(for: harness.client().base + "standings/now") == nil)
    }

    @Test func finishedGamesAreKeptForeverLiveOnesRevalidated() async throws {
        let harness = try Harness { request in
            request.path.contains("2025020100")
                ? .json(#"{"id": 2025020100, "gameState": "OFF", "plays": []}"#)
                : .json(#"{"id": 2025020101, "gameState": "LIVE", "plays": []}"#)
        }
        defer { harness.close() }
        let client = harness.client()
        _ = try await client.fetch(.playByPlay(2025020100))
        _ = try await client.fetch(.playByPlay(2025020101))
        #expect(try harness.cache.entry(for: client.base + "gamecenter/2025020100/play-by-play")?.freshness == .forever)
        #expect(try harness.cache.entry(for: client.base + "gamecenter/2025020101/play-by-play")?.freshness == .revalidate)

        harness.clock.advance(365 * 86400)
        #expect(try await client.fetch(.playByPlay(2025020100)).origin == .cache(age: 365 * 86400))
        #expect(try await client.fetch(.playByPlay(2025020101)).origin == .network)
        #expect(harness.server.requests.count == 3)
    }

    @Test func aScheduleWithALiveGameIsAlwaysRevalidated() async throws {
        let harness = try Harness { request in
            request.path.contains("TOR")
                ? .json(#"{"games": [{"id": 1, "gameState": "LIVE", "startTimeUTC": "2027-01-15T00:00:00Z"}]}"#)
                : .json(#"{"games": [{"id": 2, "gameState": "FUT", "startTimeUTC": "2027-01-15T09:00:00Z"}]}"#)
        }
        defer { harness.close() }
        let client = harness.client()
        _ = try await client.fetch(.clubSchedule("TOR"))
        _ = try await client.fetch(.clubSchedule("MTL"))
        #expect(try harness.cache.entry(for: client.base + "club-schedule-season/TOR/now")?.freshness == .revalidate)
        // Not kept past the next start (an hour after the harness's clock), nor beyond 6 h.
        #expect(harness.clock.now == (try Date("2027-01-15T08:00:00Z", strategy: .iso8601)))
        #expect(try harness.cache.entry(for: client.base + "club-schedule-season/MTL/now")?.freshness == .seconds(3600))
    }

    @Test func playerSearchSaysWhenRostersCouldNotBeRead() async throws {
        let harness = try Harness { request in
            request.path.contains("roster/TOR")
                ? .response(status: 503)
                : .json(#"{"forwards": [{"id": 1, "firstName": {"default": "Nick"}, "lastName": {"default": "Suzuki"}}]}"#)
        }
        defer { harness.close() }
        let search = PlayerSearch(client: harness.client())
        #expect(try await search.search("suzuki", teams: ["MTL", "TOR"]).map(\.id) == [1])
        let error = await #expect(throws: PlayerSearchError.self) { try await search.search("Matthews", teams: ["MTL", "TOR"]) }
        #expect(error?.unreadable == 1)
        #expect(error?.description.contains("1 of 2 rosters could not be read") == true)
    }

    /// A mirror with a few rosters only (the others answer 404): a name found in none of them
    /// says how many rosters were missing, never "check the spelling".
    @Test func playerSearchCountsRostersTheServerDoesNotHave() async throws {
        let harness = try Harness { request in
            request.path.contains("roster/MTL")
                ? .json(#"{"forwards": [{"id": 1, "firstName": {"default": "Nick"}, "lastName": {"default": "Suzuki"}}]}"#)
                : .response(status: 404)
        }
        defer { harness.close() }
        let search = PlayerSearch(client: harness.client())
        let error = await #expect(throws: PlayerSearchError.self) { try await search.search("McDavid", teams: ["MTL", "TOR", "EDM"]) }
        #expect(error?.description.contains("2 of 3 rosters could not be read") == true, "\(String(describing: error))")
    }

    @Test func followsTheNowRedirect() async throws {
        let harness = try Harness { request in
            request.path == "/v1/club-schedule-season/TOR/now"
                ? .response(status: 302, headers: [("Location", "/v1/club-schedule-season/TOR/20252026")])
                : .json(#"{"currentSeason": 20252026, "games": []}"#)
        }
        defer { harness.close() }
        let schedule = try await harness.client().fetch(.clubSchedule("TOR"))
        #expect(schedule.value.currentSeason == 20252026)
    }

    @Test func readsTheProjectsFileMirror() async throws {
        let client = APIClient(service: .nhl, base: TestPaths.mirrorBase, http: CurlHTTPClient(), cache: nil)
        let schedule = try await client.fetch(.clubSchedule("TOR"))
        #expect(schedule.value.games?.isEmpty == false)
        // A team's current schedule is something the NHL API always has: a file missing from a
        // mirror means the mirror is not what api_base should name.
        let missing = await #expect(throws: APIError.self) { try await client.fetch(.clubSchedule("ZZZ")) }
        #expect(missing?.code == .wrongServer)
        // A season the user asked for may simply not exist.
        let season = await #expect(throws: APIError.self) { try await client.fetch(.clubSchedule("TOR", season: "19001901")) }
        #expect(season?.code == .notFound)
        #expect(season?.description.hasPrefix("no games scheduled for TOR in 19001901") == true)
    }
}
