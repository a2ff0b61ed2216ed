import Foundation
import GRDB

/// What a feed last said about each game. Reading and writing a feed's rows happens in one
/// transaction, so two processes regenerating the same feed can't interleave.
public struct CalendarState: Sendable {
    public struct Row: Sendable, Equatable {
        public var gameID: Int
        public var season: String
        public var fingerprint: String
        public var contentHash: String
        public var sequence: Int
        public var lastModified: Date
        public var vanished: Bool
        private var stored: StoredEvent

        public init(
            gameID: Int, season: String, fingerprint: String, contentHash: String, sequence: Int, lastModified: Date,
            vanished: Bool, event: CalendarEvent
        ) {
            self.init(
                gameID: gameID, season: season, fingerprint: fingerprint, contentHash: contentHash, sequence: sequence,
                lastModified: lastModified, vanished: vanished, stored: StoredEvent(event))
        }

        init(
            gameID: Int, season: String, fingerprint: String, contentHash: String, sequence: Int, lastModified: Date,
            vanished: Bool, stored: StoredEvent
        ) {
            self.gameID = gameID
            self.season = season
            self.fingerprint = fingerprint
            self.contentHash = contentHash
            self.sequence = sequence
            self.lastModified = lastModified
            self.vanished = vanished
            self.stored = stored
        }

        /// The event as the feed last had it; nil when the stored copy can't be read (then the
        /// row counts only for its SEQUENCE and LAST-MODIFIED). Rows read from the store decode
        /// it on first use: most of a feed's rows are only compared, never read back.
        public var event: CalendarEvent? { stored.event }

        /// Whether saving `self` over `other` would change nothing. The content hash covers
        /// everything the event shows (its teams included, as categories), and SEQUENCE and
        /// LAST-MODIFIED are columns, so the events themselves need not be compared.
        func sameState(as other: Row) -> Bool {
            gameID == other.gameID && season == other.season && fingerprint == other.fingerprint
                && contentHash == other.contentHash && sequence == other.sequence && lastModified == other.lastModified
                && vanished == other.vanished
        }

        public static func == (lhs: Row, rhs: Row) -> Bool { lhs.sameState(as: rhs) && lhs.event == rhs.event }
    }

    /// An event in hand, or its stored JSON, decoded once when first asked for.
    final class StoredEvent: @unchecked Sendable {
        private let lock = NSLock()
        private var data: Data?
        private var decoded: CalendarEvent?

        init(_ event: CalendarEvent) { decoded = event }
        init(json: Data) { data = json }

        var event: CalendarEvent? {
            lock.withLock {
                if let decoded { return decoded }
                guard let data else { return nil }
                self.data = nil
                decoded = try? JSONDecoder().decode(CalendarEvent.self, from: data)
                return decoded
            }
        }
    }

    let store: Store

    public init(store: Store) { self.store = store }

    /// Reads the feed's rows, lets `update` decide the new ones, and saves them, atomically.
    /// Rows `update` leaves out are deleted.
    public func update(feed: String, _ update: @Sendable ([Int: Row]) throws -> [Row]) throws -> [Row] {
        do {
            return try store.pool.write { db in
                var existing: [Int: Row] = [:]
                for row in try GRDB.Row.fetchAll(db, sql: "SELECT * FROM calendar_event WHERE feed = ?", arguments: [feed]) {
                    let id: Int = row["game_id"]
                    existing[id] = Row(
                        gameID: id, season: row["season"], fingerprint: row["fingerprint"], contentHash: row["content_hash"],
                        sequence: row["sequence"], lastModified: Date(timeIntervalSince1970: row["last_modified"]),
                        vanished: row["vanished"], stored: StoredEvent(json: row["event"]))
                }
                let rows = try update(existing)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                let kept = Set(rows.map(\.gameID))
                for id in existing.keys where !kept.contains(id) {
                    try db.execute(sql: "DELETE FROM calendar_event WHERE feed = ? AND game_id = ?", arguments: [feed, id])
                }
                for row in rows where existing[row.gameID].map(row.sameState) != true {
                    guard let event = row.event else { continue }
                    try db.execute(
                        sql: """
                            INSERT INTO calendar_event (feed, game_id, season, fingerprint, content_hash, sequence, last_modified, vanished, event)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                            ON CONFLICT(feed, game_id) DO UPDATE SET season = excluded.season, fingerprint = excluded.fingerprint,
                                content_hash = excluded.content_hash, sequence = excluded.sequence,
                                last_modified = excluded.last_modified, vanished = excluded.vanished, event = excluded.event
                            """,
                        arguments: [
                            feed, row.gameID, row.season, row.fingerprint, row.contentHash, row.sequence,
                            row.lastModified.timeIntervalSince1970, row.vanished, try encoder.encode(event),
                        ])
                }
                return rows
            }
        } catch let error as DatabaseError {
            throw StoreError(path: store.path, reason: error.message ?? "SQLite error \(error.resultCode)")
        }
    }

    /// Deletes rows of seasons older than `season` (housekeeping).
    @discardableResult
    public func prune(before season: String) throws(StoreError) -> Int {
        try store.write { db in
            try db.execute(sql: "DELETE FROM calendar_event WHERE season < ?", arguments: [season])
            return db.changesCount
        }
    }
}
