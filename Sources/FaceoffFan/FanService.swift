import FaceoffAPI
import FaceoffBase
import FaceoffKit
import FaceoffNHL
import Foundation

/// Fetches what each fan command needs (through the cache) and builds its report.
public struct FanService: Sendable {
    /// A report and the notes to print on stderr about where its data came from.
    public struct Output<Report: Sendable>: Sendable {
        public var report: Report
        public var notes: [String]
    }

    let client: APIClient
    /// ESPN's, for the NBA.
    let espn: APIClient
    public let time: LocalTime
    public let now: Date
    let followed: [String]

    public init(client: APIClient, espn: APIClient, time: LocalTime, now: Date, followed: [String]) {
        self.client = client
        self.espn = espn
        self.time = time
        self.now = now
        self.followed = followed
    }

    func notes(_ fetched: [Fetched<some Sendable>]) -> [String] {
        var notes = StaleNotes()
        for each in fetched { notes.add(each) }
        return notes.lines
    }

    private func schedule(_ team: String, season: String) async throws -> Fetched<ClubSchedule> {
        try await client.fetch(.clubSchedule(team, season: season))
    }

    public func schedule(team: String, season: String?, from: String?, to: String?) async throws -> Output<ScheduleReport> {
        let fetched = try await schedule(team, season: season ?? "now")
        let report = ScheduleReport(schedule: fetched.value, team: team, time: time, from: from, to: to)
        if (fetched.value.games ?? []).isEmpty {
            throw FanError(
                "no games scheduled for \(team) in \(season ?? fetched.value.currentSeason.map(String.init) ?? "the current season")")
        }
        return Output(report: report, notes: notes([fetched]))
    }

    public func next(team: String) async throws -> Output<NextReport> {
        let current = try await schedule(team, season: "now")
        var games = (current.value.games ?? []).compactMap { GameSummary($0, team: team, time: time) }
        var fetchedNotes = StaleNotes()
        fetchedNotes.add(current)
        if NextReport.pick(from: games, now: now)?.kind != "live",
            !games.contains(where: { $0.isUpcoming && ($0.startDate ?? .distantFuture) > now }),
            let nextSeason = current.value.nextSeason
        {
            // Near a season's end, /now may still point at the old season.
            if let upcoming = try? await client.fetch(.clubSchedule(team, season: String(nextSeason))) {
                games += (upcoming.value.games ?? []).compactMap { GameSummary($0, team: team, time: time) }
                fetchedNotes.add(upcoming)
            }
        }
        guard let (kind, game) = NextReport.pick(from: games, now: now) else {
            throw FanError("no games scheduled for \(team) in \(current.value.currentSeason.map(String.init) ?? "the current season")")
        }
        var records: [String: String] = [:]
        if let standings = try? await client.fetch(.standings()) {
            records = standings.value.records.filter { $0.key == game.away.abbrev || $0.key == game.home.abbrev }
            fetchedNotes.add(standings)
        }
        var live: NextReport.Live?
        var shown = game
        if kind == "live", let playByPlay = try? await client.fetch(.playByPlay(game.id)) {
            live = NextReport.live(from: playByPlay.value)
            // The play-by-play is fresher than the schedule's score.
            shown.away.score = playByPlay.value.awayTeam?.score ?? shown.away.score
            shown.home.score = playByPlay.value.homeTeam?.score ?? shown.home.score
            fetchedNotes.add(playByPlay)
        }
        return Output(
            report: NextReport(
                team: team, timezone: time.timeZone.identifier, kind: kind, game: shown, now: now, records: records, live: live),
            notes: fetchedNotes.lines)
    }

    public func recent(team: String, count: Int) async throws -> Output<RecentReport> {
        let current = try await schedule(team, season: "now")
        var games = (current.value.games ?? []).compactMap { GameSummary($0, team: team, time: time) }
        var fetchedNotes = StaleNotes()
        fetchedNotes.add(current)
        if games.filter(\.isFinal).count < count, let previous = current.value.previousSeason,
            let older = try? await client.fetch(.clubSchedule(team, season: String(previous)))
        {
            games += (older.value.games ?? []).compactMap { GameSummary($0, team: team, time: time) }
            fetchedNotes.add(older)
        }
        return Output(report: RecentReport(team: team, time: time, games: games, count: count), notes: fetchedNotes.lines)
    }

    /// A game's box score: the landing is needed; the boxscore (goalies) and the right-rail
    /// (shots by period, power plays) add to it, and when one can't be had the report says so.
    public func boxScore(game id: Int) async throws -> Output<BoxScoreReport> {
        var notes = StaleNotes()
        func ask<Response>(_ endpoint: Endpoint<Response>) async -> Result<Response, any Error> {
            do {
                let fetched = try await client.fetch(endpoint)
                notes.add(fetched)
                return .success(fetched.value)
            } catch { return .failure(error) }
        }
        let landing = await ask(.landing(id))
        let boxscore = await ask(.boxscore(id))
        // Neither answer: nothing to show, and the landing's error says why.
        if case .failure(let error) = landing, case .failure = boxscore { throw error }
        let state = (try? landing.get())?.gameState ?? (try? boxscore.get())?.gameState
        let rightRail = await ask(.rightRail(id, state: state))
        var unavailable: [String] = []
        if case .failure(let error) = boxscore { unavailable.append("goalies (the boxscore answer: \(error))") }
        if case .failure(let error) = landing { unavailable.append("goals, penalties and three stars (the landing answer: \(error))") }
        if case .failure(let error) = rightRail {
            unavailable.append("shots by period and power plays (the right-rail answer: \(error))")
        }
        let report = BoxScoreReport(
            landing: try? landing.get(), boxscore: try? boxscore.get(), rightRail: try? rightRail.get(), unavailable: unavailable,
            time: time)
        return Output(report: report, notes: notes.lines)
    }

    /// The game of `team` a box score is wanted for: one on now, else the last one played.
    public func currentOrLastGame(team: String) async throws -> Int {
        let schedule = try await schedule(team, season: "now").value
        let games = (schedule.games ?? []).compactMap { GameSummary($0, team: team, time: time) }
        if let live = games.first(where: \.isLive) { return live.id }
        guard let last = games.filter(\.isFinal).max(by: { ($0.startDate ?? .distantPast) < ($1.startDate ?? .distantPast) }) else {
            throw FanError(
                "\(team) has not played yet in \(schedule.currentSeason.map(String.init) ?? "the current season"); `faceoff next \(team)` says when it does"
            )
        }
        return last.id
    }

    /// The games of `day` (the NHL's today when nil) across the league: one request.
    public func scores(on day: CalendarDay?) async throws -> Output<ScoresReport> {
        let fetched = try await client.fetch(.score(day.map { .date($0.description) } ?? .now))
        return Output(report: ScoresReport(score: fetched.value, followed: followed, time: time), notes: notes([fetched]))
    }

    public func standings(by grouping: StandingsReport.Grouping) async throws -> Output<StandingsReport> {
        let fetched = try await client.fetch(.standings())
        guard !(fetched.value.standings ?? []).isEmpty else {
            throw FanError("the NHL has published no standings yet (the season hasn't started)")
        }
        return Output(report: StandingsReport(standings: fetched.value, by: grouping, followed: followed), notes: notes([fetched]))
    }

    /// The season's bracket (a 404 or an empty one: not published yet), the team's run from
    /// its club schedule, and before the bracket the regular season's end and the team's race.
    public func playoffs(team: String?, season: Season?) async throws -> Output<PlayoffsReport> {
        let season = season ?? Season(CurrentSeason.id(at: now, timeZone: time.timeZone))!
        var fetchedNotes = StaleNotes()
        var bracket: PlayoffBracket?
        do {
            let fetched = try await client.fetch(.playoffBracket(season.startYear + 1))
            bracket = fetched.value
            fetchedNotes.add(fetched)
        } catch let error as APIError where error.code == .notFound {
            bracket = nil
        }
        var schedule: ClubSchedule?
        if let team {
            // A team with no games that season has nothing to show; that is said, not an error.
            if let fetched = try? await client.fetch(.clubSchedule(team, season: season.id)) {
                schedule = fetched.value
                fetchedNotes.add(fetched)
            }
        }
        var standings: Standings?
        var regularSeasonEnds: String?
        if (bracket?.series ?? []).isEmpty {
            if team != nil, let fetched = try? await client.fetch(.standings()) {
                standings = fetched.value
                fetchedNotes.add(fetched)
            }
            if let fetched = try? await client.fetch(.schedule()) {
                regularSeasonEnds = fetched.value.regularSeasonEndDate
                fetchedNotes.add(fetched)
            }
        }
        // How many overtimes a playoff game took is in its play-by-play (kept for good once
        // the game is over), not in the schedule; without it the game says OT.
        var overtimes: [Int: String] = [:]
        for game in schedule?.games ?? [] where game.gameType == .playoffs && game.gameState?.isFinal == true {
            guard let id = game.id, (game.gameOutcome?.lastPeriodType ?? game.periodDescriptor?.periodType) == .ot,
                let feed = try? await client.fetch(.playByPlay(id)), let number = feed.value.periodDescriptor?.number, number > 4
            else { continue }
            overtimes[id] = "\(number - 3)OT"
        }
        let report = PlayoffsReport(
            season: season, bracket: bracket, team: team, schedule: schedule, standings: standings, regularSeasonEnds: regularSeasonEnds,
            followed: followed, time: time, now: now, overtimes: overtimes)
        return Output(report: report, notes: fetchedNotes.lines)
    }

    public func roster(team: String) async throws -> Output<RosterReport> {
        let fetched = try await client.fetch(.roster(team))
        let report = RosterReport(roster: fetched.value, team: team, now: now, time: time)
        return Output(report: report, notes: notes([fetched]))
    }

    public func player(id: Int) async throws -> Output<PlayerReport> {
        let fetched = try await client.fetch(.player(id))
        let season = CurrentSeason.id(at: now, timeZone: time.timeZone)
        return Output(report: PlayerReport(landing: fetched.value, season: season, now: now, time: time), notes: notes([fetched]))
    }

    public func teams() async -> Output<TeamsReport> {
        // The team list and names come from the standings when they can be had.
        if let fetched = try? await client.fetch(.standings()), !(fetched.value.standings ?? []).isEmpty {
            return Output(report: TeamsReport(standings: fetched.value), notes: notes([fetched]))
        }
        return Output(report: TeamsReport(standings: nil), notes: ["the standings could not be fetched; showing the built-in team list"])
    }
}

/// A fan command could not answer, phrased for the user.
public struct FanError: ReportedError, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Where a report's answers came from, said once however many requests it made: the oldest
/// copy used ("using data from 3 h ago (offline)"), not one note per request.
struct StaleNotes {
    private var oldest: (age: TimeInterval, note: String)?

    mutating func add(_ fetched: Fetched<some Sendable>) {
        guard case .stale(let age, _) = fetched.origin, let note = fetched.staleness, age >= (oldest?.age ?? -1) else { return }
        oldest = (age, note)
    }

    var lines: [String] { oldest.map { [$0.note] } ?? [] }
}
