import FaceoffNHL
import FaceoffStore
import Foundation
import GRDB

/// When each event was first seen in a feed, by any process on the store. The API gives no
/// wall-clock time per play, so this is the moment a sink's delay counts from (also after a
/// restart), and what `faceoff delay sync` measures against the stream.
public struct Sightings: Sendable {
    package let store: Store

    public init(store: Store) { self.store = store }

    /// Records the events seen at `date` (each its own `seenAt` when it has one); an event
    /// seen before keeps its first time. Returns when each was first seen.
    public func record(_ events: [GameEvent], at date: Date) async throws(StoreError) -> [String: Date] {
        guard !events.isEmpty else { return [:] }
        let rows = events.map { ($0.id, $0.gameId, $0.kind.rawValue, ($0.seenAt ?? date).timeIntervalSince1970, Self.label($0)) }
        return try await store.write { db in
            var first: [String: Date] = [:]
            for (id, game, kind, seen, label) in rows {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO event_seen (event_id, game_id, kind, seen_at, label) VALUES (?, ?, ?, ?, ?)",
                    arguments: [id, game, kind, seen, label])
                if let at = try Double.fetchOne(db, sql: "SELECT seen_at FROM event_seen WHERE event_id = ?", arguments: [id]) {
                    first[id] = Date(timeIntervalSince1970: at)
                }
            }
            return first
        }
    }

    /// The events of `kind` first seen at or after `date`, newest first.
    public func recent(_ kind: GameEvent.Kind, since date: Date) throws(StoreError) -> [(
        id: String, game: Int, seenAt: Date, label: String?
    )] {
        try store.read { db in
            try Row.fetchAll(
                db, sql: "SELECT event_id, game_id, seen_at, label FROM event_seen WHERE kind = ? AND seen_at >= ? ORDER BY seen_at DESC",
                arguments: [kind.rawValue, date.timeIntervalSince1970]
            ).map { (id: $0["event_id"], game: $0["game_id"], seenAt: Date(timeIntervalSince1970: $0["seen_at"]), label: $0["label"]) }
        }
    }

    /// The game's `pregame` reminders seen, for `PregameReminder.sent`.
    public func reminders(gameID: Int) throws(StoreError) -> [(id: String, seenAt: Date)] {
        try store.read { db in
            try Row.fetchAll(
                db, sql: "SELECT event_id, seen_at FROM event_seen WHERE game_id = ? AND kind = ?",
                arguments: [gameID, GameEvent.Kind.pregame.rawValue]
            ).map { (id: $0["event_id"], seenAt: Date(timeIntervalSince1970: $0["seen_at"])) }
        }
    }

    /// A goal in words, as a fan names it: "S. Crosby (PIT) at 12:34 of the 2nd, PIT 1–0 MIN".
    static func label(_ event: GameEvent) -> String? {
        guard event.kind == .goal else { return nil }
        let who =
            event.players.first { $0.role == "scorer" }.map { "\($0.name) (\(event.team ?? $0.team ?? "?"))" }
            ?? "\(event.team ?? "a") goal"
        let when = event.periodLabel.map { period in event.clock.map { " at \($0) of the \(period)" } ?? " in the \(period)" } ?? ""
        return "\(who)\(when), \(event.away) \(event.score.away)–\(event.score.home) \(event.home)"
    }

    /// Deletes sightings older than `date` (housekeeping).
    public func prune(before date: Date) async throws(StoreError) {
        try await store.write { db in
            try db.execute(sql: "DELETE FROM event_seen WHERE seen_at < ?", arguments: [date.timeIntervalSince1970])
        }
    }
}
