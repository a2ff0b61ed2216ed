import Foundation
import GRDB
import Synchronization
import Testing

@testable import FaceoffAPI
@testable import FaceoffDaemon
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL
@testable import FaceoffStore

@Suite(.timeLimit(.minutes(5))) struct StoreTests {
    @Test func createsItsDirectoryAndMigrates() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("state/faceoff/faceoff.sqlite").path
        let store = try Store(path: path)
        #expect(FileManager.default.fileExists(atPath: path))
        let all = [
            "v1: response cache", "v2: calendar state", "v3: alert ledger", "v4: webhook outbox", "v5: live games", "v6: daemon state",
            "v7: ledger claims being sent",
            "v8: sightings and delay changes", "v9: retained MQTT messages", "v10: daemon notes", "v11: what a sighting was",
            "v12: mutes and held alerts", "v13: sent messages", "v14: live games' league",
        ]
        #expect(try store.appliedMigrations() == all)
        // Opening again is fine and migrates nothing twice.
        #expect(try Store(path: path).appliedMigrations() == all)
    }

    @Test func usesWAL() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store(path: directory.appendingPathComponent("f.sqlite").path)
        #expect(try store.journalMode() == "wal")
    }

    @Test func anUnusablePathIsAClearError() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A regular file where the store's directory should be.
        let blocker = directory.appendingPathComponent("state")
        try Data("x".utf8).write(to: blocker)
        let path = blocker.appendingPathComponent("faceoff.sqlite").path
        do {
            _ = try Store(path: path)
            Issue.record("opened a store under a regular file")
        } catch {
            #expect(error.path == path)
            #expect(error.description.contains(path))
            #expect(error.description.contains("writable"))
        }
    }

    /// Opens `count` stores on `path` at once, each on its own thread and connection (SQLite
    /// locks between connections of one process as between processes); the errors. The
    /// threads are Dispatch's: a store waiting on a lock must not hold one of the cooperative
    /// pool's few threads, which every other test shares.
    static func openTogether(_ path: String, count: Int) async -> [String] {
        await withCheckedContinuation { done in
            DispatchQueue.global().async {
                let errors = Mutex<[String]>([])
                DispatchQueue.concurrentPerform(iterations: count) { _ in
                    do { _ = try Store(path: path) } catch { errors.withLock { $0.append("\(error)") } }
                }
                done.resume(returning: errors.withLock { $0 })
            }
        }
    }

    @Test func tenWritersOpeningANewStoreTogetherAllSucceed() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for round in 0..<20 {
            let path = directory.appendingPathComponent("round\(round).sqlite").path
            #expect(await Self.openTogether(path, count: 10) == [], "round \(round)")
            #expect(try Store(path: path).appliedMigrations() == Store.migrations.map(\.0))
        }
    }

    @Test func writersUpgradingAnOlderStoreTogetherAllSucceed() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for round in 0..<10 {
            let path = directory.appendingPathComponent("round\(round).sqlite").path
            try Self.makeStore(path, upTo: Store.migrations.count - 1)
            #expect(await Self.openTogether(path, count: 10) == [], "round \(round)")
            #expect(try Store(path: path).appliedMigrations() == Store.migrations.map(\.0))
        }
    }

    /// A store as an earlier version left it: the first `count` migrations, recorded as GRDB's
    /// migrator recorded them.
    static func makeStore(_ path: String, upTo count: Int) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.inTransaction {
                try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                for (identifier, body) in Store.migrations.prefix(count) {
                    try body(db)
                    try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [identifier])
                }
                return .commit
            }
        }
    }

    @Test func aStoreFromANewerVersionIsRefusedPlainlyAndStillRead() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("f.sqlite").path
        let store = try Store(path: path)
        try await store.write { db in
            try db.execute(
                sql: """
                    INSERT INTO live_game (game_id, away, home, away_score, home_score, state, updated_at)
                    VALUES (7, 'TOR', 'MTL', 1, 0, 'live', 1000)
                    """)
            try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99: from the future')")
        }
        do {
            _ = try Store(path: path)
            Issue.record("a writer opened a store of a newer schema")
        } catch {
            #expect(error.description.contains("newer version of Faceoff"))
            #expect(error.description.contains("v99: from the future"))
            #expect(!error.description.contains("writable"))
        }
        let reader = try #require(try Store.reader(path: path))
        #expect(try LiveStatus(store: reader).games(since: .distantPast).map(\.gameID) == [7])
    }

    @Test func theReaderNeverCreatesNorWritesNorMigrates() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("f.sqlite").path
        #expect(try Store.reader(path: path) == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
        // An older store is read as it is, not upgraded.
        try Self.makeStore(path, upTo: 2)
        let reader = try #require(try Store.reader(path: path))
        #expect(try reader.appliedMigrations() == Array(Store.migrations.map(\.0).prefix(2)))
        await #expect(throws: StoreError.self) { try await LiveStatus(store: reader).prune(before: Date()) }
        #expect((try? LiveStatus(store: reader).games(since: .distantPast)) == nil)
        #expect(try reader.appliedMigrations().count == 2)
    }

    /// `status` reads a store an older version left without the mute tables: no mutes and
    /// nothing held, rather than an error; once migrated, what is there is read.
    @Test func aStoreFromBeforeMutesReadsAsNoneMuted() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("f.sqlite").path
        let beforeMutes = try #require(Store.migrations.firstIndex { $0.0 == "v12: mutes and held alerts" })
        try Self.makeStore(path, upTo: beforeMutes)
        let reader = try #require(try Store.reader(path: path))
        #expect(try reader.read { db in try Store.hasTable(db, "sink_mute") } == false)
        #expect(try Holds(store: reader).mutes(at: Date()).isEmpty)
        #expect(try Holds(store: reader).heldCounts().isEmpty)
        let store = try Store(path: path)
        #expect(try store.read { db in try Store.hasTable(db, "sink_mute") && Store.hasTable(db, "held_alert") })
        try await Holds(store: store).mute(["tv"], until: nil, at: Date())
        #expect(try Holds(store: try #require(try Store.reader(path: path))).mutes(at: Date()).map(\.sink) == ["tv"])
    }

    @Test func theReaderDoesNotWaitForAWriter() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("f.sqlite").path
        let store = try Store(path: path)
        let reader = try #require(try Store.reader(path: path))
        // A writer holding the write lock (as a migration does) for as long as the read takes.
        let seen = try await store.write { _ in try LiveStatus(store: reader).games(since: .distantPast).count }
        #expect(seen == 0)
    }

    /// Another connection holds the write lock (as another process's migration or
    /// transaction does) until released.
    static func holdWriteLock(_ path: String) async throws -> DispatchSemaphore {
        let holder = try DatabaseQueue(path: path)
        let locked = Mutex(false)
        let release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? holder.inDatabase { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                locked.withLock { $0 = true }
                _ = release.wait(timeout: .now() + 20)
                try db.execute(sql: "COMMIT")
            }
        }
        try #require(await eventually(within: hangGuard) { locked.withLock { $0 } })
        return release
    }

    /// Writers that wait for another connection's lock are suspended, not parked on threads of
    /// the cooperative pool: with four times as many of them as the pool has threads, other
    /// async work still runs (and releases the lock). A blocking write would hold every thread
    /// until SQLite's busy timeout failed the writes.
    @Test func writersWaitingForALockLeaveThePoolFree() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store(path: directory.appendingPathComponent("f.sqlite").path)
        let release = try await Self.holdWriteLock(store.path)
        let writers = 4 * ProcessInfo.processInfo.activeProcessorCount
        // When each child finished: the other work must be done before the lock is released.
        let finished = try await withThrowingTaskGroup(of: (String, ContinuousClock.Instant).self) { group in
            for n in 0..<writers {
                group.addTask {
                    try await Ledger(store: store).passOver(SampleEvent.make(.goal, team: "TOR", key: "\(n)"), sink: "stdout")
                    return ("write", .now)
                }
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(300))
                let done = ContinuousClock.now
                release.signal()
                return ("other work", done)
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let other = try #require(finished.first { $0.0 == "other work" }?.1)
        #expect(finished.filter { $0.0 == "write" }.allSatisfy { $0.1 > other })
        #expect(finished.count == writers + 1)
    }

    /// A write whose task is cancelled while it waits for the lock still happens: a delivery
    /// that ends as the daemon stops is recorded.
    @Test func aCancelledWriteStillCompletes() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store(path: directory.appendingPathComponent("f.sqlite").path)
        let release = try await Self.holdWriteLock(store.path)
        let goal = SampleEvent.make(.goal, team: "TOR")
        let writer = Task { try await Ledger(store: store).passOver(goal, sink: "stdout") }
        try await Task.sleep(for: .milliseconds(100))
        writer.cancel()
        release.signal()
        #expect(try await writer.value)
        #expect(try await !Ledger(store: store).passOver(goal, sink: "stdout"))
    }

    @Test func aCorruptFileIsAClearError() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("faceoff.sqlite").path
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.self) { try Store(path: path) }
    }
}

@Suite(.timeLimit(.minutes(5))) struct ResponseCacheTests {
    func makeCache() throws -> (ResponseCache, URL) {
        let directory = try TestPaths.temporaryDirectory()
        return (ResponseCache(store: try Store(path: directory.appendingPathComponent("f.sqlite").path)), directory)
    }

    @Test func storesAndReadsBack() async throws {
        let (cache, directory) = try makeCache()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fetched = Date(timeIntervalSince1970: 1_800_000_000)
        let entry = CachedResponse(
            url: "https://api-web.nhle.com/v1/standings/now", body: Array("{}".utf8),
            validators: Validators(etag: "\"e1\"", lastModified: nil), fetchedAt: fetched, freshness: .seconds(86400))
        try await cache.save(entry)
        #expect(try cache.entry(for: entry.url) == entry)
        #expect(try cache.entry(for: "https://other") == nil)

        var replaced = entry
        replaced.body = Array("{\"a\":1}".utf8)
        replaced.freshness = .forever
        try await cache.save(replaced)
        #expect(try cache.entry(for: entry.url) == replaced)
    }

    @Test func freshnessRules() {
        let fetched = Date(timeIntervalSince1970: 1_800_000_000)
        func entry(_ freshness: Freshness) -> CachedResponse {
            CachedResponse(url: "u", body: [], validators: Validators(), fetchedAt: fetched, freshness: freshness)
        }
        #expect(entry(.seconds(3600)).isFresh(at: fetched.addingTimeInterval(3599)))
        #expect(!entry(.seconds(3600)).isFresh(at: fetched.addingTimeInterval(3600)))
        #expect(entry(.forever).isFresh(at: fetched.addingTimeInterval(1e9)))
        #expect(!entry(.revalidate).isFresh(at: fetched))
    }

    @Test func revalidationAndPruning() async throws {
        let (cache, directory) = try makeCache()
        defer { try? FileManager.default.removeItem(at: directory) }
        let old = Date(timeIntervalSince1970: 1_700_000_000)
        try await cache.save(CachedResponse(url: "a", body: [1], validators: Validators(), fetchedAt: old, freshness: .revalidate))
        try await cache.save(CachedResponse(url: "b", body: [2], validators: Validators(), fetchedAt: old, freshness: .revalidate))
        let now = old.addingTimeInterval(400 * 86400)
        try await cache.revalidated("a", at: now, freshness: .seconds(60))
        #expect(try cache.entry(for: "a")?.fetchedAt == now)
        #expect(try cache.entry(for: "a")?.freshness == .seconds(60))
        #expect(try await cache.prune(fetchedBefore: now.addingTimeInterval(-365 * 86400)) == 1)
        #expect(try cache.entry(for: "b") == nil)
        #expect(try cache.entry(for: "a") != nil)
    }
}

@Suite(.timeLimit(.minutes(5))) struct LedgerTests {
    @Test func aClaimIsGrantedOncePerSink() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store(path: directory.appendingPathComponent("f.sqlite").path)
        let ledger = Ledger(store: store)
        // A second process on the same file, as `faceoff watch` beside `faceoff run`.
        let other = Ledger(store: try Store(path: directory.appendingPathComponent("f.sqlite").path))
        let goal = GameEvent(kind: .goal, key: "95", gameId: 2025020100, away: "BOS", home: "TOR", score: .init(away: 0, home: 1))
        #expect(try !ledger.hasEvents(gameID: 2025020100))
        #expect(try await ledger.claim(goal, sink: "stdout", at: Date(timeIntervalSince1970: 1_000)))
        #expect(try await !other.claim(goal, sink: "stdout"))
        #expect(try await other.claim(goal, sink: "discord"))
        #expect(try ledger.hasEvents(gameID: 2025020100))
        #expect(try ledger.claimedIDs(gameID: 2025020100, sink: "stdout") == ["2025020100:goal:95"])
        try await ledger.prune(before: Date(timeIntervalSince1970: 2_000))
        #expect(try ledger.claimedIDs(gameID: 2025020100, sink: "stdout").isEmpty)
        #expect(try ledger.claimedIDs(gameID: 2025020100, sink: "discord") == ["2025020100:goal:95"])
    }

    /// A process killed between claiming an alert and sending it: the next process takes the
    /// claim over and sends it, once; a claim held by a live process, or already sent, is not.
    @Test func aClaimLeftUnsentByADeadProcessIsTakenOver() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("f.sqlite").path
        let store = try Store(path: path)
        let goal = GameEvent(kind: .goal, key: "95", gameId: 2025020100, away: "BOS", home: "TOR", score: .init(away: 0, home: 1))
        let final = GameEvent(kind: .final, key: "", gameId: 2025020100, away: "BOS", home: "TOR", score: .init(away: 0, home: 1))
        let dead = Ledger(store: store, owner: "999999999:gone")
        let alive = Ledger(store: store, owner: "\(getppid()):parent")
        let next = Ledger(store: try Store(path: path))
        #expect(try await dead.claim(goal, sink: "stdout"))
        #expect(try await alive.claim(goal, sink: "notify"))
        #expect(try await dead.claim(final, sink: "stdout"))
        try await dead.sent(final, sink: "stdout")
        // The dead one's unsent goal is taken over once; the live one's and the sent final are not.
        #expect(try await next.claim(goal, sink: "stdout"))
        #expect(try await !next.claim(goal, sink: "stdout"))
        #expect(try await !Ledger(store: store, owner: "999999998:other").claim(goal, sink: "stdout"))
        #expect(try await !next.claim(goal, sink: "notify"))
        #expect(try await !next.claim(final, sink: "stdout"))
        // Passed over: claimed with nothing to send, never taken over.
        #expect(try await dead.passOver(goal, sink: "discord"))
        #expect(try await !next.claim(goal, sink: "discord"))
    }
}
