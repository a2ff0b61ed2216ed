import FaceoffAPI
import FaceoffBase
import FaceoffKit
import Foundation
import Logging
import Synchronization

/// Builds feeds from the schedules (through the cache) and the stored calendar state, shaped
/// by `[calendar]` in the config (`CalendarSettings`, with `faceoff calendar`'s flags applied).
/// Each team's league reads its season (`LeagueDefinition.calendarSeason`); the feed is built
/// from what they give, whatever the leagues.
public struct CalendarService: Sendable {
    /// One client per API (the NHL's, ESPN's): each league reads through the one of its API.
    let clients: [APIClient]
    let state: CalendarState?
    let templates: TemplateSet
    let options: CalendarSettings
    let now: @Sendable () -> Date
    let logger: Logger
    /// Finals the daemon saw in a game's feed before the schedule shows them.
    let overlay: ScheduleOverlay?
    /// Ask each league again for what its seasons read (conditional GETs) before each publish
    /// rather than use a fresh cached copy: `run` sets it, so a feed written after its
    /// schedule refresh shows what that refresh announced where the league reads another URL
    /// (ESPN's season parts). The publisher asks once per team (`refreshSeasons`), however
    /// many feeds hold the team.
    public var revalidateSeasonParts = false

    public init(
        clients: [APIClient], state: CalendarState?, templates: TemplateSet, options: CalendarSettings,
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "faceoff.calendar"),
        overlay: ScheduleOverlay? = nil
    ) {
        self.clients = clients
        self.overlay = overlay
        self.state = state
        self.templates = templates
        self.options = options
        self.now = now
        self.logger = logger
    }

    /// The client of `league`'s API, or why there is none.
    func client(of league: League) throws -> APIClient {
        let definition = league.definition
        guard let client = definition.client(in: clients) else {
            throw CalendarError("the \(league.name) teams' feeds need \(definition.service.name), and none was given")
        }
        return client
    }

    /// Asks each team's league once for what its season reads (conditional GETs), so the feeds
    /// built next read what the server has now from the cache. A failure is left for the feed
    /// to meet and say.
    public func refreshSeasons(of kinds: [FeedKind]) async {
        var teams: [TeamKey] = []
        for team in kinds.flatMap(\.teams).compactMap(TeamKey.init(written:)) where !teams.contains(team) { teams.append(team) }
        for team in teams {
            guard let client = try? client(of: team.league) else { continue }
            await team.league.definition.refreshCalendar(of: team, client: client)
        }
    }

    /// The feed, notes about where its data came from (stale copies), and warnings about the
    /// teams whose schedule could not be had: a feed of several teams is built from those that
    /// answered, and each one that did not keeps the games it had (`build`'s `unavailable`).
    /// Only when no team answered does it fail.
    public func feed(_ kind: FeedKind) async throws -> (feed: CalendarFeed, notes: [String], warnings: [String]) {
        let request = CalendarRequest(season: options.season, scores: options.scores, overlay: overlay)
        var seasons: [(team: String, season: CalendarSeason)] = []
        var failed: [(team: String, error: any Error)] = []
        await withTaskGroup(of: (String, Result<CalendarSeason, any Error>).self) { group in
            var pending = kind.teams[...]
            func startNext() {
                guard let written = pending.popFirst() else { return }
                group.addTask {
                    do {
                        guard let team = TeamKey(written: written) else { throw CalendarError("\(written) is no team Faceoff knows") }
                        let season = try await team.league.definition.calendarSeason(
                            of: team, request: request, client: try client(of: team.league))
                        return (written, .success(season))
                    } catch {
                        return (written, .failure(error))
                    }
                }
            }
            for _ in 0..<6 { startNext() }
            while let (team, result) = await group.next() {
                switch result {
                case .success(let season): seasons.append((team, season))
                case .failure(let error): failed.append((team, error))
                }
                startNext()
            }
        }
        // Nothing answered: there is nothing to build from.
        if let first = failed.first, failed.count == kind.teams.count { throw first.error }
        let position = Dictionary(kind.teams.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        seasons.sort { (position[$0.team] ?? 0) < (position[$1.team] ?? 0) }
        var records: [League: [String: String]] = [:]
        if options.scores {
            for league in Set(seasons.map(\.season.league)) {
                guard let client = try? client(of: league) else { continue }
                records[league] = await league.definition.calendarRecords(client: client)
            }
        }
        // In the feed's order of teams, whichever failed first.
        let warnings = kind.teams.compactMap { team in
            failed.first { $0.team == team }.map { "\(team)'s schedule could not be had (\($0.error)); its games stay as last published" }
        }
        let notes = seasons.flatMap(\.season.notes)
        return (try await build(kind, seasons: seasons, records: records, unavailable: Set(failed.map(\.team))), notes, warnings)
    }

    /// The feed from seasons already in hand (each team's, any order; as the leagues make
    /// them, `LeagueDefinition.calendarSeason`) and records by league and abbreviation: no
    /// network, so benchmarks and tests can time and drive it alone.
    /// - Parameter unavailable: followed teams whose schedule could not be had this time:
    ///   their games stay as the state last had them, neither dropped nor cancelled.
    public func build(
        _ kind: FeedKind, seasons: [(team: String, season: CalendarSeason)], records: [League: [String: String]] = [:],
        unavailable: Set<String> = []
    ) async throws -> CalendarFeed {
        let order = kind.teams
        let position = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let seasons = seasons.sorted { (position[$0.team] ?? 0) < (position[$1.team] ?? 0) }
        // The season the first league of the registry says (the NHL's, then the others', each
        // league's teams in the feed's order), whatever order the feed lists its teams in.
        let leagues = Leagues.all.map(\.league)
        func rank(_ league: League) -> Int { leagues.firstIndex(of: league) ?? leagues.count }
        let season =
            seasons.filter { $0.season.season != nil }.min { rank($0.season.league) < rank($1.season.league) }?.season.season
            ?? (options.season == "current" ? CurrentSeason.id(at: now(), timeZone: .current) : options.season)

        // Each game once, seen from the first team of `order` that plays in it; with home or
        // away games only, from the followed team on that side, and left out when that side
        // is not followed. A feed of every game sees each from nobody.
        let followed = Set(order.map { TeamKey(written: $0)?.written ?? $0 })
        var scheduled: Set<Int> = []
        var unplaced: Set<Int> = []
        // A game is made from its season's entry only once chosen.
        var games: [(list: Int, index: Int, perspective: TeamKey?)] = []
        for (list, (written, entry)) in seasons.enumerated() {
            let team = kind == .all ? nil : TeamKey(written: written)
            for (index, game) in entry.entries.enumerated() where scheduled.insert(game.id).inserted {
                var perspective = team
                if kind != .all, options.homeOnly || options.awayOnly {
                    let side = TeamKey(league: entry.league, abbrev: options.homeOnly ? game.home : game.away)
                    guard followed.contains(side.written) else { continue }
                    perspective = side
                }
                games.append((list, index, perspective))
            }
        }
        let builder = GameEventBuilder(
            templates: templates, scores: options.scores, duration: options.duration,
            reminders: options.reminders.map { Int($0.components.seconds) }, records: records)
        let date = now()
        let wanted = Set(options.gameTypes.map(\.code))
        var events: [(Int, CalendarEvent)] = []
        for (list, index, perspective) in games {
            let entry = seasons[list].season.entries[index]
            guard wanted.contains(entry.typeCode) else { continue }
            guard let game = seasons[list].season.game(index, perspective?.abbrev),
                let event = builder.event(for: game)
            else {
                unplaced.insert(entry.id)
                continue
            }
            if options.futureOnly, event.end < date { continue }
            events.append((entry.id, event))
        }
        events.sort { ($0.1.start, $0.0) < ($1.1.start, $1.0) }
        if scheduled.isEmpty && unavailable.isEmpty {
            throw CalendarError("the schedule came back with no games (check `faceoff schedule`)")
        }

        let finalEvents = try await stamp(
            events, feed: stateKey(kind), season: season, scheduled: scheduled, unplaced: unplaced, teams: Set(order),
            unavailable: unavailable, at: date)
        return describe(kind, season: season, events: finalEvents)
    }

    /// Feeds built with different options keep separate state, so previewing with other flags
    /// never moves the SEQUENCE of the feed on disk.
    func stateKey(_ kind: FeedKind) -> String {
        let types = options.gameTypes.map(\.rawValue).sorted().joined(separator: ",")
        let reminders = options.reminders.map { String($0.components.seconds) }.joined(separator: ",")
        let flags = [
            options.homeOnly ? "home" : "", options.awayOnly ? "away" : "", options.futureOnly ? "future" : "",
            options.scores ? "" : "noscores",
        ]
        .filter { !$0.isEmpty }.joined(separator: ",")
        return "\(kind.name)|\(options.season)|\(types)|\(flags)|\(options.duration.components.seconds)|\(reminders)"
    }

    /// Gives each event its SEQUENCE and LAST-MODIFIED from the stored state, and brings back
    /// games that left the schedule as cancelled.
    private func stamp(
        _ events: [(Int, CalendarEvent)], feed: String, season: String, scheduled: Set<Int>, unplaced: Set<Int>,
        teams: Set<String>, unavailable: Set<String> = [], at date: Date
    ) async throws -> [CalendarEvent] {
        guard let state else {
            return events.map { _, event in
                var event = event
                event.lastModified = date
                return event
            }
        }
        let rows = try await state.update(feed: feed) { existing in
            var rows: [CalendarState.Row] = []
            func row(_ id: Int, _ event: CalendarEvent, vanished: Bool) -> CalendarState.Row {
                CalendarState.Row(
                    gameID: id, season: season, fingerprint: GameEventBuilder.fingerprint(event),
                    contentHash: GameEventBuilder.contentHash(event), sequence: event.sequence, lastModified: event.lastModified,
                    vanished: vanished, event: event)
            }
            for (id, built) in events {
                // A game already played doesn't get cancelled after the fact: keep it as it was.
                // (The NHL cancels before the puck drops; a schedule that unplays a game whose
                // end has passed is wrong. One still final in the schedule is final already:
                // GameSummary.)
                if built.status == .cancelled, let old = existing[id], old.event.status != .cancelled, old.event.end < date {
                    rows.append(old)
                    continue
                }
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
                rows.append(
                    CalendarState.Row(
                        gameID: id, season: season, fingerprint: fingerprint, contentHash: hash, sequence: event.sequence,
                        lastModified: event.lastModified, vanished: false, event: event))
            }
            // A game still scheduled but without a start time: keep what the feed said, marked TBD.
            for id in unplaced {
                guard let old = existing[id] else { continue }
                var event = old.event
                guard event.status != .tentative || !event.summary.hasPrefix("TBD: ") else {
                    rows.append(old)
                    continue
                }
                event.status = .tentative
                event.summary = "TBD: " + GameEventBuilder.withoutStatusPrefix(event.summary)
                event.sequence = old.sequence + 1
                event.lastModified = date
                rows.append(row(id, event, vanished: false))
            }
            // A team whose schedule could not be had keeps the games it had, as they were.
            let built = Set(rows.map(\.gameID))
            for (id, old) in existing
            where !scheduled.contains(id) && !built.contains(id) && !Set(old.event.teams ?? []).isDisjoint(with: unavailable) {
                rows.append(old)
            }
            let handled = Set(rows.map(\.gameID))
            let gone = existing.filter { id, old in
                !handled.contains(id) && old.season == season && !scheduled.contains(id)
                    && Set(old.event.teams ?? []).isDisjoint(with: teams) == false
            }
            // Many games vanishing at once is the API misbehaving, not the league cancelling
            // them; an NBA game that was only ever possible ("if necessary") going away is a
            // series ending early (ESPN drops those).
            let known = existing.values.filter { $0.season == season && !$0.vanished }.count
            let newlyGone = gone.values.filter { !$0.vanished && $0.event.ifNecessary != true }.count
            if ScheduleCheck.implausible(newlyGone, of: known) {
                throw CalendarError(
                    "\(newlyGone) of \(known) games are missing from the schedule; not trusting it")
            }
            for (id, old) in gone {
                if old.vanished {
                    rows.append(old)
                    continue
                }
                // A game already played doesn't get cancelled after the fact: keep it as it was.
                if old.event.end < date {
                    rows.append(old)
                    continue
                }
                // A game this feed showed that the schedule no longer has (a playoff game that
                // wasn't needed) stays, cancelled, so clients remove it instead of keeping a ghost.
                var event = old.event
                event.status = .cancelled
                event.summary = "CANCELLED: " + GameEventBuilder.withoutStatusPrefix(event.summary)
                event.sequence = old.sequence + 1
                event.lastModified = date
                rows.append(row(id, event, vanished: true))
            }
            // Rows of other seasons stay for later; games of teams no longer in the feed go.
            let placed = Set(rows.map(\.gameID))
            for (id, old) in existing where !placed.contains(id) && old.season != season {
                rows.append(old)
            }
            return rows
        }
        return rows.filter { $0.season == season }.map(\.event).sorted { ($0.start, $0.uid) < ($1.start, $1.uid) }
    }

    private func describe(_ kind: FeedKind, season: String, events: [CalendarEvent]) -> CalendarFeed {
        let label = Season(season)?.description ?? season
        let title: String
        let description: String
        var color: RGB?
        switch kind {
        case .team(let written):
            let key = TeamKey(written: written)
            let team = key?.team
            let name = team?.name ?? written
            title = "\(name) \(label)"
            description = "\(name) games of \((key?.league ?? .nhl).definition.seasonWords(label)) (kept current by Faceoff)"
            color = team?.primary
        case .favourites(let teams):
            title = "Faceoff favourites \(label)"
            description = "Games of \(teams.joined(separator: " · ")) in the \(label) season (kept current by Faceoff)"
            color = teams.first.flatMap { TeamKey(written: $0)?.team?.primary }
        case .all:
            title = "\(FeedKind.allLeague.name) \(label)"
            description = "Every \(FeedKind.allLeague.name) game of the \(label) season (kept current by Faceoff)"
        }
        return CalendarFeed(name: kind.name, title: title, description: description, color: color, refresh: options.refresh, events: events)
    }
}
