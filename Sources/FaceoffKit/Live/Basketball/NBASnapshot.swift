import FaceoffAPI
import FaceoffESPN
import Foundation

/// One poll of an NBA game's summary (ESPN), reduced to what detection needs: the teams, the
/// state, and the plays with the score after each.
public struct NBASnapshot: Sendable {
    public struct Side: Sendable, Equatable {
        /// ESPN's team id.
        public var id: String?
        /// ESPN's abbreviation ("LAL", "GS").
        public var abbrev: String
        public var name: String
        public var score: Int
    }

    public struct Play: Sendable, Equatable {
        /// ESPN's sequence number: a play's own, but not always in the game's order (a play
        /// logged late is inserted with a higher number, or one taken before it); the answer's
        /// list is in the game's order.
        public var sequence: Int
        /// "Jump Shot", "Defensive Rebound", "End Period", "End Game"
        public var kind: String
        public var text: String
        public var score: GameEvent.Score
        public var period: Int
        /// Time left in the period, in seconds (nil when the answer has none).
        public var remaining: Double?
        /// As the answer writes it: "10:05", "45.3".
        public var clock: String
        public var scoring: Bool
        public var points: Int
        /// The abbreviation of the play's team.
        public var team: String?
        /// Athlete ids: the scorer, shooter or rebounder first; on a basket, the assist second.
        public var athletes: [String]

        /// Game seconds gone at this play (`NBAPeriod.gameSeconds`).
        public var gameSeconds: Double { NBAPeriod.gameSeconds(period: period, remaining: remaining) }

        var isFreeThrow: Bool { kind.hasPrefix("Free Throw") }
        var isRebound: Bool { kind.hasSuffix("Rebound") }
    }

    public let gameId: Int
    /// A playoff game's series as the summary gives it: before the game until it is over.
    public let series: SeriesState?
    /// scheduled | live | final | postponed | cancelled (`ESPNEvent.Status.game`).
    public let state: String
    /// ESPN's status name: STATUS_HALFTIME, STATUS_END_PERIOD…
    public let statusName: String?
    public let period: Int?
    /// Time left in the period as ESPN writes it.
    public let clock: String?
    public let away: Side
    public let home: Side
    /// In order, each once.
    public let plays: [Play]
    public let startTime: Date?
    /// Athlete id → "LeBron James".
    public let names: [String: String]
    /// Athlete id → team abbreviation, from the box score.
    public let athleteTeams: [String: String]

    /// - Parameter playCount: only the first plays, as a live poll would have seen them
    ///   (a replay); the game is then live until its last play.
    public init(_ summary: ESPNSummary, playCount: Int? = nil) {
        let competition = summary.header?.competitions?.first
        gameId = summary.header?.id.flatMap { Int($0) } ?? 0
        func side(_ homeAway: String) -> Side {
            let competitor = competition?.competitors?.first { $0.homeAway == homeAway }
            let team = competitor?.team
            let fallback = homeAway.uppercased()
            return Side(
                id: team?.id, abbrev: team?.abbreviation ?? fallback, name: team?.displayName ?? fallback,
                score: competitor?.score?.points ?? 0)
        }
        var away = side("away")
        var home = side("home")
        var teams: [String: String] = [:]
        for side in [away, home] { if let id = side.id { teams[id] = side.abbrev } }
        series = competition?.series.flatMap { Self.series($0, note: summary.header?.gameNote, teams: teams) }
        var seen: Set<Int> = []
        let all: [Play] = (summary.plays ?? []).compactMap { play in
            guard let sequence = play.sequenceNumber.flatMap({ Int($0) }), seen.insert(sequence).inserted else { return nil }
            return Play(
                sequence: sequence, kind: play.type?.text ?? "", text: play.text ?? "",
                score: GameEvent.Score(away: play.awayScore ?? 0, home: play.homeScore ?? 0), period: play.period?.number ?? 1,
                remaining: play.clock?.displayValue.flatMap(NBAPeriod.seconds), clock: play.clock?.displayValue ?? "",
                scoring: play.scoringPlay ?? false, points: play.scoreValue ?? 0, team: play.team?.id.flatMap { teams[$0] },
                athletes: play.athletes)
        }
        var names: [String: String] = [:]
        var athleteTeams: [String: String] = [:]
        for team in summary.boxscore?.players ?? [] {
            for athlete in team.statistics?.first?.athletes ?? [] {
                guard let id = athlete.athlete?.id else { continue }
                names[id] = athlete.athlete?.displayName
                athleteTeams[id] = team.team?.abbreviation
            }
        }
        self.names = names
        self.athleteTeams = athleteTeams
        // A game with no time yet has a placeholder hour (midnight Eastern): no start then.
        let timed = (competition?.timeValid ?? summary.header?.timeValid) != false
        startTime = timed ? competition?.date.flatMap(ESPNDate.parse) : nil
        let status = competition?.status
        if let playCount, playCount < all.count {
            // A poll partway through: live (or at a break after a period's end), the score so far.
            let shown = Array(all.prefix(max(0, playCount)))
            plays = shown
            let last = shown.last
            state = shown.isEmpty ? "scheduled" : "live"
            statusName = last?.kind == "End Period" ? (last?.period == 2 ? "STATUS_HALFTIME" : "STATUS_END_PERIOD") : nil
            period = last?.period
            clock = last?.clock
            away.score = last?.score.away ?? 0
            home.score = last?.score.home ?? 0
        } else {
            plays = all
            state = status?.game ?? "scheduled"
            statusName = status?.type?.name
            period = status?.period ?? all.last?.period
            clock = status?.displayClock
        }
        self.away = away
        self.home = home
    }

    /// The series from ESPN's: its two teams' wins (the first listed as the top seed), the
    /// round as the game's note names it ("East Finals - Game 6": "East Finals"), the game's
    /// number from the note, else the wins so far and one.
    static func series(_ series: ESPNSummary.HeaderCompetition.Series, note: String?, teams: [String: String]) -> SeriesState? {
        let sides = (series.competitors ?? []).compactMap { side in side.id.flatMap { teams[$0] }.map { ($0, side.wins ?? 0) } }
        guard sides.count == 2, let total = series.totalCompetitions else { return nil }
        let parts = note?.components(separatedBy: " - Game ")
        let number = parts.flatMap { $0.count == 2 ? Int($0[1]) : nil } ?? (sides[0].1 + sides[1].1 + 1)
        return SeriesState(
            round: nil, abbrev: parts?.first ?? "Playoffs", letter: nil, gameNumber: number, top: sides[0].0, bottom: sides[1].0,
            topWins: sides[0].1, bottomWins: sides[1].1, neededToWin: total / 2 + 1, ifNecessary: false, notNeeded: false)
    }

    public var isFinal: Bool { state == "final" }
    public var isLive: Bool { state == "live" }
    public var isUpcoming: Bool { state == "scheduled" }
    /// At halftime or between quarters.
    public var atBreak: Bool { statusName == "STATUS_HALFTIME" || statusName == "STATUS_END_PERIOD" }

    /// "REG", "OT", "2OT": how a finished game ended.
    public var endedIn: String {
        let last = max(period ?? 4, plays.last?.period ?? 4)
        return last <= 4 ? "REG" : last == 5 ? "OT" : "\(last - 4)OT"
    }

    /// "Final", "Final/OT", "Final/2OT" for a finished game; nil before.
    public var finalLabel: String? { isFinal ? FinalLabel.text(endedIn) : nil }

    /// "James" for "LeBron James".
    func lastName(_ id: String) -> String {
        guard let full = names[id] else { return "#\(id)" }
        return full.split(separator: " ").dropFirst().joined(separator: " ").nonEmpty ?? full
    }
}

/// Basketball's periods: four quarters of 12 minutes, then overtimes of 5.
public enum NBAPeriod {
    public static func length(_ period: Int) -> Double { period <= 4 ? 720 : 300 }

    /// "Q1"…"Q4", then "OT", "2OT": the short label of scoreboards and alerts.
    public static func label(_ period: Int) -> String {
        period <= 4 ? "Q\(period)" : period == 5 ? "OT" : "\(period - 4)OT"
    }

    /// "1st"…"4th", then "OT", "2OT".
    public static func ordinal(_ period: Int) -> String {
        switch period {
        case 1: "1st"
        case 2: "2nd"
        case 3: "3rd"
        case 4: "4th"
        default: label(period)
        }
    }

    /// "2nd quarter", "Overtime", "2nd overtime".
    public static func name(_ period: Int) -> String {
        period <= 4 ? "\(ordinal(period)) quarter" : period == 5 ? "Overtime" : "\(ordinal(period - 4)) overtime"
    }

    /// "10:05" or "45.3" (under a minute) as seconds; nil for what no clock reads (`ESPNClock`).
    public static func seconds(_ clock: String) -> Double? { ESPNClock.seconds(clock) }

    /// Game seconds elapsed at a play: the periods before it and what has gone of its own
    /// (a period past any game's, `Plausible.period`, counts as the last one a game reaches).
    public static func gameSeconds(period: Int, remaining: Double?) -> Double {
        let period = min(max(1, period), Plausible.period.upperBound)
        let before = Double(min(period - 1, 4)) * length(1) + Double(max(0, period - 5)) * length(5)
        let own = length(period) - min(max(0, remaining ?? length(period)), length(period))
        return before + own
    }

    /// Elapsed time in the period, "MM:SS" (what `GameEvent.clock` holds for every league).
    static func elapsed(period: Int, remaining: Double?) -> String? {
        guard let remaining, let left = Plausible.seconds(remaining, in: 0...Int(length(period))) else { return nil }
        let gone = Int((length(period) - left).rounded(.down))
        return String(format: "%02d:%02d", gone / 60, gone % 60)
    }
}
