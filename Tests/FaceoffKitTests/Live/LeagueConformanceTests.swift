import FaceoffAPI
import FaceoffESPN
import Foundation
import Testing

@testable import FaceoffDelivery
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL

/// What every league's live path owes its fans, written once and run over each league's
/// recordings (`RecordedGame`): one final with the recorded score; every event id unique
/// and the same however the plays fall into polls; nothing new after a restart; a join in
/// progress folds what came before it; the goals or points in the events add up to the
/// final; Home Assistant discovery declares every trigger the events fire; in an 80- or
/// 100-column pane every alert keeps its strength, empty net, penalty shot, infraction, score
/// and clock. A league joins
/// by adding its recordings and its tally here.
@Suite(.timeLimit(.minutes(5))) struct LeagueConformanceTests {
    /// A recording of one league's game, by file.
    struct Recording: Sendable, CustomTestStringConvertible {
        let league: League
        let url: URL
        var testDescription: String { "\(league.rawValue): \(url.lastPathComponent)" }
    }

    static var recordings: [Recording] {
        let hockey = (Replays.ownGames + Replays.recorded).map { Recording(league: .nhl, url: $0) }
        guard ESPNRecordings.available else { return hockey }
        let summaries =
            ((try? FileManager.default.contentsOfDirectory(at: ESPNRecordings.directory, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.lastPathComponent.hasPrefix("summary_nba_") }.sorted { $0.path < $1.path }
        return hockey + summaries.map { Recording(league: .nba, url: $0) }
    }

    @Test func everyLeagueHasRecordingsHere() {
        // A parameterised test with no arguments would pass silently.
        #expect(Self.recordings.filter { $0.league == .nhl }.count >= 4)
        if ESPNRecordings.available { #expect(Self.recordings.filter { $0.league == .nba }.count >= 3) }
    }

    @Test(arguments: recordings)
    func aRecordedGameReplaysAsItsLeagueOwes(recording: Recording) async throws {
        switch recording.league {
        case .nhl:
            // The play-by-play replay other tests make of the same game, made once.
            let replayed = try await Replays.replay(recording.url)
            try await Replays.offPool { try Self.check(ReplayFeed(replayed.feed), recording, replayed: replayed.events, tally: Self.goals) }
        case .nba:
            try await Replays.offPool {
                let game = NBARecording(try APIText.decode(ESPNSummary.self, from: Array(Data(contentsOf: recording.url))))
                try Self.check(game, recording, replayed: Self.replay(game, polls: Array(1...max(1, game.playCount))), tally: Self.points)
            }
        default: Issue.record("no recordings read for \(recording.league)")
        }
    }

    /// The final score the NHL's goal events make: each team's goals, and a shootout's winner
    /// one more.
    static func goals(_ events: [GameEvent], _ final: GameEvent) -> GameEvent.Score {
        let goals = events.filter { $0.kind == .goal }
        var score = GameEvent.Score(
            away: goals.filter { $0.team == final.away }.count, home: goals.filter { $0.team == final.home }.count)
        if final.details["ended_in"] == "SO" {
            if final.details["winner"] == final.away { score.away += 1 } else { score.home += 1 }
        }
        return score
    }

    /// The final score the NBA's baskets make: each `score` event's points to its team.
    static func points(_ events: [GameEvent], _ final: GameEvent) -> GameEvent.Score {
        let baskets = events.filter { $0.kind == .score }
        func sum(_ team: String) -> Int {
            baskets.filter { $0.team == team }.compactMap { $0.details["points"].flatMap(Int.init) }.reduce(0, +)
        }
        return GameEvent.Score(away: sum(final.away), home: sum(final.home))
    }

    static func replay<G: RecordedGame>(_ game: G, polls: [Int]) -> [GameEvent] {
        var detector = G.Detector()
        return polls.flatMap { detector.detect(game.snapshot(plays: $0)).events }
    }

    /// - Parameter replayed: the game's events replayed a play at a time.
    static func check<G: RecordedGame>(
        _ game: G, _ recording: Recording, replayed events: [GameEvent], tally: ([GameEvent], GameEvent) -> GameEvent.Score
    ) throws {
        let name = recording.testDescription
        let ids = events.map(\.id)
        #expect(Set(ids).count == ids.count, "duplicate ids: \(name)")
        #expect(events.filter { $0.kind == .gameStart }.count <= 1, "\(name)")
        let last = game.snapshot(plays: game.playCount)
        if last.isFinal {
            let finals = events.filter { $0.kind == .final }
            #expect(finals.count == 1, "\(name)")
            if let final = finals.first {
                #expect(final.score == last.score, "\(name)")
                #expect(tally(events, final) == last.score, "the events' goals or points: \(name)")
            }
        }
        // However the plays fall into polls (every few plays, a long gap), the same events.
        for polls in [
            Array(stride(from: 5, to: game.playCount, by: 5)), Array(stride(from: 13, to: game.playCount, by: 13)), [game.playCount / 2],
        ] {
            let other = replay(game, polls: polls + [game.playCount])
            #expect(Set(other.map(\.id)) == Set(ids), "polls every \(polls.first ?? 0) plays: \(name)")
            #expect(Set(other.map(\.id)).count == other.count, "duplicate ids: \(name)")
        }
        // A restart derives everything again: nothing it finds is new.
        #expect(Set(G.Detector.derive(last).map(\.id)).isSubset(of: Set(ids)), "new after a restart: \(name)")
        // Joined halfway: one summary, then only what came after it.
        var joined = G.Detector()
        let half = game.snapshot(plays: max(1, game.playCount / 2))
        let summary = joined.join(half)
        #expect(summary.kind == .gameJoined, "\(name)")
        let before = Set(G.Detector.derive(half).map(\.id))
        let after = joined.detect(last).events
        #expect(after.allSatisfy { !before.contains($0.id) || $0.kind == .final }, "a joined game repeats what came before: \(name)")
        for event in events { checkNarrowPanes(event, name) }
        // Home Assistant declares every trigger these events fire, from either side.
        let declared = Set(MQTTTrigger.of(recording.league))
        for event in events {
            for side in [event.away, event.home] {
                let fired = Set(MQTTTrigger.fired(by: event, for: event.followKey(side)))
                #expect(fired.isSubset(of: declared), "\(name) \(event.id): \(fired.subtracting(declared))")
            }
        }
    }

    /// In a narrow pane (`watch`'s scoreboard at 80 and 100 columns) an alert line gives up
    /// assists, "drawn by" and names, never the words a fan reads it for.
    static func checkNarrowPanes(_ event: GameEvent, _ name: String) {
        let values = AlertContext.values(event, followed: [])
        let forms = Renderer.builtIn.terminalForms(event)
        let kept = [
            values["strength_label"] as? String, event.kind == .goal ? nil : values["strength"] as? String,
            values["empty_net"] == nil || event.kind != .goal ? nil : "empty-net", values["penalty_shot"] == nil ? nil : "penalty shot",
            values["infraction"] as? String, values["score_line"] as? String, values["when"] as? String,
        ].compactMap { $0 }.filter { forms[0].contains($0) }
        for width in [80, 100] {
            let line = DisplayWidth.fit(forms, to: width)
            #expect(DisplayWidth.of(line) <= width, "\(name) \(event.id) at \(width): \(line)")
            for words in kept where !line.contains(words) {
                Issue.record("\(name) \(event.id) at \(width) lost \"\(words)\": \(line)")
            }
        }
    }
}
