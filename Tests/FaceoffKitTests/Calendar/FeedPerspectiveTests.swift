import FaceoffAPI
import FaceoffHTTP
import FaceoffNHL
import Foundation
import Testing

@testable import FaceoffCalendar
@testable import FaceoffKit

/// Which team a feed's game is seen from: its title's "us" and "them", and a final's result.
@Suite struct FeedPerspectiveTests {
    /// Canadiens 2–5 at the Maple Leafs (2025020004), in both clubs' recorded seasons.
    static let game = "nhl-game-2025020004@faceoff"

    func season(_ team: String) throws -> CalendarSeason {
        let file = TestPaths.mirror.appendingPathComponent("club-schedule-season/\(team)/now")
        let schedule = try JSONDecoder().decode(ClubSchedule.self, from: Data(contentsOf: file))
        return CalendarSeason(nhl: schedule, request: CalendarRequest(season: "current", scores: true))
    }

    func summary(_ kind: FeedKind, _ teams: [String], configure: (inout CalendarSettings) -> Void = { _ in }) async throws -> String? {
        var options = CalendarSettings()
        configure(&options)
        let service = CalendarService(clients: [], state: nil, templates: try TemplateSet(overrides: nil), options: options)
        let feed = try await service.build(kind, seasons: try teams.map { ($0, try season($0)) })
        return feed.events.first { $0.uid == Self.game }?.summary
    }

    /// From the first followed team of the feed that plays in it; with home games only, from
    /// the followed team at home, even when only the visitors' season was read (the home
    /// team's could not be had); from nobody in a feed of every game. A loss is the NHL's L.
    @Test func aGameIsSeenFromAFollowedTeam() async throws {
        let canadiens = try await summary(.favourites(["MTL", "TOR"]), ["MTL", "TOR"])
        #expect(canadiens?.hasPrefix("Canadiens 2–5 Maple Leafs") == true && canadiens?.hasSuffix("· L") == true, "\(canadiens ?? "")")
        let leafs = try await summary(.favourites(["TOR", "MTL"]), ["TOR", "MTL"])
        #expect(leafs?.hasPrefix("Maple Leafs 5–2 Canadiens") == true && leafs?.hasSuffix("· W") == true, "\(leafs ?? "")")
        let home = try await summary(.favourites(["MTL", "TOR"]), ["MTL"]) { $0.homeOnly = true }
        #expect(home == leafs, "\(home ?? "")")
        let away = try await summary(.favourites(["MTL", "TOR"]), ["MTL"]) { $0.awayOnly = true }
        #expect(away == canadiens, "\(away ?? "")")
        let nobody = try await summary(.all, ["MTL", "TOR"])
        #expect(nobody?.contains("Canadiens") == true && nobody?.hasSuffix("· W") == false && nobody != canadiens, "\(nobody ?? "")")
    }
}
