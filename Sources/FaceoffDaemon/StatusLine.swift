import FaceoffAPI
import FaceoffBase
import FaceoffDelivery
import FaceoffKit
import FaceoffStore
import Foundation

/// `faceoff status`: one line from the store alone (no network): a live game of a followed
/// team, else its final for `[watch] final_hold` after it ended, else the next game from the
/// cached schedules.
public struct StatusLine: Sendable {
    public enum Style: Sendable { case plain, tmux }

    public struct Report: Sendable, Encodable, Equatable {
        /// "live", "final", "next" or "none".
        public var state: String
        public var game: Int?
        public var away: String?
        public var home: String?
        public var awayScore: Int?
        public var homeScore: Int?
        public var period: String?
        public var clock: String?
        public var intermission: Bool?
        public var situation: String?
        /// A playoff game's "G5 · WSH leads 3–1".
        public var series: String?
        public var start: Date?
        /// Set while `faceoff run` cannot reach the API: what is shown is as of then.
        public var staleSince: Date?
        /// The delay in effect at each sink (`faceoff delay`).
        public var delays: [DelayReport.Sink]?
        /// Each sink's mute, quiet hours and held alerts (`faceoff mute --list`).
        public var sinks: [MuteReport.Sink]?
        public var text: String
    }

    /// nil: no store yet (nothing known).
    package let store: Store?
    let config: Config
    let now: Date

    public init(store: Store?, config: Config, now: Date) {
        self.store = store
        self.config = config
        self.now = now
    }

    public func report(style: Style = .plain) -> Report {
        var report = current(style: style)
        report.delays = DelayReport(DelayBook(config: config, store: store)).sinks
        let holds = MuteReport(config: config, store: store, at: now).sinks
        report.sinks = holds
        let muted = holds.filter(\.muted).map(\.sink)
        if !muted.isEmpty {
            report.text += style == .tmux ? " · 🔇 \(muted.joined(separator: ","))" : " · muted: \(muted.joined(separator: ", "))"
        }
        if let since = DaemonState(store: store).date(.outageSince) {
            report.staleSince = since
            let time = LocalTime(timeZone: config.timeZone)
            report.text += " · offline since \(time.time(since))"
        }
        return report
    }

    func current(style: Style) -> Report {
        let teams = Set(config.teams)
        // A watcher writes every poll (at most 5 minutes apart, in an intermission); a live row
        // older than 7 minutes is a watcher gone. A final row stays for the final hold.
        let liveFor: TimeInterval = 420
        let hold = TimeInterval(config.watch.finalHold.components.seconds)
        let games = (store.flatMap { try? LiveStatus(store: $0).games(since: now.addingTimeInterval(-max(liveFor, hold))) } ?? [])
            .filter { teams.isEmpty || teams.contains($0.awayKey) || teams.contains($0.homeKey) }
        let schedules = cachedGames()
        let series = Dictionary((schedules ?? []).compactMap { game in game.series.map { (game.game.id, $0) } }) { first, _ in first }
        // "G5 · WSH leads 3–1": the series as it stands before the game.
        func seriesText(_ id: Int) -> String? {
            guard let state = series[id] else { return nil }
            return ["G\(state.gameNumber)", state.text].compactMap { $0 }.joined(separator: " · ")
        }
        if let game = games.first(where: { $0.state == "live" && $0.updatedAt >= now.addingTimeInterval(-liveFor) }) {
            var parts = [
                "\(badge(game.away, style, game.league)) \(game.awayScore)–\(game.homeScore) \(badge(game.home, style, game.league))"
            ]
            if let period = game.periodLabel {
                parts.append(
                    game.intermission
                        ? "\(period) intermission" : [period, game.clock.map { "\($0) left" }].compactMap { $0 }.joined(separator: " "))
            }
            if let situation = game.situation { parts.append(situation) }
            let series = seriesText(game.gameID)
            if let series { parts.append(series) }
            return Report(
                state: "live", game: game.gameID, away: game.away, home: game.home, awayScore: game.awayScore, homeScore: game.homeScore,
                period: game.periodLabel, clock: game.clock, intermission: game.intermission, situation: game.situation, series: series,
                text: parts.joined(separator: " · "))
        }
        // A game a watcher polls before puck drop: as soon as it is in its window.
        let upcoming = games.first { $0.state == "upcoming" && $0.updatedAt >= now.addingTimeInterval(-liveFor) }
        let next = upcoming.flatMap { nextGame(schedules, including: $0.gameID) } ?? nextGame(schedules)
        let nextSeries = next.flatMap { seriesText($0.id) }
        let time = LocalTime(timeZone: config.timeZone)
        // The next game in its pregame window (or polled by a watcher) comes before a final.
        if let next, next.start.timeIntervalSince(now) <= config.watch.pregame.inSeconds || upcoming?.gameID == next.id {
            let text =
                "\(badge(next.away, style, next.league)) @ \(badge(next.home, style, next.league)) \(time.time(next.start)) · starts \(Countdown.describe(from: now, to: next.start))"
            return Report(
                state: "next", game: next.id, away: next.away, home: next.home, series: nextSeries, start: next.start,
                text: nextSeries.map { "\(text) · \($0)" } ?? text)
        }
        let nextText = next.map { next in
            let text =
                "Next: \(badge(next.away, style, next.league)) @ \(badge(next.home, style, next.league)) \(time.day(next.start)) \(time.time(next.start))"
            return nextSeries.map { "\(text) · \($0)" } ?? text
        }
        if let game = games.first(where: { $0.state == "final" && $0.updatedAt >= now.addingTimeInterval(-hold) }) {
            // Past regulation the final says so: Final/OT, Final/2OT, Final/SO.
            let endedIn = game.periodLabel.flatMap { $0.hasSuffix("OT") || $0 == "SO" ? $0 : nil }
            let text =
                "\(finalLabel(game, teams: teams, style, endedIn: endedIn)): \(badge(game.away, style, game.league)) \(game.awayScore)–\(game.homeScore) \(badge(game.home, style, game.league))"
            return Report(
                state: "final", game: game.gameID, away: game.away, home: game.home, awayScore: game.awayScore, homeScore: game.homeScore,
                period: game.periodLabel, text: ([text] + [nextText].compactMap { $0 }).joined(separator: " · "))
        }
        if let next, let nextText {
            return Report(
                state: "next", game: next.id, away: next.away, home: next.home, series: nextSeries, start: next.start, text: nextText)
        }
        if config.teams.isEmpty { return Report(state: "none", text: "No team followed") }
        // Nothing fetched yet is not "no game": say how to fetch it.
        if schedules == nil {
            return Report(state: "none", text: "No schedule cached yet · faceoff schedule fetches it")
        }
        return Report(state: "none", text: "No game scheduled")
    }

    /// A followed team's game to come or on, from its cached schedule.
    typealias CachedGame = (game: GameSummary, series: SeriesState?, league: League)

    /// The followed teams' games to come or on, from their cached schedules (each league
    /// reads its own), with their series and league; nil when no schedule is cached at all.
    func cachedGames() -> [CachedGame]? {
        guard let store else { return nil }
        let cache = ResponseCache(store: store)
        let time = LocalTime(timeZone: config.timeZone)
        var games: [CachedGame] = []
        var cached = false
        for team in config.teamKeys {
            let league = team.league.definition
            guard let current = league.cachedCurrent(of: team, cache: cache, base: config.base(of: league.service), time: time, now: now)
            else { continue }
            cached = true
            games += current.map { ($0, $1, team.league) }
        }
        return cached ? games : nil
    }

    /// The earliest game to come or on in the cached schedules of the followed teams (or the
    /// game `including` names, when it is there). `league` is nil for the NHL's, as the
    /// status line's store writes it.
    func nextGame(_ games: [CachedGame]?, including: Int? = nil) -> (
        id: Int, away: String, home: String, start: Date, league: String?
    )? {
        var best: (id: Int, away: String, home: String, start: Date, league: String?)?
        for (game, _, league) in games ?? [] where including == nil || game.id == including {
            guard let start = game.startDate else { continue }
            if best.map({ start < $0.start }) ?? true {
                best = (game.id, game.away.abbrev, game.home.abbrev, start, league == .nhl ? nil : league.rawValue)
            }
        }
        return best
    }

    /// "Final", in green for a followed team's win and red for its loss in tmux (plain when
    /// both teams or neither are followed, or the game was tied when it stopped).
    func finalLabel(_ game: LiveStatus.Game, teams: Set<String>, _ style: Style, endedIn: String? = nil) -> String {
        let label = FinalLabel.text(endedIn)
        let awayFollowed = teams.contains(game.awayKey)
        guard style == .tmux, awayFollowed != teams.contains(game.homeKey), game.awayScore != game.homeScore else { return label }
        let won = (game.awayScore > game.homeScore) == awayFollowed
        return "#[fg=\(won ? "green" : "red"),bold]\(label)#[default]"
    }

    /// A team in tmux's colours: its abbreviation on its primary colour.
    func badge(_ team: String, _ style: Style, _ league: String? = nil) -> String {
        guard style == .tmux, let color = League(rawValue: league ?? "nhl")?.definition.team(team)?.primary else { return team }
        let text = color.prefersDarkText ? "#000000" : "#ffffff"
        return "#[fg=\(text),bg=\(color.hex.lowercased()),bold] \(team) #[default]"
    }
}
