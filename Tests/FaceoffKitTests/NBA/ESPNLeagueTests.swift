import FaceoffAPI
import FaceoffESPN
import FaceoffHTTP
import Foundation
import Testing

/// ESPN's client takes the sport and the league: the NBA's paths are as they were, and
/// another league of ESPN's site API reads through the same endpoints and checks.
@Suite(.timeLimit(.minutes(5)), .enabled(if: ESPNRecordings.available, "../shared/espn-api/fixtures not present"))
struct ESPNLeagueTests {
    static let nfl = ESPNLeague(sport: "football", league: "nfl", name: "NFL", teamCount: 32)

    @Test func theNBAsPathsAreAsBefore() {
        #expect(Endpoint<ESPNSummary>.nbaSummary(401_585_607).path == "apis/site/v2/sports/basketball/nba/summary?event=401585607")
        #expect(
            Endpoint<ESPNScoreboard>.nbaScoreboard(day: "2024-12-15").path == "apis/site/v2/sports/basketball/nba/scoreboard?dates=20241215"
        )
        #expect(Endpoint<ESPNTeamList>.nbaTeams.path == "apis/site/v2/sports/basketball/nba/teams")
        #expect(Endpoint<ESPNStandings>.nbaStandings.path == "apis/v2/sports/basketball/nba/standings")
    }

    @Test func anotherLeagueReadsThroughTheSameEndpoints() async throws {
        let mirror = FileManager.default.temporaryDirectory.appendingPathComponent("faceoff-espn-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: mirror) }
        let league = mirror.appendingPathComponent("apis/site/v2/sports/football/nfl")
        try FileManager.default.createDirectory(at: league, withIntermediateDirectories: true)
        let recordings = ESPNRecordings.directory.appendingPathComponent("nfl")
        for (recording, name) in [
            ("scoreboard_dates-20241215_13-final.json", "scoreboard?dates=20241215"), ("teams_nfl_32-teams_with-colours.json", "teams"),
        ] {
            try FileManager.default.copyItem(at: recordings.appendingPathComponent(recording), to: league.appendingPathComponent(name))
        }
        let client = APIClient(service: .espn, base: "file://\(mirror.path)/", http: CurlHTTPClient(), cache: nil)
        let board = try await client.fetch(.scoreboard(Self.nfl, day: "2024-12-15")).value
        #expect(board.events?.count == 13)
        #expect(try await client.fetch(.teams(Self.nfl)).value.teams.count == 32)
        // What is missing is said in the league's words, with the file asked for.
        do {
            _ = try await client.fetch(.summary(Self.nfl, 401_671_784))
            Issue.record("a summary the mirror does not have was read")
        } catch {
            #expect("\(error)".contains("ESPN has no NFL game with the id 401671784"), "\(error)")
            #expect("\(error)".contains("football/nfl/summary"), "\(error)")
        }
    }
}
