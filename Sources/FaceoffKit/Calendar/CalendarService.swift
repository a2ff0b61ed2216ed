import Foundation
import Logging

/// The choices that shape a feed: `[calendar]` in the config, overridden by command-line flags.
public struct CalendarOptions: Sendable, Equatable {
    /// "current" or a season id such as "20252026".
    public var season = "current"
    public var types: [GameTypeName] = [.regular, .playoffs]
    public var homeOnly = false
    public var awayOnly = false
    /// Leave out games that have finished.
    public var futureOnly = false
    public var reminders: [Duration] = []
    public var duration: Duration = .seconds(3 * 3600)
    public var refresh: Duration = .seconds(6 * 3600)
    public var scores = true

    public init() {}

    public init(_ settings: CalendarSettings) {
        season = settings.season
        types = settings.gameTypes
        homeOnly = settings.homeOnly
        awayOnly = settings.awayOnly
        futureOnly = settings.futureOnly
        reminders = settings.reminders
        duration = settings.duration
        refresh = settings.refresh
        scores = settings.scores
    }
}

/// Which feed: one team's, the followed teams' combined, or the whole league's.
public enum FeedKind: Sendable, Equatable {
    case team(String)
    case favourites([String])
    case all

    public var name: String {
        switch self {
        case .team(let abbrev): abbrev
        case .favourites: "favourites"
        case .all: "all"
        }
    }

    var teams: [String] {
        switch self {
        case .team(let abbrev): [abbrev]
        case .favourites(let teams): teams
        case .all: Teams.abbreviations
        }
    }
}

/// Builds feeds from the schedules (through the cache) and the stored calendar state.
public struct CalendarService: Sendable {
    let client: NHLClient
    let state: CalendarState?
    let templates: TemplateSet
    let options: CalendarOptions
    let now: @Sendable () -> Date
    let logger: Logger

    public init(
        client: NHLClient, state: CalendarState?, templates: TemplateSet, options: CalendarOptions,
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "faceoff.calendar")
    ) {
        self.client = client
        self.state = state
        self.templates = templates
        self.options = options
        self.now = now
        self.logger = logger
    }

    /// The feed and notes about where its data came from (stale copies).
    public func feed(_ kind: FeedKind) async throws -> (feed: CalendarFeed, notes: [String]) {
        let seasonSegment = options.season == "current" ? "now" : options.season
        var schedules: [(team: String, schedule: ClubSchedule)] = []
        var notes: [String] = []
        try await withThrowingTaskGroup(of: (String, Fetched<ClubSchedule>).self) { group in
            var pending = kind.teams[...]
            func startNext() {
                guard let team = pending.popFirst() else { return }
                group.addTask { (team, try await client.fetch(.clubSchedule(team, season: seasonSegment))) }
            }
            for _ in 0..<6 { startNext() }
            while let (team, fetched) = try await group.next() {
                schedules.append((team, fetched.value))
                if let note = fetched.staleness { notes.append("\(team): \(note)") }
                startNext()
            }
        }
        var records: [String: String] = [:]
        if options.scores, let standings = try? await client.fetch(.standings()) {
            for row in standings.value.standings ?? [] {
                guard let abbrev = row.teamAbbrev?.value else { continue }
                records[abbrev] = "\(row.wins ?? 0)-\(row.losses ?? 0)-\(row.otLosses ?? 0)"
            }
        }
        return (try build(kind, schedules: schedules, records: records), notes)
    }

    /// The feed from schedules already in hand (each team's, any order) and "W-L-OT" records
    /// by abbreviation: no network, so benchmarks and tests can time and drive it alone.
    public func build(_ kind: FeedKind, schedules: [(team: String, schedule: ClubSchedule)], records: [String: String]) throws -> CalendarFeed {
        let order = kind.teams
        let schedules = schedules.sorted { (order.firstIndex(of: $0.team) ?? 0) < (order.firstIndex(of: $1.team) ?? 0) }

        let season = schedules.compactMap(\.schedule.currentSeason).first.map(String.init)
            ?? (options.season == "current" ? CurrentSeason.id(at: now(), timeZone: .current) : options.season)

        // Each game once, seen from the first team of `order` that plays in it.
        var games: [(game: ScheduleGame, perspective: String?)] = []
        var allIDs: Set<Int> = []
        for (team, schedule) in schedules {
            for game in schedule.games ?? [] {
                guard let id = game.id, allIDs.insert(id).inserted else { continue }
                games.append((game, kind == .all ? nil : team))
            }
        }
        // Sort small keys, not the (large) games themselves.
        let keys = games.indices.map { ($0, games[$0].game.startTimeUTC ?? "~", games[$0].game.id ?? 0) }
        games = keys.sorted { ($0.1, $0.2) < ($1.1, $1.2) }.map { games[$0.0] }

        let builder = GameEventBuilder(
            templates: templates, scores: options.scores, duration: options.duration,
            reminders: options.reminders.map { Int($0.components.seconds) }, records: records)
        let date = now()
        let wanted = Set(options.types.map(\.code))
        let events: [(Int, CalendarEvent)] = games.compactMap { entry in
            guard let id = entry.game.id, wanted.contains(entry.game.gameType?.rawValue ?? 0) else { return nil }
            if let team = entry.perspective {
                let home = entry.game.homeTeam?.abbrev == team
                if options.homeOnly && !home { return nil }
                if options.awayOnly && home { return nil }
            }
            guard let event = builder.event(for: entry.game, perspective: entry.perspective) else { return nil }
            if options.futureOnly, event.end < date { return nil }
            return (id, event)
        }

        let feedName = kind.name
        let finalEvents = try stamp(events, feed: feedName, season: season, scheduled: allIDs, at: date)
        return describe(kind, season: season, events: finalEvents)
    }

    /// Gives each event its SEQUENCE and LAST-MODIFIED from the stored state, and brings back
    /// games that left the schedule as cancelled.
    private func stamp(_ events: [(Int, CalendarEvent)], feed: String, season: String, scheduled: Set<Int>, at date: Date) throws -> [CalendarEvent] {
        guard let state else {
            return events.map { _, event in
                var event = event
                event.lastModified = date
                return event
            }
        }
        let rows = try state.update(feed: feed) { existing in
            var rows: [CalendarState.Row] = []
            for (id, built) in events {
                var event = built
                let fingerprint = GameEventBuilder.fingerprint(built)
                let hash = GameEventBuilder.contentHash(built)
                if let old = existing[id] {
                    event.sequence = old.sequence + (old.fingerprint == fingerprint && !old.vanished ? 0 : 1)
                    event.lastModified = old.contentHash == hash && !old.vanished ? old.lastModified : date
                } else {
                    event.sequence = 0
                    event.lastModified = date
                }
                rows.append(CalendarState.Row(
                    gameID: id, season: season, fingerprint: fingerprint, contentHash: hash, sequence: event.sequence,
                    lastModified: event.lastModified, vanished: false, event: event))
            }
            // A game this feed showed that the schedule no longer has (a playoff game that
            // wasn't needed) stays, cancelled, so clients remove it instead of keeping a ghost.
            for (id, old) in existing where old.season == season && !scheduled.contains(id) {
                if old.vanished {
                    rows.append(old)
                    continue
                }
                var event = old.event
                event.status = .cancelled
                if !event.summary.hasPrefix("CANCELLED") { event.summary = "CANCELLED: " + event.summary }
                event.sequence = old.sequence + 1
                event.lastModified = date
                rows.append(CalendarState.Row(
                    gameID: id, season: season, fingerprint: GameEventBuilder.fingerprint(event),
                    contentHash: GameEventBuilder.contentHash(event), sequence: event.sequence, lastModified: date,
                    vanished: true, event: event))
            }
            return rows
        }
        return rows.map(\.event).sorted { ($0.start, $0.uid) < ($1.start, $1.uid) }
    }

    private func describe(_ kind: FeedKind, season: String, events: [CalendarEvent]) -> CalendarFeed {
        let label = Season(season)?.description ?? season
        let title: String
        let description: String
        var color: RGB?
        switch kind {
        case .team(let abbrev):
            let facts = TeamFactsTable.facts(for: abbrev)
            let name = facts?.fullName ?? Teams.info(abbrev)?.fullName ?? abbrev
            title = "\(name) \(label)"
            description = "\(name) games, \(label) season, kept current by Faceoff."
            color = facts?.primary
        case .favourites(let teams):
            title = "Faceoff favourites \(label)"
            description = "Games of \(teams.joined(separator: ", ")), \(label) season, kept current by Faceoff."
            color = teams.first.flatMap { TeamFactsTable.facts(for: $0)?.primary }
        case .all:
            title = "NHL \(label)"
            description = "Every NHL game of the \(label) season, kept current by Faceoff."
        }
        return CalendarFeed(name: kind.name, title: title, description: description, color: color, refresh: options.refresh, events: events)
    }
}
