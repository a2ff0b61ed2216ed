import Foundation
import Testing

@testable import FaceoffDelivery
@testable import FaceoffKit
@testable import FaceoffNHL

/// Penalty shots as a fan follows them: the penalty says who shoots and why, in words; the
/// shot says scored (its goal) or stopped or missed (`penalty_shot_missed`), and by whom.
@Suite(.timeLimit(.minutes(5)), .enabled(if: RealFixtures.available, "../shared/nhl-api/fixtures not present"))
struct PenaltyShotTests {
    static func recording(_ suffix: String) throws -> URL {
        try #require(Replays.recorded.first { $0.lastPathComponent.contains(suffix) }, "no recording \(suffix)")
    }

    /// Every infraction code in the shared recordings reads as words: no code's hyphens but
    /// the words' own (cross-checking, high-sticking), no "ps " prefix.
    @Test func everyRecordedInfractionReadsAsWords() throws {
        var keys: Set<String> = []
        for url in Replays.recorded {
            let feed = try Replays.load(url)
            for play in feed.plays ?? [] { if let key = play.details?.descKey { keys.insert(key) } }
        }
        #expect(keys.count >= 20, "\(keys.count) codes")
        for key in keys.sorted() {
            let words = Infraction.words(key)
            let hyphens = words.replacingOccurrences(of: "cross-checking", with: "").replacingOccurrences(of: "high-sticking", with: "")
            #expect(!hyphens.contains("-") && !words.hasPrefix("ps ") && !words.contains("breakaway ") && words != "", "\(key) → \(words)")
        }
        #expect(Infraction.words("ps-slash-on-breakaway") == "slashing on a breakaway")
        #expect(Infraction.words("interference-goalkeeper") == "goalkeeper interference")
        #expect(Infraction.words("delaying-game-puck-over-glass") == "delay of game (puck over glass)")
        #expect(Infraction.words("high-sticking-double-minor") == "high-sticking (double minor)")
        #expect(Infraction.words("some-new-code") == "some new code")
    }

    /// FLA at TOR: Montour slashes Aston-Reese on a breakaway; Lyon stops the shot.
    @Test func aStoppedPenaltyShotIsAlertedWithItsGoalie() async throws {
        let events = try await Replays.replay(try Self.recording("2022021186_FLA-at-TOR")).events
        let penalty = try #require(events.first { $0.kind == .penalty && $0.penaltyShot == true })
        let line = Renderer.builtIn.line(penalty)
        #expect(line.contains("Brandon Montour, slashing on a breakaway · penalty shot for Zach Aston-Reese"), "\(line)")
        let shots = events.filter { $0.kind == .penaltyShotMissed }
        #expect(shots.count == 1)
        let shot = try #require(shots.first)
        #expect(shot.team == "TOR" && shot.details["result"] == "stopped" && shot.clock == penalty.clock)
        #expect(
            Renderer.builtIn.line(shot)
                == "🧤 Maple Leafs penalty shot stopped  Zach Aston-Reese stopped by Alex Lyon · FLA 1–1 TOR · 2nd 11:33")
        // A penalty shot gives no power play.
        #expect(!events.contains { $0.kind == .powerPlayStart && $0.clock == penalty.clock })
    }

    /// CBJ at CGY: Gaudreau's penalty shot goes wide.
    @Test func aMissedPenaltyShotSaysHowItMissed() async throws {
        let events = try await Replays.replay(try Self.recording("2022020754_CBJ-at-CGY")).events
        let shot = try #require(events.first { $0.kind == .penaltyShotMissed })
        #expect(Renderer.builtIn.line(shot) == "🧤 Blue Jackets penalty shot missed  Johnny Gaudreau, wide of net · CBJ 0–0 CGY · 1st 05:14")
    }

    /// BOS at TOR: Marchand scores his: the goal says so, and no `penalty_shot_missed` follows.
    @Test func aScoredPenaltyShotIsItsGoal() async throws {
        let events = try await Replays.replay(try Self.recording("2022020179_BOS-at-TOR")).events
        let goal = try #require(events.first { $0.kind == .goal && $0.penaltyShot == true })
        #expect(Renderer.builtIn.line(goal).contains("Brad Marchand (4) unassisted · penalty shot · BOS 1–1 TOR"))
        #expect(!events.contains { $0.kind == .penaltyShotMissed })
    }
}
