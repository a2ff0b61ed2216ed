import FaceoffHTTP
import FaceoffStore
import Foundation
import GRDB

/// How long a stored response may be used without asking the server again.
public enum Freshness: Sendable, Equatable {
    /// Always revalidate (a conditional GET); used for live games.
    case revalidate
    case seconds(TimeInterval)
    /// Never changes again: a finished game.
    case forever

    var maxAge: TimeInterval? {
        switch self {
        case .revalidate: 0
        case .seconds(let seconds): seconds
        case .forever: nil
        }
    }

    init(maxAge: TimeInterval?) {
        switch maxAge {
        case nil: self = .forever
        case let seconds? where seconds <= 0: self = .revalidate
        case let seconds?: self = .seconds(seconds)
        }
    }
}

public struct CachedResponse: Sendable, Equatable {
    public var url: String
    public var body: [UInt8]
    public var validators: Validators
    public var fetchedAt: Date
    public var freshness: Freshness

    public init(url: String, body: [UInt8], validators: Validators, fetchedAt: Date, freshness: Freshness) {
        self.url = url
        self.body = body
        self.validators = validators
        self.fetchedAt = fetchedAt
        self.freshness = freshness
    }

    public func isFresh(at now: Date) -> Bool {
        // Fetched "in the future": written while the clock was set ahead. Not to be trusted
        // as fresh (it would be for as long as the clock was wrong): asked for again.
        guard fetchedAt <= now.addingTimeInterval(60) else { return false }
        guard let maxAge = freshness.maxAge else { return true }
        return now.timeIntervalSince(fetchedAt) < maxAge
    }

    public func age(at now: Date) -> TimeInterval { max(0, now.timeIntervalSince(fetchedAt)) }
}

/// API responses by URL, with the validators and freshness that say when to ask again.
public struct ResponseCache: Sendable {
    package let store: Store

    public init(store: Store) { self.store = store }

    /// The copy of `endpoint` at `base`, decoded, however old; nil when there is none or it
    /// can't be read (what `faceoff status` shows, from the cache alone).
    public func value<Response>(of endpoint: Endpoint<Response>, base: String) -> Response? {
        guard let entry = try? entry(for: base + endpoint.path) else { return nil }
        return try? APIText.decode(Response.self, from: entry.body)
    }

    public func entry(for url: String) throws(StoreError) -> CachedResponse? {
        try store.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM response_cache WHERE url = ?", arguments: [url]).map { row in
                CachedResponse(
                    url: row["url"],
                    body: Array((row["body"] as Data?) ?? Data()),
                    validators: Validators(etag: row["etag"], lastModified: row["last_modified"]),
                    fetchedAt: Date(timeIntervalSince1970: row["fetched_at"]),
                    freshness: Freshness(maxAge: row["max_age"]))
            }
        }
    }

    public func save(_ entry: CachedResponse) async throws(StoreError) {
        try await store.write { db in
            try db.execute(
                sql: """
                    INSERT INTO response_cache (url, body, etag, last_modified, fetched_at, max_age)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT(url) DO UPDATE SET body = excluded.body, etag = excluded.etag,
                        last_modified = excluded.last_modified, fetched_at = excluded.fetched_at,
                        max_age = excluded.max_age
                    """,
                arguments: [
                    entry.url, Data(entry.body), entry.validators.etag, entry.validators.lastModified,
                    entry.fetchedAt.timeIntervalSince1970, entry.freshness.maxAge,
                ])
        }
    }

    /// Records that the server confirmed the stored body (a 304) at `date`.
    public func revalidated(_ url: String, at date: Date, freshness: Freshness) async throws(StoreError) {
        try await store.write { db in
            try db.execute(
                sql: "UPDATE response_cache SET fetched_at = ?, max_age = ? WHERE url = ?",
                arguments: [date.timeIntervalSince1970, freshness.maxAge, url])
        }
    }

    /// Deletes entries fetched before `date`; returns how many.
    @discardableResult
    public func prune(fetchedBefore date: Date) async throws(StoreError) -> Int {
        try await store.write { db in
            try db.execute(sql: "DELETE FROM response_cache WHERE fetched_at < ?", arguments: [date.timeIntervalSince1970])
            return db.changesCount
        }
    }
}
