import Foundation
import Synchronization
import Testing

@testable import FaceoffBase
@testable import FaceoffDaemon
@testable import FaceoffDelivery
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffStore

/// The delay in effect (`DelayBook`), changed while alerts are held, and when events were
/// first seen (`Sightings`).
@Suite(.timeLimit(.minutes(5))) struct DelayTests {
    final class Delivered: Sendable {
        let list = Mutex<[(id: String, at: Duration)]>([])
        func withLock<T>(_ body: (inout [(id: String, at: Duration)]) -> T) -> T { list.withLock { body(&$0) } }
    }

    struct Setup {
        let directory: URL
        let store: Store
        let clock = ManualClock()
        let start = Date(timeIntervalSince1970: 1_760_000_000)
        let delivered = Delivered()

        init() throws {
            directory = try TestPaths.temporaryDirectory()
            store = try Store(path: directory.appendingPathComponent("faceoff.sqlite").path)
        }

        var now: @Sendable () -> Date {
            { [start, clock] in start.addingTimeInterval(clock.now.offset.inSeconds) }
        }

        /// - Parameter poll: the clock of the router's look at the delays (default: the real one).
        func router(delay: Duration, poll: any Clock<Duration> = ContinuousClock()) -> AlertRouter<ManualClock> {
            let delivered = delivered
            let clock = clock
            let sink = RecordingSink(name: "tv") { event in delivered.withLock { $0.append((event.id, clock.now.offset)) } }
            return AlertRouter(
                routes: [SinkRoute(sink: sink, filter: SinkFilter(teams: ["TOR"]), delay: delay)], ledger: Ledger(store: store),
                clock: clock, now: now, poll: poll)
        }

        var ids: [String] { delivered.withLock { $0.map(\.id) } }
        var times: [Duration] { delivered.withLock { $0.map(\.at) } }

        func event(_ key: String) -> GameEvent { SampleEvent.make(.goal, team: "TOR", key: key) }

        func cleanUp() { try? FileManager.default.removeItem(at: directory) }
    }

    /// Alerts held in a 30 s delay: a shorter delay releases what is now due at once, in order;
    /// a longer one holds the rest; nothing is lost or repeated.
    @Test func changingTheDelayRetimesWhatIsHeld() async throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let router = setup.router(delay: .seconds(30))
        let book = router.delays
        try await router.serving {
            router.route(setup.event("a"))
            setup.clock.advance(by: .seconds(4))
            router.route(setup.event("b"))
            setup.clock.advance(by: .seconds(6))
            router.route(setup.event("c"))
            // t = 10 s: seen at 0, 4 and 10; all held.
            #expect(await eventually(within: .milliseconds(300)) { !setup.ids.isEmpty } == false)
            // 8 s: a (due 8) and b (due 12)... a goes at once; b and c wait.
            try await book.set(["tv": .seconds(8)], at: setup.now())
            #expect(await eventually { setup.ids == [setup.event("a").id] })
            setup.clock.advance(by: .seconds(1))
            #expect(await eventually(within: .milliseconds(200)) { setup.ids.count > 1 } == false)
            // Longer again: b (seen at 4) now due at 24, c at 30.
            try await book.set(["tv": .seconds(20)], at: setup.now())
            setup.clock.advance(by: .seconds(3))  // t = 14: b would have gone at 12 with 8 s
            #expect(await eventually(within: .milliseconds(300)) { setup.ids.count > 1 } == false)
            setup.clock.advance(by: .seconds(10))  // t = 24
            #expect(await eventually { setup.ids.count == 2 })
            // Shorter than both ages: c (seen at 10, now 24) goes at once.
            try await book.set(["tv": .zero], at: setup.now())
            #expect(await eventually { setup.ids.count == 3 })
        }
        #expect(setup.ids == ["a", "b", "c"].map { setup.event($0).id })
        #expect(setup.times == [.seconds(10), .seconds(24), .seconds(24)])
    }

    /// Another process (`faceoff delay 5s`) changes the delay in the store: the router holding
    /// an alert takes it at its next look, a second on, without being told. The look's clock
    /// is stepped here, so nothing depends on how busy the machine is.
    @Test func aChangeByAnotherProcessIsTakenWithinASecond() async throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let poll = ManualClock()
        let router = setup.router(delay: .seconds(60), poll: poll)
        try await router.serving {
            router.route(setup.event("a"))
            setup.clock.advance(by: .seconds(10))
            #expect(await eventually(within: .milliseconds(300)) { !setup.ids.isEmpty } == false)
            // The router has looked at the delays once since the alert came, and waits a second.
            try #require(await eventually(within: hangGuard) { poll.sleeping > 0 })
            // A book of its own on the same store, as the `delay` command has.
            let other = DelayBook(configured: [("tv", .seconds(60))], store: setup.store)
            try await other.set(["tv": .seconds(5)], at: setup.now())
            // Not before the router looks again...
            #expect(await eventually(within: .milliseconds(300)) { !setup.ids.isEmpty } == false)
            // ...and at that look, a second on.
            #expect(await eventually(within: .seconds(5)) { poll.sleeping > 0 })
            poll.advance(by: .seconds(1))
            #expect(await eventually(within: hangGuard) { setup.ids.count == 1 })
        }
        #expect(setup.times == [.seconds(10)])
    }

    @Test func aChangeHoldsUntilResetOrUntilTheConfigChangesTheDelay() async throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let configured: [(name: String, delay: Duration)] = [("stdout", .zero), ("discord", .seconds(30))]
        let book = DelayBook(configured: configured, store: setup.store)
        try await book.adjust(by: .seconds(5), at: setup.now())
        #expect(book.delay(for: "stdout") == .seconds(5))
        #expect(book.delay(for: "discord") == .seconds(35))
        try await book.adjust(by: .seconds(-10), sinks: ["stdout"], at: setup.now())
        #expect(book.delay(for: "stdout") == .zero, "never below zero")
        // Another process (a restart) reads the same.
        #expect(DelayBook(configured: configured, store: setup.store).delay(for: "discord") == .seconds(35))
        // The config's delay for discord changes: its change no longer applies, and is
        // forgotten, so changing the config back does not revive it.
        let reloaded = DelayBook(configured: [("stdout", .zero), ("discord", .seconds(45))], store: setup.store)
        #expect(reloaded.delay(for: "discord") == .seconds(45))
        await reloaded.forgetStale()
        #expect(DelayBook(configured: configured, store: setup.store).delay(for: "discord") == .seconds(30))
        try await book.reset()
        #expect(
            DelayBook(configured: configured, store: setup.store).entries.allSatisfy { $0.changedAt == nil && $0.current == $0.configured })
    }

    /// `sync`: the delay becomes the time since the latest goal seen in the last 3 minutes, and
    /// says which goal that was.
    @Test func syncMeasuresFromTheLatestGoalFirstSeen() async throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let book = DelayBook(configured: [("stdout", .zero), ("notify", .seconds(10))], store: setup.store)
        let now = setup.start
        #expect(try await book.sync(now: now) == .noRecentGoal)
        let sightings = Sightings(store: setup.store)
        var old = setup.event("old")
        old.seenAt = now.addingTimeInterval(-200)
        var recent = setup.event("recent")
        recent.seenAt = now.addingTimeInterval(-42.4)
        var penalty = SampleEvent.make(.penalty, team: "TOR", key: "later")
        penalty.seenAt = now.addingTimeInterval(-5)
        _ = try await sightings.record([old, recent, penalty], at: now)
        // Named as a fan names it, not by its id.
        #expect(try await book.sync(now: now) == .synced(.seconds(42), goal: "A. Matthews (TOR) at 12:34 of the 2nd, MTL 1–2 TOR"))
        // A goal of another game, seen later: which stream? Said, not guessed; named, used.
        var elsewhere = SampleEvent.make(.goal, team: "TOR", key: "elsewhere", gameId: 2025029998)
        elsewhere.seenAt = now.addingTimeInterval(-20)
        _ = try await sightings.record([elsewhere], at: now)
        #expect(try await book.sync(now: now) == .severalGames([2025029998, 2025029999]))
        #expect(
            try await book.sync(games: [2025029999], now: now)
                == .synced(.seconds(42), goal: "A. Matthews (TOR) at 12:34 of the 2nd, MTL 1–2 TOR"))
        #expect(book.delay(for: "stdout") == .seconds(42))
        #expect(book.delay(for: "notify") == .seconds(42))
        // Seen again later (another poll, another process): the first time stays.
        var again = recent
        again.seenAt = now
        let first = try await sightings.record([again], at: now)[recent.id]
        #expect(abs((first ?? now).timeIntervalSince(recent.seenAt!)) < 0.001)
        // The game ends: a sync after its final is declined, the delays left as they were.
        var final = SampleEvent.make(.final, team: "TOR")
        final.seenAt = now.addingTimeInterval(-30)
        _ = try await sightings.record([final], at: now)
        #expect(
            try await book.sync(games: [2025029999], now: now)
                == .gameOver(2025029999, goal: "A. Matthews (TOR) at 12:34 of the 2nd, MTL 1–2 TOR"))
        #expect(book.delay(for: "stdout") == .seconds(42))
    }

    /// The sinks `faceoff delay` lists are those `run` and `watch` deliver to.
    @Test func theListedSinksAreTheOnesRunAndWatchUse() throws {
        var config = Config()
        config.watch.delay = .seconds(20)
        #expect(DelayBook.sinks(of: config).map(\.name) == ["stdout", "notify", "log"])
        var webhook = SinkConfig(.webhook(.init(url: "https://discord.example/hook")), name: "discord")
        webhook.delay = .seconds(45)
        let terminal = SinkConfig(.stdout(.init()), name: "tv")
        config.sinks = [webhook, terminal]
        let listed = DelayBook.sinks(of: config)
        #expect(listed.map(\.name) == ["discord", "tv"])
        #expect(listed.map(\.delay) == [.seconds(45), .seconds(20)])
        #expect(DelayBook.scoreboardSink(of: config) == "tv")
    }
}

/// `faceoff delay`'s argument: set, move, sync or reset, and nothing else.
@Suite(.timeLimit(.minutes(1))) struct DelayChangeTests {
    @Test func eachFormReadsAsItsChange() {
        #expect(DelayChange("45s") == .set(.seconds(45)))
        #expect(DelayChange("1m30s") == .set(.seconds(90)))
        #expect(DelayChange("+5s") == .move(.seconds(5)))
        #expect(DelayChange("-10s") == .move(.seconds(-10)))
        #expect(DelayChange("sync") == .sync)
        #expect(DelayChange("reset") == .reset)
    }

    @Test func anythingElseIsNoChange() {
        for text in ["", "+", "-", "fast", "++5s", "+-5s", "SYNC", "5 parsecs"] {
            #expect(DelayChange(text) == nil, "\(text)")
        }
    }
}

/// watch's keys: escape sequences (arrows, function keys) are never read as `[` or `-`.
@Suite(.timeLimit(.minutes(5))) struct KeyParserTests {
    @Test func escapeSequencesAreDroppedWhole() {
        let parser = KeyParser()
        func keys(_ bytes: [UInt8]) -> String { String(bytes.compactMap(parser.key)) }
        #expect(keys(Array("+-[]sq".utf8)) == "+-[]sq")
        #expect(keys([0x1B, 0x5B, 0x41]) == "", "Up: ESC [ A")
        #expect(keys([0x1B, 0x5B, 0x31, 0x3B, 0x35, 0x44]) == "", "Ctrl-Left: ESC [ 1 ; 5 D")
        #expect(keys([0x1B, 0x4F, 0x50]) == "", "F1: ESC O P")
        #expect(keys([0x1B, 0x5B, 0x36, 0x7E]) + keys(Array("s".utf8)) == "s", "PgDn, then s")
        #expect(keys([0x1B, 0x73]) == "", "Alt-s")
        #expect(keys([0x0D, 0x09]) == "", "control characters")
    }
}
