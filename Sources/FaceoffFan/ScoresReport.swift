import FaceoffKit
import FaceoffNHL
import Foundation

/// A day's games across the league (`faceoff scores`): each with its state, followed teams
/// first. Built from one answer of the `score` endpoint; what it does not say is left out.
public struct ScoresReport: Codable, Sendable, Equatable {
    public struct Game: Codable, Sendable, Equatable {
        public var id: Int
        /// scheduled | live | final | postponed | cancelled (as `GameSummary.status`).
        public var status: String
        /// Start, ISO 8601 UTC, and in the configured zone; absent while the time is TBD.
        public var start: String?
        public var startLocal: String?
        public var timeTBD: Bool
        public var away: GameSummary.Side
        public var home: GameSummary.Side
        /// A live game's period ("2nd", "OT") and time left in it ("12:34"), or in the break.
        public var period: String?
        public var clock: String?
        public var intermission: Bool
        /// A live game's team on the power play, and teams with their net empty.
        public var powerPlay: String?
        public var emptyNet: [String]
        /// A final's REG | OT | SO.
        public var endedIn: String?
        /// Where to watch: national networks, then the followed side's market (both markets
        /// when neither side is followed).
        public var networks: [String]
        /// A followed team plays in it (such games come first).
        public var followed: Bool
    }

    /// "NBA" for the NBA's games; absent for the NHL.
    public var league: String?
    /// The day, YYYY-MM-DD, as the league gives it.
    public var date: String?
    public var games: [Game]

    public init(score: DailyScore, followed: [String], time: LocalTime) {
        date = score.currentDate
        var games: [Game] = []
        for source in score.games ?? [] {
            let ours = [source.awayTeam?.abbrev, source.homeTeam?.abbrev].compactMap(\.self).first { followed.contains($0) }
            guard let summary = GameSummary(source, team: ours, time: time) else { continue }
            let live = summary.isLive
            let clock = source.clock
            let flags =
                live
                ? SituationCode.flags(
                    source.situation?.situationCode, shootout: source.periodDescriptor?.periodType == .so, away: summary.away.abbrev,
                    home: summary.home.abbrev)
                : (powerPlay: nil, emptyNet: [])
            games.append(
                Game(
                    id: summary.id, status: summary.status, start: summary.timeTBD ? nil : summary.start,
                    startLocal: summary.timeTBD ? nil : summary.startLocal, timeTBD: summary.timeTBD,
                    away: summary.away, home: summary.home,
                    period: live ? source.periodDescriptor.map(\.label).flatMap { $0.isEmpty ? nil : $0 } : nil,
                    clock: live ? clock?.timeRemaining : nil, intermission: live && clock?.inIntermission == true,
                    powerPlay: flags.powerPlay, emptyNet: flags.emptyNet, endedIn: summary.endedIn, networks: summary.networks,
                    followed: ours != nil))
        }
        // Followed teams' games first; otherwise the NHL's order (by start time).
        self.games = games.filter(\.followed) + games.filter { !$0.followed }
    }
}
