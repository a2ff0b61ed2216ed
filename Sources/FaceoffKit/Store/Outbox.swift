import FaceoffBase
import FaceoffStore
import Foundation
import GRDB

/// Webhook deliveries still owed, in SQLite. An event is written here (with its ledger claim,
/// in one transaction) before the first attempt, so a crash, a kill or a reboot loses nothing.
/// Each sink's rows go out in order: the head row blocks the ones behind it.
public struct Outbox: Sendable {
    public struct Item: Sendable, Equatable {
        public let id: Int64
        public let sink: String
        public let eventID: String
        public let gameID: Int
        public let kind: String
        public let body: [UInt8]
        public let createdAt: Date
        public let expiresAt: Date
        public let attempts: Int
        public let nextAttemptAt: Date
        public let lastError: String?
    }

    package let store: Store
    /// This process, as lease owner: pid and a start token (a pid can be reused).
    package let owner: String

    public init(store: Store, owner: String = ProcessOwner.current) {
        self.store = store
        self.owner = owner
    }

    /// Claims (event, sink) in the ledger and queues the body, atomically. False when the pair
    /// was claimed already (by this process before a restart, or by another one).
    /// With `claimed`, the caller has claimed it in the ledger already (an alert held back
    /// whose state still goes out).
    public func enqueue(
        _ event: GameEvent, sink: String, body: [UInt8], at date: Date, expiresAt: Date, claimed: Bool = false
    ) async throws(StoreError) -> Bool {
        try await store.write { db in
            if !claimed {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO ledger (event_id, sink, game_id, kind, claimed_at) VALUES (?, ?, ?, ?, ?)",
                    arguments: [event.id, sink, event.gameId, event.kind.rawValue, date.timeIntervalSince1970])
                guard db.changesCount == 1 else { return false }
            }
            try db.execute(
                sql: """
                    INSERT INTO outbox (sink, event_id, game_id, kind, body, created_at, expires_at, next_attempt_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    sink, event.id, event.gameId, event.kind.rawValue, Data(body), date.timeIntervalSince1970,
                    expiresAt.timeIntervalSince1970, date.timeIntervalSince1970,
                ])
            return true
        }
    }

    /// The oldest row owed to `sink`.
    public func head(sink: String) throws(StoreError) -> Item? {
        try store.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM outbox WHERE sink = ? ORDER BY id LIMIT 1", arguments: [sink]).map(Self.item)
        }
    }

    public func pending(sink: String? = nil) throws(StoreError) -> [Item] {
        try store.read { db in
            if let sink {
                return try Row.fetchAll(db, sql: "SELECT * FROM outbox WHERE sink = ? ORDER BY id", arguments: [sink]).map(Self.item)
            }
            return try Row.fetchAll(db, sql: "SELECT * FROM outbox ORDER BY id").map(Self.item)
        }
    }

    /// Takes the row for delivery until `until`, unless a live process holds it. A lease whose
    /// owner has died (a killed `faceoff run`) is taken over at once.
    public func lease(_ item: Item, until: Date, now: Date) async throws(StoreError) -> Bool {
        let owner = owner
        return try await store.write { db in
            guard let current = try Row.fetchOne(db, sql: "SELECT lease_owner, lease_until FROM outbox WHERE id = ?", arguments: [item.id])
            else {
                return false
            }
            let holder: String? = current["lease_owner"]
            let heldUntil: Double? = current["lease_until"]
            if let holder, holder != owner, let heldUntil, heldUntil > now.timeIntervalSince1970, ProcessOwner.isAlive(holder) {
                return false
            }
            try db.execute(
                sql: "UPDATE outbox SET lease_owner = ?, lease_until = ? WHERE id = ?",
                arguments: [owner, until.timeIntervalSince1970, item.id])
            return true
        }
    }

    /// The receiver took it.
    public func delivered(_ item: Item) async throws(StoreError) {
        try await store.write { db in try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [item.id]) }
    }

    /// Hands the row back unattempted (this process is stopping).
    public func release(_ item: Item) async throws(StoreError) {
        let owner = owner
        try await store.write { db in
            try db.execute(
                sql: "UPDATE outbox SET lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?",
                arguments: [item.id, owner])
        }
    }

    /// Given up on: expired, refused for good, or its sink disabled.
    public func drop(_ item: Item) async throws(StoreError) {
        try await delivered(item)
    }

    /// Another attempt later; the lease is released so any process may make it.
    public func retry(_ item: Item, at date: Date, error: String) async throws(StoreError) {
        try await store.write { db in
            try db.execute(
                sql:
                    "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?, lease_owner = NULL, lease_until = NULL WHERE id = ?",
                arguments: [date.timeIntervalSince1970, error, item.id])
        }
    }

    public func dropAll(sink: String) async throws(StoreError) -> Int {
        try await store.write { db in
            try db.execute(sql: "DELETE FROM outbox WHERE sink = ?", arguments: [sink])
            return db.changesCount
        }
    }

    // MARK: Disabled sinks (410 Gone)

    public func disable(sink: String, url: String, reason: String, at date: Date) async throws(StoreError) {
        try await store.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO sink_disabled (sink, url_hash, reason, disabled_at) VALUES (?, ?, ?, ?)",
                arguments: [sink, StableHash.hex(url), reason, date.timeIntervalSince1970])
        }
    }

    /// Why the sink is disabled for this URL, if it is. A new URL in the config enables it again.
    public func disabledReason(sink: String, url: String) throws(StoreError) -> String? {
        try store.read { db in
            try String.fetchOne(
                db, sql: "SELECT reason FROM sink_disabled WHERE sink = ? AND url_hash = ?", arguments: [sink, StableHash.hex(url)])
        }
    }

    private static func item(_ row: Row) -> Item {
        Item(
            id: row["id"], sink: row["sink"], eventID: row["event_id"], gameID: row["game_id"], kind: row["kind"],
            body: [UInt8]((row["body"] as Data?) ?? Data()), createdAt: Date(timeIntervalSince1970: row["created_at"]),
            expiresAt: Date(timeIntervalSince1970: row["expires_at"]), attempts: row["attempts"],
            nextAttemptAt: Date(timeIntervalSince1970: row["next_attempt_at"]), lastError: row["last_error"])
    }
}
