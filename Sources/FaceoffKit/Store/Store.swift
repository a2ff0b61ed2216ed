import Foundation
import GRDB

/// Faceoff's SQLite database: the response cache, calendar state, the alert ledger, the
/// webhook outbox and the last snapshot of each live game. WAL mode, so `faceoff run`,
/// `faceoff watch` and `faceoff status` share it: writers take turns, readers never wait.
///
/// Two ways to open it:
/// - `Store(path:)`, for a process that writes: creates the file and brings its schema up to
///   date. Migrating is one `BEGIN IMMEDIATE` transaction that reads which migrations are
///   applied and applies the rest, so when several processes open a new store together
///   exactly one migrates and the others wait for SQLite's write lock, then find nothing to do.
/// - `Store.reader(path:)`, for `faceoff status`: read-only, never migrates, never creates
///   the file, never waits for a writer. A store that is missing, mid-migration or written by
///   a newer version is read as far as its tables go.
public final class Store: Sendable {
    public let path: String
    let pool: any DatabaseWriter
    /// False for a reader: writes fail (SQLite refuses them) instead of touching the file.
    public let writable: Bool

    public init(path: String) throws(StoreError) {
        self.path = path
        writable = true
        let directory = (path as NSString).deletingLastPathComponent
        do { try FileError.makeDirectories(directory) } catch {
            throw StoreError(path: path, reason: error.description)
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.label = "faceoff"
        do {
            pool = try Self.openAndMigrate(path: path, configuration: configuration)
        } catch let newer as StoreError.Newer {
            throw StoreError(path: path, reason: newer.description, advice: nil)
        } catch {
            throw Self.explain(error, path: path)
        }
    }

    /// Opens the pool and migrates it. While a new file is still in rollback-journal mode
    /// (before the first opener has switched it to WAL), SQLite answers "database is locked"
    /// at once, without waiting, where waiting could deadlock; that passes within
    /// milliseconds, so the whole open is tried again, for up to 10 s.
    private static func openAndMigrate(path: String, configuration: Configuration) throws -> DatabasePool {
        let deadline = Date().addingTimeInterval(10)
        var pause: UInt32 = 10_000
        while true {
            do {
                let pool = try DatabasePool(path: path, configuration: configuration)
                try migrate(pool)
                return pool
            } catch let error as DatabaseError where (error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED) && Date() < deadline {
                usleep(pause)
                pause = min(pause * 2, 200_000)
            }
        }
    }

    private init(reading path: String, queue: DatabaseQueue) {
        self.path = path
        pool = queue
        writable = false
    }

    /// The store opened read-only, or nil when there is none yet. Never blocks on a writer
    /// (WAL readers don't) and gives up at once on the rare lock a reader can meet (another
    /// process recovering the WAL), so a status line is never late.
    public static func reader(path: String) throws(StoreError) -> Store? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(0.2)
        configuration.label = "faceoff-reader"
        do {
            return Store(reading: path, queue: try DatabaseQueue(path: path, configuration: configuration))
        } catch {
            // On a read-only file system SQLite can't create the -shm file a WAL store is read
            // through. Nothing can write the file there either, so it is read as immutable.
            // Not with a WAL file left beside it: immutable reads would skip what it holds.
            if isReadOnlyFileSystem(path), (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0 == 0,
                let store = try? Store(reading: path, queue: DatabaseQueue(path: immutableURI(path), configuration: configuration)) {
                return store
            }
            throw Self.explain(error, path: path)
        }
    }

    /// `path` as an SQLite URI that opens it without locks or a -shm file.
    static func immutableURI(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        return "file:\(path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path)?immutable=1"
    }

    /// Whether the folder holding `path` is on a file system mounted read-only.
    static func isReadOnlyFileSystem(_ path: String) -> Bool {
        fileSystem(of: path).map { $0.f_flag & UInt(ST_RDONLY) != 0 } ?? false
    }

    /// The file system holding `path`, as statvfs describes it.
    private static func fileSystem(of path: String) -> statvfs? {
        var info = statvfs()
        return statvfs((path as NSString).deletingLastPathComponent, &info) == 0 ? info : nil
    }

    /// Applies the migrations this store lacks, atomically across processes. The fast path
    /// (everything applied) is a read and takes no lock.
    static func migrate(_ writer: some DatabaseWriter) throws {
        let known = Set(migrations.map(\.0))
        let applied = try writer.read { db in try Self.appliedIdentifiers(db) }
        if !applied.isSubset(of: known) { throw newerSchema(applied.subtracting(known)) }
        if known.isSubset(of: applied) { return }
        try writer.writeWithoutTransaction { db in
            // IMMEDIATE takes the write lock before the check, so no other process can apply a
            // migration between this one reading the list and applying what it lacks.
            try db.inTransaction(.immediate) {
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                let applied = try Self.appliedIdentifiers(db)
                if !applied.isSubset(of: known) { throw newerSchema(applied.subtracting(known)) }
                for (identifier, body) in migrations where !applied.contains(identifier) {
                    try body(db)
                    try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [identifier])
                }
                return .commit
            }
        }
    }

    /// The identifiers recorded in the store (GRDB's table, so stores migrated by
    /// `DatabaseMigrator` before read the same); none for a new file.
    static func appliedIdentifiers(_ db: Database) throws -> Set<String> {
        guard try db.tableExists("grdb_migrations") else { return [] }
        return Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
    }

    private static func newerSchema(_ unknown: Set<String>) -> StoreError.Newer {
        StoreError.Newer(migrations: unknown.sorted())
    }

    /// The schema's history, oldest first. Append; never edit or reorder a step that shipped.
    static let migrations: [(String, @Sendable (Database) throws -> Void)] = [
        ("v1: response cache", { db in
            try db.create(table: "response_cache") { table in
                table.primaryKey("url", .text)
                table.column("body", .blob).notNull()
                table.column("etag", .text)
                table.column("last_modified", .text)
                table.column("fetched_at", .double).notNull()
                // Seconds the body stays fresh after fetched_at; NULL means forever.
                table.column("max_age", .double)
            }
        }),
        ("v2: calendar state", { db in
            // One row per game per feed: what was last written, so SEQUENCE and LAST-MODIFIED
            // rise only on real changes and a game that leaves the schedule stays, cancelled.
            try db.create(table: "calendar_event") { table in
                table.column("feed", .text).notNull()
                table.column("game_id", .integer).notNull()
                table.column("season", .text).notNull()
                table.column("fingerprint", .text).notNull()
                table.column("content_hash", .text).notNull()
                table.column("sequence", .integer).notNull()
                table.column("last_modified", .double).notNull()
                table.column("vanished", .boolean).notNull().defaults(to: false)
                table.column("event", .blob).notNull()
                table.primaryKey(["feed", "game_id"])
            }
        }),
        ("v3: alert ledger", { db in
            // Which event went to which sink: claiming a row is what makes an alert go out once,
            // across restarts and across processes sharing the store.
            try db.create(table: "ledger") { table in
                table.column("event_id", .text).notNull()
                table.column("sink", .text).notNull()
                table.column("game_id", .integer).notNull()
                table.column("kind", .text).notNull()
                table.column("claimed_at", .double).notNull()
                table.primaryKey(["event_id", "sink"])
            }
            try db.create(index: "ledger_game", on: "ledger", columns: ["game_id"])
        }),
        ("v4: webhook outbox", { db in
            // Webhook deliveries, written in the same transaction as their ledger claim and
            // deleted once the receiver took them: what is here after a crash is still owed.
            try db.create(table: "outbox") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("sink", .text).notNull()
                table.column("event_id", .text).notNull()
                table.column("game_id", .integer).notNull()
                table.column("kind", .text).notNull()
                table.column("body", .blob).notNull()
                table.column("created_at", .double).notNull()
                table.column("expires_at", .double).notNull()
                table.column("attempts", .integer).notNull().defaults(to: 0)
                table.column("next_attempt_at", .double).notNull()
                table.column("last_error", .text)
                // The process delivering it now ("pid:start"), until when.
                table.column("lease_owner", .text)
                table.column("lease_until", .double)
                table.uniqueKey(["sink", "event_id"])
            }
            // A receiver that answered 410 Gone, remembered for that sink and URL.
            try db.create(table: "sink_disabled") { table in
                table.column("sink", .text).notNull()
                table.column("url_hash", .text).notNull()
                table.column("reason", .text).notNull()
                table.column("disabled_at", .double).notNull()
                table.primaryKey(["sink", "url_hash"])
            }
        }),
        ("v5: live games", { db in
            // The last snapshot of each watched game, for `faceoff status` (no network).
            try db.create(table: "live_game") { table in
                table.primaryKey("game_id", .integer)
                table.column("away", .text).notNull()
                table.column("home", .text).notNull()
                table.column("away_score", .integer).notNull()
                table.column("home_score", .integer).notNull()
                table.column("period_label", .text)
                table.column("clock", .text)
                table.column("intermission", .boolean).notNull().defaults(to: false)
                // The team on the power play, or with its net empty ("TOR PP", "MTL EN").
                table.column("situation", .text)
                table.column("state", .text).notNull()
                table.column("updated_at", .double).notNull()
            }
        }),
        ("v6: daemon state", { db in
            // Facts `faceoff run` keeps for `faceoff status`: when the API stopped answering.
            try db.create(table: "daemon_state") { table in
                table.primaryKey("key", .text)
                table.column("value", .double).notNull()
            }
        }),
        ("v7: ledger claims being sent", { db in
            // The process sending a claimed stdout or notify alert, until it has gone out: a
            // claim left by a process killed in between is taken over by the next one, so the
            // alert is not lost. NULL once sent, and for every claim made before this column.
            try db.alter(table: "ledger") { table in table.add(column: "sending", .text) }
        }),
        ("v8: sightings and delay changes", { db in
            // When an event was first seen in a feed (wall clock, by any process): the time a
            // sink's delay counts from, and what `faceoff delay sync` measures.
            try db.create(table: "event_seen") { table in
                table.primaryKey("event_id", .text)
                table.column("game_id", .integer).notNull()
                table.column("kind", .text).notNull()
                table.column("seen_at", .double).notNull()
            }
            try db.create(index: "event_seen_by_kind", on: "event_seen", columns: ["kind", "seen_at"])
            // A sink's delay as changed while watching (`faceoff delay`, watch's keys), and
            // the configured delay it replaced: it holds while the config still says that.
            try db.create(table: "delay_change") { table in
                table.primaryKey("sink", .text)
                table.column("delay_ms", .integer).notNull()
                table.column("configured_ms", .integer).notNull()
                table.column("set_at", .double).notNull()
            }
        }),
        ("v9: retained MQTT messages", { db in
            // What an MQTT sink last published retained on each topic (team states, next
            // games, discovery): published again after a reconnect, the state an event moves
            // on from, and the discovery entries to clear when a team is unfollowed.
            try db.create(table: "mqtt_retained") { table in
                table.column("sink", .text).notNull()
                table.column("topic", .text).notNull()
                table.column("payload", .text).notNull()
                table.column("published_at", .double).notNull()
                table.primaryKey(["sink", "topic"])
            }
        }),
        ("v10: daemon notes", { db in
            // What `faceoff run` says of its own connections for other processes (`doctor`):
            // an MQTT sink's connection, in words, and since when.
            try db.create(table: "daemon_note") { table in
                table.primaryKey("key", .text)
                table.column("text", .text).notNull()
                table.column("since", .double).notNull()
            }
        }),
        ("v11: what a sighting was", { db in
            // A goal's scorer, moment and score in words, so `delay sync` can name the goal it
            // synced to.
            try db.alter(table: "event_seen") { table in table.add(column: "label", .text) }
        }),
    ]

    /// The migrations this store has applied, oldest first (those this version knows).
    public func appliedMigrations() throws -> [String] {
        let applied = try pool.read { db in try Self.appliedIdentifiers(db) }
        return Self.migrations.map(\.0).filter(applied.contains)
    }

    func journalMode() throws(StoreError) -> String? {
        try read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
    }

    /// Runs `body` in one write transaction. It runs on GRDB's writer queue while the calling
    /// task is suspended, so a wait for another process's write lock (up to 5 s) holds no
    /// thread of Swift's cooperative pool. A write once asked for completes even if the task
    /// is cancelled: what a shutdown was delivering is still recorded as delivered.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do { return try await writeTransaction(body) } catch { throw Self.explain(error, path: path) }
    }

    /// `write` without the error translation, for a body that throws errors of its own.
    func writeTransaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            pool.asyncWrite(body) { _, result in continuation.resume(with: result) }
        }
    }

    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws(StoreError) -> T {
        do { return try pool.read(body) } catch { throw Self.explain(error, path: path) }
    }

    /// An error in plain words. SQLite says "disk I/O error" when it can't grow the WAL or
    /// its shared-memory file on a full disk, and "attempt to write a readonly database" on a
    /// read-only mount, so the file system is asked which it is.
    ///
    /// SQLite also answers "full" or "I/O error" for some damage to the file, so with space
    /// left on the disk the file itself is checked (`quick_check`) before either is said.
    static func explain(_ error: any Error, path: String) -> StoreError {
        guard let database = error as? DatabaseError else { return StoreError(path: path, reason: describe(error)) }
        let code = database.resultCode.primaryResultCode
        if code == .SQLITE_CORRUPT || code == .SQLITE_NOTADB { return damaged(path, database.message) }
        if [.SQLITE_FULL, .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_CANTOPEN].contains(code), let info = fileSystem(of: path) {
            if info.f_flag & UInt(ST_RDONLY) != 0 {
                return StoreError(path: path, reason: "its file system is read-only", advice: "Remount it read-write, or point XDG_STATE_HOME elsewhere.")
            }
            if info.f_bavail == 0 {
                return StoreError(path: path, reason: "the disk is full", advice: "Free some space; nothing already stored is lost.")
            }
            if code == .SQLITE_FULL || code == .SQLITE_IOERR, let problem = quickCheck(path) { return damaged(path, problem) }
            if code == .SQLITE_FULL {
                return StoreError(path: path, reason: "the disk is full (or your quota is)", advice: "Free some space; nothing already stored is lost.")
            }
        }
        return StoreError(path: path, reason: describe(error))
    }

    /// The store's file is damaged: what SQLite said, and what to do.
    static func damaged(_ path: String, _ said: String?) -> StoreError {
        StoreError(
            path: path, reason: "the file is damaged (SQLite: \(said ?? "malformed"))",
            advice: """
                Stop `faceoff run` (systemctl --user stop faceoff), move the file aside (mv \(path) \(path).damaged) and start \
                again: a new store is made. That loses the response cache (fetched again), the calendars' state (SEQUENCE \
                numbers start over), the alert ledger (alerts of a game in progress may come twice) and alerts still owed \
                to webhooks and MQTT.
                """)
    }

    /// What SQLite's `quick_check` finds wrong with the file at `path` (read-only, on a
    /// connection of its own), or nil when it finds nothing or cannot tell.
    static func quickCheck(_ path: String) -> String? {
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            let answer = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(3)") }
            return answer == ["ok"] ? nil : answer.joined(separator: "; ")
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode.primaryResultCode) {
            return error.message ?? "malformed"
        } catch {
            return nil
        }
    }

    /// Reads the schema, so a file that opens but isn't a readable store says so now.
    public func checkReadable() throws(StoreError) {
        _ = try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
    }

    /// The newest time any of the pruned tables recorded (a fetch, a claim, a sighting, a
    /// snapshot), nil when they are empty: what housekeeping counts back from.
    public func newestRecordedTime() -> Date? {
        let newest = try? read { db in
            try Double.fetchOne(
                db,
                sql: """
                    SELECT max(t) FROM (SELECT max(fetched_at) AS t FROM response_cache UNION ALL SELECT max(claimed_at) FROM ledger
                    UNION ALL SELECT max(updated_at) FROM live_game UNION ALL SELECT max(seen_at) FROM event_seen)
                    """)
        }
        return (newest ?? nil).map(Date.init(timeIntervalSince1970:))
    }

    /// What is wrong with the store's file, or nil when `quick_check` finds nothing (doctor).
    public func damage() -> StoreError? {
        Self.quickCheck(path).map { Self.damaged(path, $0) }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "SQLite error \(error.resultCode)"
        }
        if let error = error as? CocoaError, let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.localizedDescription
        }
        return error.localizedDescription
    }
}

public struct StoreError: ReportedError, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String
    /// What to do about it, when the reason doesn't say.
    public let advice: String?

    public init(path: String, reason: String, advice: String? = "Check that the directory exists and is writable, or point XDG_STATE_HOME elsewhere.") {
        self.path = path
        self.reason = reason
        self.advice = advice
    }

    /// The store has migrations this version doesn't know: a newer Faceoff wrote it.
    struct Newer: Error, CustomStringConvertible {
        let migrations: [String]
        var description: String {
            "a newer version of Faceoff has upgraded it (\(migrations.joined(separator: ", "))); run that version, or move the store aside to start a new one with this one"
        }
    }

    public var description: String {
        "cannot use the store at \(path): \(reason).\(advice.map { " " + $0 } ?? "")"
    }
}
