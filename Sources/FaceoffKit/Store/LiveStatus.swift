import FaceoffNHL
import FaceoffStore
import Foundation
import GRDB

/// What `faceoff status` shows of a game being watched: written by every watcher (`run`,
/// `watch`) on each snapshot, read without any network.
public struct LiveStatus: Sendable {
    public struct Game: Sendable, Equatable, Codable {
        public var gameID: Int
        public var away: String
        public var home: String
        public var awayScore: Int
        public var homeScore: Int
        public var periodLabel: String?
        public var clock: String?
        public var intermission: Bool
        public var situation: String?
        /// "live", "final" or "upcoming".
        public var state: String
        public var updatedAt: Date
        /// "nba" for an NBA game; nil for the NHL's.
        public var league: String? = nil

        /// How the followed teams name its teams: `TOR`, `nba:LAL`.
        public var awayKey: String { league.map { "\($0):\(away)" } ?? away }
        public var homeKey: String { league.map { "\($0):\(home)" } ?? home }
    }

    package let store: Store

    public init(store: Store) { self.store = store }

    /// A snapshot of any league's game, as `status` shows it (`LiveSnapshot.status`).
    public func record(_ snapshot: some LiveSnapshot, at date: Date) async throws(StoreError) {
        try await record(snapshot.status(at: date))
    }

    /// An NBA game: its quarter (`Q3`), the time left, halftime or a break as an intermission.
    static func game(_ snapshot: NBASnapshot, at date: Date) -> Game {
        let state = snapshot.isFinal ? "final" : snapshot.isLive ? "live" : "upcoming"
        return Game(
            gameID: snapshot.gameId, away: snapshot.away.abbrev, home: snapshot.home.abbrev, awayScore: snapshot.away.score,
            homeScore: snapshot.home.score,
            periodLabel: snapshot.isFinal ? (snapshot.endedIn == "REG" ? "Q4" : snapshot.endedIn) : snapshot.period.map(NBAPeriod.label),
            clock: snapshot.atBreak || !snapshot.isLive ? nil : snapshot.clock, intermission: snapshot.atBreak, situation: nil,
            state: state, updatedAt: date, league: League.nba.rawValue)
    }

    private func record(_ game: Game) async throws(StoreError) {
        try await store.write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO live_game
                    (game_id, away, home, away_score, home_score, period_label, clock, intermission, situation, state, updated_at, league)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    game.gameID, game.away, game.home, game.awayScore, game.homeScore, game.periodLabel, game.clock,
                    game.intermission, game.situation, game.state, game.updatedAt.timeIntervalSince1970, game.league,
                ])
        }
    }

    static func game(_ snapshot: GameSnapshot, at date: Date) -> Game {
        var situation: [String] = []
        if snapshot.isLive, let code = snapshot.currentSituation {
            if code.awayPowerPlay { situation.append("\(snapshot.away.abbrev) PP") }
            if code.homePowerPlay { situation.append("\(snapshot.home.abbrev) PP") }
            if code.awayNetEmpty { situation.append("\(snapshot.away.abbrev) EN") }
            if code.homeNetEmpty { situation.append("\(snapshot.home.abbrev) EN") }
        }
        let state = snapshot.isFinal ? "final" : snapshot.isLive ? "live" : "upcoming"
        return Game(
            gameID: snapshot.gameId, away: snapshot.away.abbrev, home: snapshot.home.abbrev, awayScore: snapshot.away.score,
            homeScore: snapshot.home.score, periodLabel: snapshot.period?.label, clock: snapshot.clock?.timeRemaining,
            intermission: snapshot.clock?.inIntermission ?? false, situation: situation.isEmpty ? nil : situation.joined(separator: " "),
            state: state, updatedAt: date)
    }

    /// Games updated since `date`, newest first.
    public func games(since date: Date) throws(StoreError) -> [Game] {
        try store.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM live_game WHERE updated_at >= ? ORDER BY updated_at DESC", arguments: [date.timeIntervalSince1970]
            ).map { row in
                Game(
                    gameID: row["game_id"], away: row["away"], home: row["home"], awayScore: row["away_score"],
                    homeScore: row["home_score"],
                    periodLabel: row["period_label"], clock: row["clock"], intermission: row["intermission"], situation: row["situation"],
                    state: row["state"], updatedAt: Date(timeIntervalSince1970: row["updated_at"]), league: row["league"])
            }
        }
    }

    public func prune(before date: Date) async throws(StoreError) {
        try await store.write { db in
            try db.execute(sql: "DELETE FROM live_game WHERE updated_at < ?", arguments: [date.timeIntervalSince1970])
        }
    }
}
