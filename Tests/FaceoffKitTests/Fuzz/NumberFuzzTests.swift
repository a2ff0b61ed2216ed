import FaceoffESPN
import Foundation
import PropertyBased
import Testing

@testable import FaceoffAPI
@testable import FaceoffFan
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffNHL

/// Hostile numbers in the numeric fields of real answers: ±1e19, Int.max, Int.min, 2^62,
/// 1e308, negatives and fractions in the numbers, and "NaN", "inf" or a 19-digit clock in the
/// clocks. Each answer goes through its endpoint's decoding and checks, as a fetched body
/// does; one that is taken goes on through the league's snapshot and detector. None traps or
/// hangs, and every refusal is a sentence naming the URL. CI makes 60 answers of each
/// recording (a whole game's decode and detection takes about 0.15 s in a debug build);
/// FACEOFF_FUZZ_COUNT sets more, as for MutationFuzzTests.
@Suite(.timeLimit(.minutes(5))) struct NumberFuzzTests {
    static var numbers: [Any] {
        [
            1e19, -1e19, Int.max, Int.min, 4_611_686_018_427_387_904, -1, 1e308, -0.5, 0.5, 9_223_372_036_854_775_000.0, 721, 100_000,
        ]
    }
    static let clocks = ["NaN", "inf", "-inf", "9223372036854775807:00", "-5:00", "99:99", "1e400", "0:-1", ""]

    /// Where `json` holds a number, or a string that reads like a clock ("10:05", "45.3").
    static func targets(_ json: Any, _ path: [Any] = []) -> [[Any]] {
        switch json {
        case let object as [String: Any]:
            return object.keys.sorted().flatMap { key in targets(object[key]!, path + [key]) }
        case let array as [Any]:
            return array.indices.flatMap { targets(array[$0], path + [$0]) }
        case is NSNumber:
            // (true and false too: a number where a flag was is one more wrong answer.)
            return [path]
        case let text as String where !text.isEmpty && text.count <= 8 && text.allSatisfy({ $0.isNumber || $0 == ":" || $0 == "." }):
            return [path]
        default:
            return []
        }
    }

    static func replacing(_ json: Any, at path: ArraySlice<Any>, with value: Any) -> Any {
        guard let first = path.first else { return value }
        if var object = json as? [String: Any], let key = first as? String, let inner = object[key] {
            object[key] = replacing(inner, at: path.dropFirst(), with: value)
            return object
        }
        if var array = json as? [Any], let index = first as? Int, array.indices.contains(index) {
            array[index] = replacing(array[index], at: path.dropFirst(), with: value)
            return array
        }
        return json
    }

    /// Answers made from `original`, each with 1 to 4 of its numbers or clocks made hostile;
    /// `check` gets each one's decoded value, or the refusal.
    static func hostile<T>(
        _ original: Data, _ endpoint: Endpoint<T>, base: String, check: @escaping @Sendable (T) -> Void
    ) async throws {
        let json = try JSONSerialization.jsonObject(with: original)
        let places = targets(json)
        #expect(places.count > 20)
        let client = APIClient(service: .espn, base: base, http: CurlHTTPClient(), cache: nil)
        let url = base + endpoint.path
        #expect((try? client.decode(endpoint, Array(original), url: url)) != nil, "the recording as it is is taken")
        let count = ProcessInfo.processInfo.environment["FACEOFF_FUZZ_COUNT"].flatMap { Int($0) } ?? 60
        let gen = Gen.int(in: 0...Int(Int32.max)).array(of: 1...4)
        await withTaskExecutorPreference(OffPoolExecutor.shared) {
            await propertyCheck(count: count, input: gen) { seeds in
                var mutated = json
                for seed in seeds {
                    let path = places[seed % places.count]
                    let old = path.reduce(json as Any?) { node, key in
                        if let key = key as? String { return (node as? [String: Any])?[key] }
                        return (node as? [Any]).flatMap { array in (key as? Int).map { array[$0] } }
                    }
                    let value: Any = old is String ? clocks[(seed / 7) % clocks.count] : numbers[(seed / 7) % numbers.count]
                    mutated = replacing(mutated, at: path[...], with: value)
                }
                guard let body = try? JSONSerialization.data(withJSONObject: mutated) else { return }
                let value: T
                do throws(APIError) {
                    value = try client.decode(endpoint, Array(body), url: url)
                } catch {
                    #expect(MutationFuzzTests.isPlain(error.description), "\(error.description)")
                    #expect(error.description.contains(url), "\(error.description)")
                    return
                }
                check(value)
            }
        }
    }

    @Test func anNHLGame() async throws {
        let feed = try Data(contentsOf: TestPaths.mirror.appendingPathComponent("gamecenter/2025020100/play-by-play"))
        try await Self.hostile(feed, .playByPlay(2_025_020_100), base: TestPaths.mirrorBase) { feed in
            let snapshot = GameSnapshot(feed)
            _ = EventDetector.derive(snapshot)
            _ = snapshot.period?.label
        }
    }

    @Test func anNHLSchedule() async throws {
        let schedule = try Data(contentsOf: TestPaths.mirror.appendingPathComponent("club-schedule-season/TOR/now"))
        try await Self.hostile(schedule, .clubSchedule("TOR"), base: TestPaths.mirrorBase) { schedule in
            _ = SeriesState.states(schedule.games ?? [])
        }
    }

    @Test func theNHLStandings() async throws {
        let standings = try Data(contentsOf: TestPaths.mirror.appendingPathComponent("standings/now"))
        try await Self.hostile(standings, .standings(), base: TestPaths.mirrorBase) { standings in
            for grouping in StandingsReport.Grouping.allCases {
                _ = StandingsReport(standings: standings, by: grouping, followed: ["TOR"])
            }
        }
    }

    @Test(ESPNRecordings.needed) func anNBAGame() async throws {
        let name = "summary_nba_401585607_final_tor_at_orl_20240317.json"
        let summary = try Data(contentsOf: ESPNRecordings.directory.appendingPathComponent(name))
        try await Self.hostile(summary, .nbaSummary(401_585_607), base: "file:///nowhere/") { summary in
            let snapshot = NBASnapshot(summary)
            _ = NBAEventDetector.derive(snapshot)
            for play in snapshot.plays { _ = NBAPeriod.gameSeconds(period: play.period, remaining: play.remaining) }
        }
    }

    @Test(ESPNRecordings.needed) func anNBATeamsSchedule() async throws {
        let lakers = try #require(NBATeams.team(abbreviation: "LAL"))
        let schedule = try Data(contentsOf: ESPNRecordings.directory.appendingPathComponent(ESPNRecordings.lakersPostseason))
        let time = LocalTime(timeZone: TimeZone(identifier: "UTC")!)
        try await Self.hostile(schedule, .nbaSchedule(lakers), base: "file:///nowhere/") { schedule in
            for event in schedule.events ?? [] { _ = GameSummary(nba: event, team: lakers, time: time) }
        }
    }

    /// The probe's own numbers, each refused in words: a team schedule's score of 1e19, a
    /// play clock of "NaN", "inf" or 19 digits, a quarter of 2^62.
    @Test(ESPNRecordings.needed) func theProbesNumbersAreRefused() throws {
        let client = APIClient(service: .espn, base: "file:///nowhere/", http: CurlHTTPClient(), cache: nil)
        let lakers = try #require(NBATeams.team(abbreviation: "LAL"))
        var schedule = try #require(try ESPNRecordings.json(ESPNRecordings.lakersPostseason) as? [String: Any])
        schedule =
            Self.replacing(schedule, at: ["events", 0, "competitions", 0, "competitors", 0, "score"], with: ["value": 1e19])
            as! [String: Any]
        let body = Array(try JSONSerialization.data(withJSONObject: schedule))
        #expect(throws: APIError.self) { try client.decode(Endpoint<ESPNTeamSchedule>.nbaSchedule(lakers), body, url: "schedule") }
        let name = "summary_nba_401585607_final_tor_at_orl_20240317.json"
        let summary = try #require(try ESPNRecordings.json(name) as? [String: Any])
        let playCount = try #require((summary["plays"] as? [Any])?.count)
        for (field, value) in [
            ("clock", ["displayValue": "NaN"]), ("clock", ["displayValue": "inf"]),
            ("clock", ["displayValue": "9223372036854775807:00"]), ("period", ["number": 4_611_686_018_427_387_904]),
        ] as [(String, Any)] {
            let hostile = Self.replacing(summary, at: ["plays", playCount / 2, field], with: value)
            let body = Array(try JSONSerialization.data(withJSONObject: hostile))
            do throws(APIError) {
                _ = try client.decode(Endpoint<ESPNSummary>.nbaSummary(401_585_607), body, url: "summary")
                Issue.record("a play's \(field) of \(value) was taken")
            } catch {
                #expect(error.description.contains("it gives a play's"), "\(error.description)")
            }
        }
        // A clock that is no number at all ("--") is only no clock: the game is still read.
        let dashes = Self.replacing(summary, at: ["plays", playCount / 2, "clock"], with: ["displayValue": "--"])
        let taken = Array(try JSONSerialization.data(withJSONObject: dashes))
        #expect((try? client.decode(Endpoint<ESPNSummary>.nbaSummary(401_585_607), taken, url: "summary")) != nil)
    }
}
