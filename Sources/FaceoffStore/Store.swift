import FaceoffBase
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

    /// - Parameter usingReserve: an open that fails for want of space gives the reserve back
    ///   and is tried once more (`mute`, `unmute`: their write must work on a full disk, and
    ///   opening makes the WAL's files first).
    public init(path: String, usingReserve: Bool = false) throws(StoreError) {
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
            do {
                pool = try Self.openAndMigrate(path: path, configuration: configuration)
            } catch  where usingReserve && Self.releaseReserve(at: path, after: error) {
                pool = try Self.openAndMigrate(path: path, configuration: configuration)
            }
        } catch let newer as StoreError.Newer {
            throw StoreError(path: path, reason: newer.description, advice: nil)
        } catch {
            throw Self.explain(error, path: path)
        }
        Self.keepReserve(for: path)
    }

    /// Room kept beside the store (`faceoff.sqlite.reserve`, zeros) for the few writes that
    /// must work on a full disk (`write(usingReserve:)`: a mute or an unmute): one that fails
    /// for want of space gives the room back and is tried once more. Made again at the next
    /// open that finds the space. Other writes fail on a full disk as they did.
    static var reserveBytes: Int { 128 * 1024 }

    static func reservePath(_ path: String) -> String { path + ".reserve" }

    static func keepReserve(for path: String) {
        let reserve = reservePath(path)
        guard !FileManager.default.fileExists(atPath: reserve) else { return }
        // Not zeros: a compressing file system (btrfs, ZFS) would keep those in no room at all.
        let filler = Data((0..<reserveBytes).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) | 1 })
        if (try? filler.write(to: URL(fileURLWithPath: reserve))) == nil {
            try? FileManager.default.removeItem(atPath: reserve)
        }
    }

    /// Gives the reserve back when `error` says the disk is full; whether there was one.
    func releaseReserve(after error: any Error) -> Bool { Self.releaseReserve(at: path, after: error) }

    static func releaseReserve(at path: String, after error: any Error) -> Bool {
        guard let database = error as? DatabaseError else { return false }
        let code = database.resultCode.primaryResultCode
        // Full: SQLite says so, or an I/O error (or, opening, a file it can't make) with less
        // room left than the reserve (some file systems refuse a write with a few blocks free).
        let low = fileSystem(of: path).map { UInt64($0.f_bavail) * UInt64($0.f_frsize) < UInt64(reserveBytes) } ?? false
        guard code == .SQLITE_FULL || ([.SQLITE_IOERR, .SQLITE_CANTOPEN].contains(code) && low) else { return false }
        return (try? FileManager.default.removeItem(atPath: reservePath(path))) != nil
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
            } catch let error as DatabaseError
                where (error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED) && Date() < deadline
            {
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
                let store = try? Store(reading: path, queue: DatabaseQueue(path: immutableURI(path), configuration: configuration))
            {
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
        guard try hasTable(db, "grdb_migrations") else { return [] }
        return Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
    }

    /// Whether the store has table `name` (an older store may not). One lookup in
    /// sqlite_master; GRDB's `tableExists` first reads the whole schema into Swift values,
    /// which is most of what a short command like `faceoff status` spends in the store.
    public static func hasTable(_ db: Database, _ name: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?)", arguments: [name])
            ?? false
    }

    private static func newerSchema(_ unknown: Set<String>) -> StoreError.Newer {
        StoreError.Newer(migrations: unknown.sorted())
    }

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
    package func write<T: Sendable>(usingReserve: Bool = false, _ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError)
        -> T
    {
        do {
            return try await writeTransaction(body)
        } catch  where usingReserve && releaseReserve(after: error) {
            do { return try await writeTransaction(body) } catch { throw Self.explain(error, path: path) }
        } catch {
            throw Self.explain(error, path: path)
        }
    }

    /// `write` without the error translation, for a body that throws errors of its own.
    package func writeTransaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            pool.asyncWrite(body) { _, result in continuation.resume(with: result) }
        }
    }

    package func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws(StoreError) -> T {
        do { return try pool.read(body) } catch { throw Self.explain(error, path: path) }
    }

    /// An error in plain words. SQLite says "disk I/O error" when it can't grow the WAL or
    /// its shared-memory file on a full disk, and "attempt to write a readonly database" on a
    /// read-only mount, so the file system is asked which it is.
    ///
    /// SQLite also answers "full" or "I/O error" for some damage to the file, so with space
    /// left on the disk the file itself is checked (`quick_check`) before either is said.
    package static func explain(_ error: any Error, path: String) -> StoreError {
        guard let database = error as? DatabaseError else { return StoreError(path: path, reason: describe(error)) }
        let code = database.resultCode.primaryResultCode
        if code == .SQLITE_CORRUPT || code == .SQLITE_NOTADB { return damaged(path, database.message) }
        if [.SQLITE_FULL, .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_CANTOPEN].contains(code), let info = fileSystem(of: path) {
            if info.f_flag & UInt(ST_RDONLY) != 0 {
                return StoreError(
                    path: path, reason: "its file system is read-only", advice: "Remount it read-write, or point XDG_STATE_HOME elsewhere.")
            }
            if info.f_bavail == 0 {
                return StoreError(path: path, reason: "the disk is full", advice: "Free some space; nothing already stored is lost.")
            }
            if code == .SQLITE_FULL || code == .SQLITE_IOERR, let problem = quickCheck(path) { return damaged(path, problem) }
            if code == .SQLITE_FULL {
                return StoreError(
                    path: path, reason: "the disk is full (or your quota is)", advice: "Free some space; nothing already stored is lost.")
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

    public init(
        path: String, reason: String,
        advice: String? = "Check that the directory exists and is writable, or point XDG_STATE_HOME elsewhere."
    ) {
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
