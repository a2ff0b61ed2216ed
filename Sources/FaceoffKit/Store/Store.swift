import Foundation
import GRDB

/// Faceoff's SQLite database: the response cache now; later the ledger, the outbox and
/// calendar state. WAL mode, so a `faceoff run` and a `faceoff watch` can share it.
public final class Store: Sendable {
    public let path: String
    let pool: DatabasePool

    public init(path: String) throws(StoreError) {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError(path: path, reason: "cannot create its directory \(directory): \(Self.describe(error))")
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.label = "faceoff"
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(pool)
        } catch {
            throw StoreError(path: path, reason: Self.describe(error))
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: response cache") { db in
            try db.create(table: "response_cache") { table in
                table.primaryKey("url", .text)
                table.column("body", .blob).notNull()
                table.column("etag", .text)
                table.column("last_modified", .text)
                table.column("fetched_at", .double).notNull()
                // Seconds the body stays fresh after fetched_at; NULL means forever.
                table.column("max_age", .double)
            }
        }
        migrator.registerMigration("v2: calendar state") { db in
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
        }
        migrator.registerMigration("v3: alert ledger") { db in
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
        }
        migrator.registerMigration("v4: webhook outbox") { db in
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
        }
        migrator.registerMigration("v5: live games") { db in
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
        }
        return migrator
    }

    /// The migrations this store has applied, oldest first.
    public func appliedMigrations() throws -> [String] {
        try pool.read { db in try Self.migrator.appliedMigrations(db) }
    }

    func journalMode() throws(StoreError) -> String? {
        try read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
    }

    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws(StoreError) -> T {
        do { return try pool.write(body) } catch { throw StoreError(path: path, reason: Self.describe(error)) }
    }

    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws(StoreError) -> T {
        do { return try pool.read(body) } catch { throw StoreError(path: path, reason: Self.describe(error)) }
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

public struct StoreError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String {
        "cannot use the store at \(path): \(reason). Check that the directory exists and is writable, or point XDG_STATE_HOME elsewhere."
    }
}
