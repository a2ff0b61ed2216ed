import FaceoffStore
import Foundation
import GRDB

/// Which event went to which sink, so a restart or a second process never sends an alert
/// twice and never skips one: watchers derive every event again and send what is unclaimed.
public struct Ledger: Sendable {
    package let store: Store
    let owner: String

    public init(store: Store, owner: String = ProcessOwner.current) {
        self.store = store
        self.owner = owner
    }

    /// Claims (event, sink) for sending: true for the first claimant only, atomically across
    /// processes. The claim stays this process's until `sent`; one left by a process that died
    /// before sending (killed between the claim and the send) is taken over, so the alert
    /// goes out once rather than never. With `final`, the claim is done at once: a process
    /// killed before sending leaves it unsent for good (at most once).
    public func claim(_ event: GameEvent, sink: String, at date: Date = Date(), final: Bool = false) async throws(StoreError) -> Bool {
        let owner = owner
        return try await store.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO ledger (event_id, sink, game_id, kind, claimed_at, sending) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [event.id, sink, event.gameId, event.kind.rawValue, date.timeIntervalSince1970, final ? nil : owner])
            if db.changesCount == 1 { return true }
            let holder =
                try String?.fetchOne(db, sql: "SELECT sending FROM ledger WHERE event_id = ? AND sink = ?", arguments: [event.id, sink])
                ?? nil
            guard let holder, holder != owner, !ProcessOwner.isAlive(holder) else { return false }
            try db.execute(
                sql: "UPDATE ledger SET sending = ?, claimed_at = ? WHERE event_id = ? AND sink = ? AND sending = ?",
                arguments: [owner, date.timeIntervalSince1970, event.id, sink, holder])
            return db.changesCount == 1
        }
    }

    /// The claimed alert has been handed to its sink (delivered or not: it is not tried again).
    public func sent(_ event: GameEvent, sink: String) async throws(StoreError) {
        let owner = owner
        try await store.write { db in
            try db.execute(
                sql: "UPDATE ledger SET sending = NULL WHERE event_id = ? AND sink = ? AND sending = ?", arguments: [event.id, sink, owner])
        }
    }

    /// Claims (event, sink) with nothing to send: a play from before the game was first seen,
    /// or an alert for a sink that is off. True when it was not claimed before.
    @discardableResult
    public func passOver(_ event: GameEvent, sink: String, at date: Date = Date()) async throws(StoreError) -> Bool {
        try await store.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO ledger (event_id, sink, game_id, kind, claimed_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [event.id, sink, event.gameId, event.kind.rawValue, date.timeIntervalSince1970])
            return db.changesCount == 1
        }
    }

    /// Records that a watcher has seen the game, before any alert of it is claimed: a restart
    /// while its first alerts wait out a broadcast delay then sends them, instead of taking
    /// the game for one first seen in progress.
    public func markSeen(gameID: Int, at date: Date = Date()) async throws(StoreError) {
        try await store.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO ledger (event_id, sink, game_id, kind, claimed_at) VALUES (?, '', ?, 'seen', ?)",
                arguments: ["\(gameID):seen", gameID, date.timeIntervalSince1970])
        }
    }

    /// Whether any alert of this game was claimed already, or a watcher saw it (by this or
    /// another process).
    public func hasEvents(gameID: Int) throws(StoreError) -> Bool {
        try store.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM ledger WHERE game_id = ?)", arguments: [gameID]) ?? false
        }
    }

    /// Every event of the game the ledger has a row for, for any sink (sent, being sent, or
    /// passed over): what no process needs to tell the user about again.
    public func knownIDs(gameID: Int) throws(StoreError) -> Set<String> {
        try store.read { db in
            Set(try String.fetchAll(db, sql: "SELECT DISTINCT event_id FROM ledger WHERE game_id = ?", arguments: [gameID]))
        }
    }

    public func claimedIDs(gameID: Int, sink: String) throws(StoreError) -> [String] {
        try store.read { db in
            try String.fetchAll(
                db, sql: "SELECT event_id FROM ledger WHERE game_id = ? AND sink = ? ORDER BY rowid", arguments: [gameID, sink])
        }
    }

    /// Deletes ledger rows older than `date` (housekeeping).
    public func prune(before date: Date) async throws(StoreError) {
        try await store.write { db in
            try db.execute(sql: "DELETE FROM ledger WHERE claimed_at < ?", arguments: [date.timeIntervalSince1970])
        }
    }
}
