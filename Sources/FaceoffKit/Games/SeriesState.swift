import FaceoffNHL
import Foundation

/// Where a playoff series stands at one of its games, read from a team's club schedule (the
/// `seriesStatus` of every game of the series). The one place that says which games a series
/// may still need: `faceoff playoffs`, the calendar feeds and the status line use it.
public struct SeriesState: Sendable, Equatable {
    public var round: Int?
    /// "R1", "ECF", "SCF"
    public var abbrev: String
    public var letter: String?
    public var gameNumber: Int
    /// The top seed's and the bottom seed's abbreviations, when known: named by the API, or
    /// told by which count a finished game moved.
    public var top: String?
    public var bottom: String?
    /// Wins after this game when it is over; before it otherwise (the series as it stands).
    public var topWins: Int
    public var bottomWins: Int
    public var neededToWin: Int
    /// The series may end before this game is played.
    public var ifNecessary: Bool
    /// The series ended without it.
    public var notNeeded: Bool

    /// "R1 G5"
    public var tag: String { "\(abbrev) G\(gameNumber)" }

    /// "WSH leads 3–1", "series tied 2–2", "WSH wins 4–1"; with unknown seeds only a tie can
    /// be told.
    public var text: String? {
        if topWins == bottomWins { return "series tied \(topWins)–\(bottomWins)" }
        guard let top else { return nil }
        // A seed unnamed but known to trail (a tied series just broken): "WSH leads 1–0".
        if bottom == nil, topWins < bottomWins { return nil }
        let bottom = self.bottom ?? "?"
        let (leader, most, least) = topWins > bottomWins ? (top, topWins, bottomWins) : (bottom, bottomWins, topWins)
        return most >= neededToWin ? "\(leader) wins \(most)–\(least)" : "\(leader) leads \(most)–\(least)"
    }

    /// The series after this game, won by `winner`: its count goes up. When the seeds are
    /// not known, a tied series still tells them apart (the winner leads); an untied one can't
    /// be counted on (nil).
    public func after(winner: String) -> SeriesState? {
        guard top != nil || topWins == bottomWins else { return nil }
        var next = self
        if top == nil, topWins == bottomWins {
            next.top = winner
            next.bottom = nil
        }
        if next.top == winner { next.topWins += 1 } else { next.bottomWins += 1 }
        if next.bottom == nil, next.top != winner { next.bottom = winner }
        return next
    }

    /// Whether game `number` is sure to be played, with `wins` and `losses` so far (either
    /// side's): the leader needs `needed - max` more, so at least that many games follow.
    public static func isCertain(_ number: Int, wins: Int, losses: Int, needed: Int) -> Bool {
        number <= wins + losses + (needed - max(wins, losses))
    }

    /// The state at each playoff game of `games` (one team's schedule), by game id.
    public static func states(_ games: [ScheduleGame]) -> [Int: SeriesState] {
        let playoff = games.filter { $0.gameType == .playoffs && $0.seriesStatus != nil && $0.id != nil }
        let series = Dictionary(grouping: playoff) { game in
            "\(game.season ?? 0)-\(game.seriesStatus?.seriesLetter ?? "round \(game.seriesStatus?.round ?? 0)")"
        }
        var result: [Int: SeriesState] = [:]
        for games in series.values {
            let ordered = games.sorted { ($0.seriesStatus?.gameNumberOfSeries ?? 0) < ($1.seriesStatus?.gameNumberOfSeries ?? 0) }
            let teams = Set(ordered.flatMap { [$0.awayTeam?.abbrev, $0.homeTeam?.abbrev] }.compactMap { $0 })
            func other(_ team: String) -> String? { teams.count == 2 ? teams.first { $0 != team } : nil }
            var top = ordered.compactMap { $0.seriesStatus?.topSeedTeamAbbrev?.value }.first
            // The series as it stands: the counts after the last finished game.
            var latest = (top: 0, bottom: 0)
            for game in ordered where game.gameState?.isFinal == true {
                let status = game.seriesStatus
                let now = (top: status?.topSeedWins ?? latest.top, bottom: status?.bottomSeedWins ?? latest.bottom)
                if top == nil, let winner = Self.winner(game) {
                    if now.top == latest.top + 1, now.bottom == latest.bottom { top = winner }
                    if now.bottom == latest.bottom + 1, now.top == latest.top { top = other(winner) }
                }
                latest = now
            }
            let bottom = top.flatMap(other)
            let needed = ordered.first?.seriesStatus?.neededToWin ?? 4
            let over = max(latest.top, latest.bottom) >= needed
            for game in ordered {
                guard let id = game.id, let status = game.seriesStatus else { continue }
                let number = status.gameNumberOfSeries ?? 0
                let played = game.gameState?.isFinal == true
                let under = played || game.gameState?.isLive == true
                let counts = played ? (top: status.topSeedWins ?? 0, bottom: status.bottomSeedWins ?? 0) : latest
                result[id] = SeriesState(
                    round: status.round, abbrev: status.seriesAbbrev ?? "R\(status.round ?? 0)", letter: status.seriesLetter,
                    gameNumber: number, top: top, bottom: bottom, topWins: counts.top, bottomWins: counts.bottom, neededToWin: needed,
                    ifNecessary: !under && !over && !isCertain(number, wins: latest.top, losses: latest.bottom, needed: needed),
                    notNeeded: !under && over)
            }
        }
        return result
    }

    private static func winner(_ game: ScheduleGame) -> String? {
        guard let away = game.awayTeam?.score, let home = game.homeTeam?.score, away != home else { return nil }
        return away > home ? game.awayTeam?.abbrev : game.homeTeam?.abbrev
    }
}
