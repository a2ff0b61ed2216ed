import FaceoffHTTP
import Foundation
import Synchronization
import Testing

@testable import FaceoffDaemon
@testable import FaceoffDelivery
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL
@testable import FaceoffStore

/// Mutes, quiet hours and digests: when a sink holds its alerts, what the ledger says of them,
/// and the one message that sums them up.
@Suite(.timeLimit(.minutes(5))) struct HoldTests {
    static let toronto = TimeZone(identifier: "America/Toronto")!

    /// A moment on Toronto's wall clock.
    static func at(_ day: Int, _ hour: Int, _ minute: Int, month: Int = 11) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = toronto
        return calendar.date(from: DateComponents(year: 2026, month: month, day: day, hour: hour, minute: minute))!
    }

    @Test func quietHoursSpanMidnightOnTheConfiguredClock() throws {
        let quiet = try #require(QuietHours("23:00-07:00"))
        #expect(quiet.description == "23:00-07:00")
        #expect(quiet.contains(Self.at(26, 23, 0), in: Self.toronto))
        #expect(quiet.contains(Self.at(27, 0, 30), in: Self.toronto))
        #expect(quiet.contains(Self.at(27, 6, 59), in: Self.toronto))
        #expect(!quiet.contains(Self.at(27, 7, 0), in: Self.toronto))
        #expect(!quiet.contains(Self.at(26, 22, 59), in: Self.toronto))
        // 22:30 in Toronto is 03:30 in UTC: the zone decides.
        #expect(quiet.contains(Self.at(26, 22, 30), in: TimeZone(identifier: "UTC")!))
        #expect(quiet.end(after: Self.at(26, 23, 30), in: Self.toronto) == Self.at(27, 7, 0))
        // Across the autumn clock change (Nov 1, 2026): still 07:00 on the wall.
        #expect(quiet.end(after: Self.at(1, 1, 30), in: Self.toronto) == Self.at(1, 7, 0))
        // The autumn's repeated hour (Nov 1, 2026: 01:00-02:00 twice) inside a quiet that ends
        // at 01:30: it ends at the first 01:30 and does not come back for the second.
        let short = try #require(QuietHours("23:00-01:30"))
        let firstPass = Date(timeIntervalSince1970: 1_793_511_000)  // 01:30 EDT, 05:30 UTC
        #expect(short.contains(firstPass.addingTimeInterval(-60), in: Self.toronto))
        #expect(!short.contains(firstPass.addingTimeInterval(600), in: Self.toronto))  // 01:40 EDT
        #expect(!short.contains(firstPass.addingTimeInterval(2400), in: Self.toronto))  // 01:10 EST
        #expect(quiet.contains(firstPass.addingTimeInterval(2400), in: Self.toronto))
        let day = try #require(QuietHours("9:00-17:30"))
        #expect(day.contains(Self.at(26, 12, 0), in: Self.toronto) && !day.contains(Self.at(26, 17, 30), in: Self.toronto))
        for bad in ["23:00", "23:00-", "24:00-07:00", "23:00-07:60", "10:00-10:00", "ten-seven", "23:00-07:00-08:00", "+1:00-07:00"] {
            #expect(QuietHours(bad) == nil, "\(bad)")
        }
    }

    /// The spring clock change skips 02:00-03:00 (New York, 2026-03-08): a span whose ends
    /// both fall in the gap is empty that day, one that ends in it ends at 03:00, and neither
    /// holds the rest of Sunday.
    @Test func quietHoursInTheSpringGapFollowTheWallClock() throws {
        let york = TimeZone(identifier: "America/New_York")!
        // 07:00 UTC is 03:00 EDT, the first moment after the gap.
        let gapEnd = Date(timeIntervalSince1970: 1_772_953_200)
        let sunday = [gapEnd.addingTimeInterval(1), gapEnd.addingTimeInterval(3600), gapEnd.addingTimeInterval(12 * 3600)]
        for span in ["02:00-03:00", "02:30-02:45"] {
            let quiet = try #require(QuietHours(span))
            for moment in sunday { #expect(!quiet.contains(moment, in: york), "\(span) at \(moment)") }
            // The night before, the same span holds as written.
            #expect(quiet.contains(gapEnd.addingTimeInterval(-86_400 + 40 * 60), in: york), "\(span) on Saturday")
        }
        let intoGap = try #require(QuietHours("01:30-02:30"))
        #expect(intoGap.contains(gapEnd.addingTimeInterval(-60), in: york))  // 01:59 EST
        #expect(intoGap.end(after: gapEnd.addingTimeInterval(-60), in: york) == gapEnd)
        for moment in sunday { #expect(!intoGap.contains(moment, in: york)) }
    }

    @Test func aDigestSaysEachGamesScoreWhereItGotAndItsScorers() throws {
        func goal(_ key: String, _ scorer: String, game: Int = 1, away: Int, home: Int, period: Int = 1) -> GameEvent {
            GameEvent(
                kind: .goal, key: key, gameId: game, away: "PIT", home: "MIN", team: "PIT", period: period,
                score: .init(away: away, home: home), players: [.init(role: "scorer", id: 1, name: scorer)])
        }
        var overturned = goal("3", "Rust", away: 2, home: 1)
        overturned.kind = .goalOverturned
        overturned.id = "1:goal_overturned:3"
        let final = GameEvent(kind: .final, key: nil, gameId: 1, away: "PIT", home: "MIN", period: 3, score: .init(away: 3, home: 1))
        let other = GameEvent(
            kind: .periodEnd, key: "2", gameId: 2, away: "BOS", home: "TOR", period: 2, score: .init(away: 0, home: 1))
        let moved = GameEvent(
            kind: .scheduleChange, key: "x", gameId: 3, away: "TOR", home: "MTL", score: .init(away: 0, home: 0),
            details: ["change": "moved"])
        let held = [
            goal("1", "Crosby", away: 1, home: 0), goal("2", "Crosby", away: 2, home: 0), goal("3", "Rust", away: 3, home: 0), other,
            overturned, goal("4", "Malkin", away: 3, home: 1, period: 3), final, moved,
        ]
        #expect(Digest.summary(held) == "PIT 3–1 MIN, final (Crosby ×2, Malkin); BOS 0–1 TOR, 2nd intermission; TOR @ MTL, moved")
        // Mid-period, a game is in its period; basketball's breaks are its own words.
        var penalty = other
        penalty.kind = .penalty
        #expect(Digest.place(penalty) == "2nd")
        var quarter = other
        quarter.league = .nba
        #expect(Digest.place(quarter) == "end of Q2")
        quarter.details["halftime"] = "true"
        #expect(Digest.place(quarter) == "halftime")
        // A goal credited anew counts for its new scorer.
        var recredited = goal("2", "Letang", away: 2, home: 0)
        recredited.kind = .scoringChange
        recredited.id = "1:scoring_change:2-1"
        #expect(Digest.summary(held + [recredited]).hasPrefix("PIT 2–0 MIN, final (Crosby, Letang, Malkin)"))
        let digest = try #require(Digest.event(held, sink: "hook", at: Self.at(27, 7, 0)))
        #expect(digest.kind == .digest && digest.details["alerts"] == "8")
        #expect(Digest.event([], sink: "hook", at: Date()) == nil)
        // Of three games: of none of them, not labelled as the last one's.
        #expect(digest.gameId == 0 && digest.away.isEmpty && digest.home.isEmpty && digest.league == nil)
        let renderer = Renderer(templates: try TemplateSet(overrides: nil), followed: ["PIT"])
        for preset in SinkConfig.Preset.allCases {
            let body = try renderer.webhookBody(digest, preset: preset)
            let text = String(decoding: body, as: UTF8.self)
            #expect(try JSONSerialization.jsonObject(with: Data(body)) is [String: Any], "\(preset): \(text)")
            #expect(!text.contains("TOR") || text.contains("TOR @ MTL, moved"), "\(preset): \(text)")
            #expect(
                !text.contains("gamecenter") && !text.contains("\"url\": \"\"") && !text.contains("\"click\": \"\""), "\(preset): \(text)")
        }
        // Of one game: that game's, with its link.
        let one = try #require(Digest.event(Array(held.prefix(3)), sink: "hook", at: Self.at(27, 7, 0)))
        #expect(one.gameId == 1 && one.away == "PIT" && one.home == "MIN" && one.score == .init(away: 3, home: 0))
        let discord = String(decoding: try renderer.webhookBody(one, preset: .discord), as: UTF8.self)
        #expect(discord.contains("\"url\": \"https://www.nhl.com/gamecenter/1\""), "\(discord)")
    }

    /// A night of 60 games (about 98 characters each) fits every receiver: the games that
    /// don't are counted, and a Discord embed made from it stays under its 4,096 characters.
    @Test func aLongDigestIsCappedAndSaysHowManyGamesItLeftOut() throws {
        let held = (1...60).flatMap { game in
            [
                GameEvent(
                    kind: .goal, key: "1", gameId: game, away: "PIT", home: "MIN", team: "PIT", period: 3,
                    score: .init(away: 1, home: 0), players: [.init(role: "scorer", id: 1, name: "Sidney Crosby-Longname")]),
                GameEvent(kind: .final, key: nil, gameId: game, away: "PIT", home: "MIN", period: 3, score: .init(away: 1, home: 0)),
            ]
        }
        let summary = Digest.summary(held)
        #expect(summary.utf8.count <= Digest.limit)
        let listed = summary.components(separatedBy: "PIT 1–0 MIN, final").count - 1
        #expect(listed > 10)
        #expect(summary.hasSuffix("; …and \(60 - listed) more games"), "\(summary.suffix(80))")
        // Short enough: as it was.
        #expect(Digest.summary(Array(held.prefix(6))).components(separatedBy: "; ").count == 3)
        let event = try #require(Digest.event(held, sink: "chat", at: Self.at(27, 7, 0)))
        let renderer = Renderer(templates: try TemplateSet(overrides: nil), followed: ["PIT"])
        let discord = try renderer.webhookBody(event, preset: .discord)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(discord)) as? [String: Any])
        let embed = try #require((json["embeds"] as? [[String: Any]])?.first)
        let description = try #require(embed["description"] as? String)
        #expect(description.utf16.count <= 4_096 && description.hasSuffix("more games"), "\(description.utf16.count)")
    }

    /// A night of 120 games (past 4,096 characters uncapped) held for a Discord webhook, through a receiver that enforces Discord's
    /// limits as Discord does (400 for an embed's description over 4,096 characters or its
    /// title over 256, which is not retried): the one digest is taken, and says what it left out.
    @Test func aCappedDigestIsTakenByAReceiverThatEnforcesDiscordsLimits() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let answered = Mutex<[Int]>([])
        let receiver = try LoopbackHTTPServer { request in
            let json = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
            let embeds = json?["embeds"] as? [[String: Any]] ?? []
            let fits =
                !embeds.isEmpty
                && embeds.allSatisfy { embed in
                    (embed["description"] as? String ?? "").utf16.count <= 4_096 && (embed["title"] as? String ?? "").utf16.count <= 256
                }
            let status = fits ? 204 : 400
            answered.withLock { $0.append(status) }
            return .response(status: status)
        }
        defer { receiver.stop() }
        let store = try Store(path: directory.appendingPathComponent("faceoff.sqlite").path)
        var options = SinkConfig.Webhook(url: receiver.baseURL + "/hook")
        options.preset = .discord
        let webhook = WebhookSink(
            name: "chat", options: options, renderer: Renderer.builtIn, http: CurlHTTPClient(), outbox: Outbox(store: store),
            schedule: WebhookHarness.fast)
        let holds = Holds(store: store)
        try await holds.mute(["chat"], until: nil, at: Date())
        let router = AlertRouter(
            routes: [SinkRoute(sink: webhook, filter: SinkFilter(teams: ["PIT"]), hold: SinkHold(held: .digest, zone: Self.toronto))],
            ledger: Ledger(store: store), clock: ContinuousClock())
        try await router.serving {
            for game in 1...120 {
                router.route(
                    GameEvent(
                        kind: .goal, key: "1", gameId: game, away: "PIT", home: "MIN", team: "PIT", period: 3,
                        score: .init(away: 1, home: 0), players: [.init(role: "scorer", id: 1, name: "Sidney Crosby-Longname")]))
                router.route(
                    GameEvent(kind: .final, key: nil, gameId: game, away: "PIT", home: "MIN", period: 3, score: .init(away: 1, home: 0)))
            }
            await router.settle()
            #expect(receiver.requests.isEmpty)
            #expect(try await holds.unmute(["chat"], at: Date()) == ["chat"])
            for _ in 0..<1000 where receiver.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            #expect(await webhook.settle(timeout: .seconds(30)))
        }
        #expect(answered.withLock { $0 } == [204])
        let body = try #require(receiver.requests.first?.body)
        let embed = try #require(
            ((try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["embeds"] as? [[String: Any]])?.first)
        #expect((embed["description"] as? String)?.hasSuffix("more games") == true, "\(embed)")
        #expect(embed["url"] == nil, "a digest of 120 games links none of them")
    }

    final class Log: Sendable {
        let events = Mutex<[(sink: String, event: GameEvent)]>([])
        let states = Mutex<[String]>([])
        func of(_ sink: String) -> [GameEvent] { events.withLock { $0.filter { $0.sink == sink }.map(\.event) } }
    }

    /// A sink with a state beside its alerts, as MQTT's: goals are its alerts.
    struct StatefulSink: StateKeepingSink {
        let name: String
        let log: Log
        func send(_ event: GameEvent) async -> Delivery {
            log.events.withLock { $0.append((name, event)) }
            return .delivered("")
        }
        func isAlert(_ event: GameEvent) -> Bool { event.kind == .goal || event.kind == .digest }
        func keepState(_ event: GameEvent, at date: Date) async { log.states.withLock { $0.append(event.id) } }
    }

    final class Moment: Sendable {
        let date: Mutex<Date>
        init(_ date: Date) { self.date = Mutex(date) }
    }

    struct Setup {
        let store: Store
        let log = Log()
        let now: Moment
        let router: AlertRouter<ContinuousClock>

        init(directory: URL, start: Date) throws {
            store = try Store(path: directory.appendingPathComponent("faceoff.sqlite").path)
            let quiet = QuietHours("23:00-07:00")
            let log = log
            let now = Moment(start)
            self.now = now
            func recording(_ name: String) -> RecordingSink {
                RecordingSink(name: name) { event in log.events.withLock { $0.append((name, event)) } }
            }
            router = AlertRouter(
                routes: [
                    SinkRoute(
                        sink: recording("hook"), filter: SinkFilter(teams: ["TOR"]),
                        hold: SinkHold(quietHours: quiet, held: .digest, zone: HoldTests.toronto)),
                    SinkRoute(
                        sink: recording("desktop"), filter: SinkFilter(teams: ["TOR"]),
                        hold: SinkHold(quietHours: quiet, held: .drop, zone: HoldTests.toronto)),
                    SinkRoute(
                        sink: StatefulSink(name: "ha", log: log), filter: SinkFilter(teams: ["TOR"]),
                        hold: SinkHold(held: .digest, zone: HoldTests.toronto)),
                ],
                ledger: Ledger(store: store), clock: ContinuousClock(), now: { now.date.withLock { $0 } })
        }

        func set(_ date: Date) { now.date.withLock { $0 = date } }

        /// Waits (real time, up to 10 s) until `condition` holds.
        func until(_ condition: () -> Bool) async throws {
            for _ in 0..<1000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        }
    }

    static func goal(_ key: String) -> GameEvent { SampleEvent.make(.goal, team: "TOR", key: key) }

    /// Quiet hours crossing midnight: before 23:00 alerts go out; from 23:00 they are held,
    /// claimed in the ledger for each sink (so nothing replays them) and kept for the digest
    /// where the sink wants one; at 07:00 one digest goes to that sink, none to the one that
    /// drops, and alerts flow again.
    @Test func quietHoursHoldAlertsAndOneDigestComesWhenTheyEnd() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try Setup(directory: directory, start: Self.at(26, 22, 59))
        let router = setup.router
        try await router.serving {
            router.route(Self.goal("1"))
            try await setup.until { setup.log.of("desktop").count == 1 && setup.log.of("hook").count == 1 }
            setup.set(Self.at(26, 23, 30))
            router.route(Self.goal("2"))
            router.route(SampleEvent.make(.periodEnd, team: "TOR"))
            await router.settle()
            // Past midnight, still quiet.
            setup.set(Self.at(27, 1, 0))
            router.route(Self.goal("3"))
            await router.settle()
            #expect(setup.log.of("hook").map(\.id) == [Self.goal("1").id])
            #expect(setup.log.of("desktop").map(\.id) == [Self.goal("1").id])
            #expect(try Holds(store: setup.store).heldCounts() == ["hook": 3])
            let ledger = Ledger(store: setup.store)
            for sink in ["hook", "desktop"] {
                #expect(try ledger.claimedIDs(gameID: 2025029999, sink: sink).count == 4, "\(sink)")
            }
            setup.set(Self.at(27, 7, 0))
            try await setup.until { setup.log.of("hook").count == 2 }
            router.route(Self.goal("4"))
            try await setup.until { setup.log.of("desktop").count == 2 }
        }
        let hook = setup.log.of("hook")
        #expect(hook.map(\.kind) == [.goal, .digest, .goal], "\(hook.map(\.id))")
        #expect(hook[1].details["alerts"] == "3")
        #expect(hook[1].details["summary"]?.hasPrefix("MTL 1–2 TOR, 2nd") == true, "\(hook[1].details)")
        #expect(setup.log.of("desktop").map(\.kind) == [.goal, .goal])
        #expect(try Holds(store: setup.store).heldCounts().isEmpty)
        // The same alerts routed again (a restart) are claimed already: nothing replays.
        setup.set(Self.at(27, 8, 0))
        try await router.serving { router.route(Self.goal("2")) }
        #expect(setup.log.of("hook").count == 3 && setup.log.of("desktop").count == 2)
    }

    /// A mute written to the store (as `faceoff mute` in another process does) silences the
    /// next alert at once; a sink with a state still moves it on; unmuted, the digest comes.
    @Test func aMuteInTheStoreHoldsTheNextAlertAndUnmutingSendsTheDigest() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try Setup(directory: directory, start: Self.at(26, 12, 0))
        let router = setup.router
        let holds = Holds(store: setup.store)
        try await router.serving {
            router.route(Self.goal("1"))
            try await setup.until { setup.log.of("ha").count == 1 }
            try await holds.mute(["ha", "hook"], until: nil, at: Self.at(26, 12, 1))
            #expect(try holds.mutes(at: Self.at(26, 12, 2)).map(\.sink) == ["ha", "hook"])
            router.route(Self.goal("2"))
            router.route(SampleEvent.make(.penalty, team: "TOR"))
            await router.settle()
            #expect(setup.log.of("ha").count == 1 && setup.log.of("hook").count == 1)
            #expect(setup.log.of("desktop").count == 3)
            // The state moved on for both; only the goal waits for the digest (the penalty is
            // not one of this sink's alerts).
            #expect(setup.log.states.withLock { $0 } == [Self.goal("2").id, SampleEvent.make(.penalty, team: "TOR").id])
            #expect(try holds.heldCounts() == ["ha": 1, "hook": 2])
            #expect(try await holds.unmute(["ha"], at: Self.at(26, 12, 3)) == ["ha"])
            try await setup.until { setup.log.of("ha").count == 2 }
        }
        #expect(setup.log.of("ha").last?.kind == .digest)
        #expect(setup.log.of("hook").count == 1, "still muted")
        // A mute with an end is over at its end.
        try await holds.mute(["desktop"], until: Self.at(26, 13, 0), at: Self.at(26, 12, 0))
        #expect(try holds.mutes(at: Self.at(26, 12, 59)).map(\.sink) == ["desktop", "hook"])
        #expect(try holds.mutes(at: Self.at(26, 13, 0)).map(\.sink) == ["hook"])
    }

    /// The disk fills while a sink is muted: the alerts it holds can't be recorded, so the
    /// router keeps them for the digest; unmuting works all the same (the store's reserve),
    /// and the digest sums up every one of them.
    @Test(.enabled(if: Tmpfs.available, "needs root to mount a tmpfs"))
    func onAFullDiskUnmutingWorksAndTheDigestMissesNothing() async throws {
        let disk = try Tmpfs(kilobytes: 1024)
        defer { disk.unmount() }
        let setup = try Setup(directory: URL(fileURLWithPath: disk.path), start: Self.at(26, 12, 0))
        let router = setup.router
        let holds = Holds(store: setup.store)
        try await router.serving {
            try await holds.mute(["hook"], until: nil, at: Self.at(26, 12, 1))
            disk.fill()
            for key in ["1", "2", "3"] { router.route(Self.goal(key)) }
            await router.settle()
            #expect(setup.log.of("hook").isEmpty)
            // The disk did refuse them: the router holds them, not the store.
            #expect(router.unrecorded.withLock { $0["hook"]?.count } == 3)
            #expect(try await holds.unmute(["hook"], at: Self.at(26, 12, 3)) == ["hook"])
            // ... and the unmute needed the reserve, which it gave back.
            #expect(!FileManager.default.fileExists(atPath: Store.reservePath(setup.store.path)))
            try await setup.until { setup.log.of("hook").count == 1 }
        }
        disk.makeRoom()
        let digest = try #require(setup.log.of("hook").first)
        #expect(digest.kind == .digest && digest.details["alerts"] == "3", "\(digest.details)")
    }

    /// The first alert after a hold ends comes after the digest, not before it: "while you
    /// were away" is what happened first, and the digest loop only looks every 2 s.
    @Test func theDigestComesBeforeTheFirstAlertAfterTheHold() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try Setup(directory: directory, start: Self.at(26, 23, 30))
        let router = setup.router
        try await router.serving {
            router.route(Self.goal("1"))
            await router.settle()
            #expect(try Holds(store: setup.store).heldCounts() == ["hook": 1])
            setup.set(Self.at(27, 7, 0))
            router.route(Self.goal("2"))
            try await setup.until { setup.log.of("hook").count == 2 }
        }
        #expect(setup.log.of("hook").map(\.kind) == [.digest, .goal], "\(setup.log.of("hook").map(\.id))")
        #expect(try Holds(store: setup.store).heldCounts().isEmpty)
    }

    /// A sink that can edit what it showed: a correction of a goal it showed goes through a
    /// mute (it sets the first message right); a new goal does not.
    struct EditingRecorder: EditingSink {
        let log: Log
        var name: String { "discord" }
        func send(_ event: GameEvent) async -> Delivery {
            log.events.withLock { $0.append((name, event)) }
            return .delivered("")
        }
        func edits(_ event: GameEvent) -> Bool { GameEvent.correctedGoal(of: event.id) != nil }
    }

    @Test func aCorrectionThatEditsAMessageGoesThroughAMute() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store(path: directory.appendingPathComponent("faceoff.sqlite").path)
        let log = Log()
        let router = AlertRouter(
            routes: [SinkRoute(sink: EditingRecorder(log: log), filter: SinkFilter(teams: ["TOR"]), hold: SinkHold(held: .digest))],
            ledger: Ledger(store: store), clock: ContinuousClock())
        try await Holds(store: store).mute(["discord"], until: nil, at: Date())
        try await router.serving {
            router.route(SampleEvent.make(.goalOverturned, team: "TOR"))
            router.route(Self.goal("new"))
        }
        #expect(log.of("discord").map(\.kind) == [.goalOverturned])
        #expect(try Holds(store: store).heldCounts() == ["discord": 1])
    }
}
