import Foundation

/// `faceoff status`: one line from the store alone (no network): a live game of a followed
/// team, else the next one from the cached schedules.
public struct StatusLine: Sendable {
    public enum Style: Sendable { case plain, tmux }

    public struct Report: Sendable, Encodable, Equatable {
        /// "live", "next" or "none".
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
        public var start: Date?
        /// Set while `faceoff run` cannot reach the API: what is shown is as of then.
        public var staleSince: Date?
        public var text: String
    }

    /// nil: no store yet (nothing known).
    let store: Store?
    let config: Config
    let now: Date

    public init(store: Store?, config: Config, now: Date) {
        self.store = store
        self.config = config
        self.now = now
    }

    public func report(style: Style = .plain) -> Report {
        var report = current(style: style)
        if let since = DaemonState(store: store).date(.outageSince) {
            report.staleSince = since
            let time = LocalTime(timeZone: config.timeZone)
            report.text += " · offline since \(time.time(since))"
        }
        return report
    }

    func current(style: Style) -> Report {
        let teams = Set(config.teams)
        // A watcher writes every poll (at most 5 minutes apart, in an intermission); a row
        // older than 7 minutes is a watcher gone.
        let live = (store.flatMap { try? LiveStatus(store: $0).games(since: now.addingTimeInterval(-420)) } ?? [])
            .filter { $0.state == "live" && (teams.isEmpty || teams.contains($0.away) || teams.contains($0.home)) }
        if let game = live.first {
            var parts = ["\(badge(game.away, style)) \(game.awayScore)–\(game.homeScore) \(badge(game.home, style))"]
            if let period = game.periodLabel {
                parts.append(game.intermission ? "\(period) int" : [period, game.clock].compactMap { $0 }.joined(separator: " "))
            }
            if let situation = game.situation { parts.append(situation) }
            return Report(
                state: "live", game: game.gameID, away: game.away, home: game.home, awayScore: game.awayScore, homeScore: game.homeScore,
                period: game.periodLabel, clock: game.clock, intermission: game.intermission, situation: game.situation,
                text: parts.joined(separator: " · "))
        }
        if let next = nextGame() {
            let time = LocalTime(timeZone: config.timeZone)
            let text = "Next: \(badge(next.away, style)) @ \(badge(next.home, style)) \(time.day(next.start)) \(time.time(next.start))"
            return Report(state: "next", game: next.id, away: next.away, home: next.home, start: next.start, text: text)
        }
        return Report(state: "none", text: config.teams.isEmpty ? "No team followed" : "No game scheduled")
    }

    /// The earliest game not over in the cached schedules of the followed teams.
    func nextGame() -> (id: Int, away: String, home: String, start: Date)? {
        guard let store else { return nil }
        let cache = ResponseCache(store: store)
        var best: (id: Int, away: String, home: String, start: Date)?
        for team in config.teams {
            guard let entry = try? cache.entry(for: config.apiBase + Endpoint<ClubSchedule>.clubSchedule(team).path),
                let schedule = try? JSONDecoder().decode(ClubSchedule.self, from: Data(entry.body))
            else { continue }
            for game in schedule.games ?? [] where GameWindow.isCurrent(game, now: now) {
                guard let id = game.id, let start = game.startTime, let away = game.awayTeam?.abbrev, let home = game.homeTeam?.abbrev
                else { continue }
                if best.map({ start < $0.start }) ?? true { best = (id, away, home, start) }
            }
        }
        return best
    }

    /// A team in tmux's colours: its abbreviation on its primary colour.
    func badge(_ team: String, _ style: Style) -> String {
        guard style == .tmux, let color = TeamFactsTable.facts(for: team)?.primary else { return team }
        let text = color.prefersDarkText ? "#000000" : "#ffffff"
        return "#[fg=\(text),bg=\(color.hex.lowercased()),bold] \(team) #[default]"
    }
}
