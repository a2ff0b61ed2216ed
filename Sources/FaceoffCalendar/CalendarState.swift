import FaceoffKit
import FaceoffStore
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
        public var event: CalendarEvent

        /// Whether saving `self` over `other` would change nothing. The content hash covers
        /// everything the event shows (its teams included, as categories), and SEQUENCE and
        /// LAST-MODIFIED are columns, so the events need not be compared (or re-encoded).
        func sameState(as other: Row) -> Bool {
            gameID == other.gameID && season == other.season && fingerprint == other.fingerprint
                && contentHash == other.contentHash && sequence == other.sequence && lastModified == other.lastModified
                && vanished == other.vanished
        }
    }

    package let store: Store

    public init(store: Store) { self.store = store }

    /// Reads the feed's rows, lets `update` decide the new ones, and saves them, atomically.
    /// Rows `update` leaves out are deleted.
    public func update(feed: String, _ update: @escaping @Sendable ([Int: Row]) throws -> [Row]) async throws -> [Row] {
        do {
            return try await store.writeTransaction { db in
                var existing: [Int: Row] = [:]
                // Every stored event is read, so that one that can't be (a damaged row, a format
                // from another version) is found now, while its game can still be rebuilt as new.
                let decoder = JSONDecoder()
                for row in try GRDB.Row.fetchAll(db, sql: "SELECT * FROM calendar_event WHERE feed = ?", arguments: [feed]) {
                    guard let event = try? decoder.decode(CalendarEvent.self, from: row["event"] as Data) else { continue }
                    let id: Int = row["game_id"]
                    existing[id] = Row(
                        gameID: id, season: row["season"], fingerprint: row["fingerprint"], contentHash: row["content_hash"],
                        sequence: row["sequence"], lastModified: Date(timeIntervalSince1970: row["last_modified"]),
                        vanished: row["vanished"], event: event)
                }
                let rows = try update(existing)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                let kept = Set(rows.map(\.gameID))
                for id in existing.keys where !kept.contains(id) {
                    try db.execute(sql: "DELETE FROM calendar_event WHERE feed = ? AND game_id = ?", arguments: [feed, id])
                }
                for row in rows where existing[row.gameID].map(row.sameState) != true {
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
                            row.lastModified.timeIntervalSince1970, row.vanished, try encoder.encode(row.event),
                        ])
                }
                return rows
            }
        } catch let error as DatabaseError {
            throw Store.explain(error, path: store.path)
        }
    }

    /// Deletes rows of seasons older than `season` (housekeeping).
    @discardableResult
    public func prune(before season: String) async throws(StoreError) -> Int {
        try await store.write { db in
            try db.execute(sql: "DELETE FROM calendar_event WHERE season < ?", arguments: [season])
            return db.changesCount
        }
    }
}
