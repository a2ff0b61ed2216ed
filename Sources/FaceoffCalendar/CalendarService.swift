import FaceoffAPI
import FaceoffBase
import FaceoffESPN
import FaceoffKit
import FaceoffNHL
import Foundation
import Logging
import Synchronization

/// Builds feeds from the schedules (through the cache) and the stored calendar state, shaped
/// by `[calendar]` in the config (`CalendarSettings`, with `faceoff calendar`'s flags applied).
public struct CalendarService: Sendable {
    let client: APIClient
    let state: CalendarState?
    let templates: TemplateSet
    let options: CalendarSettings
    let now: @Sendable () -> Date
    let logger: Logger
    /// Finals the daemon saw in the play-by-play before the schedule shows them.
    let overlay: ScheduleOverlay?
    /// ESPN's, for the NBA teams' feeds; nil where none is followed.
    let espn: APIClient?
    /// Ask ESPN for both season parts again (conditional GETs) before each publish rather
    /// than use a fresh cached copy: `run` sets it, so a feed written after its schedule
    /// refresh shows what that refresh announced (the refresh asks for the plain schedule,
    /// another URL). The publisher asks once per team and part (`askForSeasonParts`), however
    /// many feeds hold the team.
    public var revalidateSeasonParts = false

    public init(
        client: APIClient, state: CalendarState?, templates: TemplateSet, options: CalendarSettings,
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "faceoff.calendar"),
        overlay: ScheduleOverlay? = nil, espn: APIClient? = nil
    ) {
        self.overlay = overlay
        self.espn = espn
        self.client = client
        self.state = state
        self.templates = templates
        self.options = options
        self.now = now
        self.logger = logger
    }

    /// Asks ESPN once for both season parts of each NBA team in `kinds` (conditional GETs),
    /// so the feeds built next read what the server has now from the cache. A failure is left
    /// for the feed to meet and say.
    public func askForSeasonParts(of kinds: [FeedKind]) async {
        guard let espn else { return }
        var teams: [NBATeam] = []
        for team in kinds.flatMap(\.teams).compactMap(NBATeams.team(written:)) where !teams.contains(team) { teams.append(team) }
        for team in teams {
            for part in [ESPNSeasonType.regular, .postseason] {
                _ = try? await espn.fetch(.nbaSchedule(team, part: part), revalidate: true)
            }
        }
    }

    /// The feed, notes about where its data came from (stale copies), and warnings about the
    /// teams whose schedule could not be had: a feed of several teams is built from those that
    /// answered, and each one that did not keeps the games it had (`build`'s `unavailable`).
    /// Only when no team answered does it fail.
    public func feed(_ kind: FeedKind) async throws -> (feed: CalendarFeed, notes: [String], warnings: [String]) {
        let seasonSegment = options.season == "current" ? "now" : options.season
        var schedules: [(team: String, schedule: ClubSchedule)] = []
        var notes: [String] = []
        var failed: [(team: String, error: any Error)] = []
        let basketball = kind.teams.compactMap(NBATeams.team(written:))
        let hockey = kind.teams.filter { (TeamKey(written: $0)?.league ?? .nhl) == .nhl }
        // A league whose calendar is not in Faceoff yet: said, and the others' feed still built.
        for team in kind.teams {
            guard let league = TeamKey(written: team)?.league, league != .nhl, league != .nba else { continue }
            failed.append((team, CalendarError("Faceoff has no calendar for the \(league.name) yet")))
        }
        await withTaskGroup(of: (String, Result<Fetched<ClubSchedule>, any Error>).self) { group in
            var pending = hockey[...]
            func startNext() {
                guard let team = pending.popFirst() else { return }
                group.addTask {
                    do { return (team, .success(try await client.fetch(.clubSchedule(team, season: seasonSegment)))) } catch {
                        return (team, .failure(error))
                    }
                }
            }
            for _ in 0..<6 { startNext() }
            while let (team, result) = await group.next() {
                switch result {
                case .success(let fetched):
                    schedules.append((team, overlay?.apply(fetched.value) ?? fetched.value))
                    if let note = fetched.staleness { notes.append("\(team): \(note)") }
                case .failure(let error):
                    failed.append((team, error))
                }
                startNext()
            }
        }
        var nba: [(team: NBATeam, schedule: ESPNTeamSchedule)] = []
        for team in basketball {
            do {
                guard let espn else { throw CalendarError("the \(team.name)' feed needs ESPN's API, and none was given") }
                // The whole season: ESPN's plain answer is its current part only, and at the
                // playoffs' start the regular season would leave it.
                var parts: [(team: NBATeam, schedule: ESPNTeamSchedule)] = []
                for part in [ESPNSeasonType.regular, .postseason] {
                    let fetched = try await espn.fetch(.nbaSchedule(team, part: part))
                    parts.append((team, fetched.value))
                    if let note = fetched.staleness {
                        notes.append("nba:\(team.abbrev) (\(part == .regular ? "regular season" : "playoffs")): \(note)")
                    }
                }
                nba += parts
            } catch {
                failed.append(("nba:\(team.abbrev)", error))
            }
        }
        // Nothing answered: there is nothing to build from.
        if let first = failed.first, failed.count == kind.teams.count { throw first.error }
        var records: [String: String] = [:]
        if options.scores, !hockey.isEmpty, let standings = try? await client.fetch(.standings()) {
            for row in standings.value.standings ?? [] {
                guard let abbrev = row.teamAbbrev?.value else { continue }
                records[abbrev] = "\(row.wins ?? 0)-\(row.losses ?? 0)-\(row.otLosses ?? 0)"
            }
        }
        // In the feed's order of teams, whichever failed first.
        let warnings = kind.teams.compactMap { team in
            failed.first { $0.team == team }.map { "\(team)'s schedule could not be had (\($0.error)); its games stay as last published" }
        }
        return (
            try await build(kind, schedules: schedules, records: records, nba: nba, unavailable: Set(failed.map(\.team))), notes, warnings
        )
    }

    /// The feed from schedules already in hand (each team's, any order) and "W-L-OT" records
    /// by abbreviation: no network, so benchmarks and tests can time and drive it alone.
    /// - Parameter unavailable: followed teams whose schedule could not be had this time:
    ///   their games stay as the state last had them, neither dropped nor cancelled.
    public func build(
        _ kind: FeedKind, schedules: [(team: String, schedule: ClubSchedule)], records: [String: String],
        nba: [(team: NBATeam, schedule: ESPNTeamSchedule)] = [], unavailable: Set<String> = []
    ) async throws -> CalendarFeed {
        let order = kind.teams
        let position = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let schedules = schedules.sorted { (position[$0.team] ?? 0) < (position[$1.team] ?? 0) }

        let season =
            schedules.compactMap(\.schedule.currentSeason).first.map(String.init)
            // ESPN's season year is the year it ends in: 2026 is 2025-26, "20252026" as the NHL writes it.
            ?? nba.compactMap(\.schedule.season?.year).first.map { "\($0 - 1)\($0)" }
            ?? (options.season == "current" ? CurrentSeason.id(at: now(), timeZone: .current) : options.season)

        // Each game once, seen from the first team of `order` that plays in it. Games are
        // read in place, by position (copying one retains each of its strings).
        let lists = schedules.map { $0.schedule.games ?? [] }
        var games: [(list: Int, index: Int, perspective: String?)] = []
        var allIDs: Set<Int> = []
        for (list, (team, _)) in schedules.enumerated() {
            for index in lists[list].indices {
                guard let id = lists[list][index].id, allIDs.insert(id).inserted else { continue }
                games.append((list, index, kind == .all ? nil : team))
            }
        }
        let keys = games.map { (lists[$0.list][$0.index].startTimeUTC ?? "~", lists[$0.list][$0.index].id ?? 0) }
        games = games.indices.sorted { keys[$0] < keys[$1] }.map { games[$0] }

        var builder = GameEventBuilder(
            templates: templates, scores: options.scores, duration: options.duration,
            reminders: options.reminders.map { Int($0.components.seconds) }, records: records)
        for list in lists { builder.series.merge(SeriesState.states(list)) { first, _ in first } }
        let date = now()
        let wanted = Set(options.gameTypes.map(\.code))
        var unplaced: Set<Int> = []
        var events: [(Int, CalendarEvent)] = games.compactMap { entry in
            guard let id = lists[entry.list][entry.index].id, wanted.contains(lists[entry.list][entry.index].gameType?.rawValue ?? 0) else {
                return nil
            }
            var perspective = entry.perspective
            if perspective != nil, options.homeOnly || options.awayOnly {
                // Seen from a followed team the filter keeps (for favourites, either side may be).
                let sides = [lists[entry.list][entry.index].homeTeam?.abbrev, lists[entry.list][entry.index].awayTeam?.abbrev]
                let wantedSide = options.homeOnly ? sides[0] : sides[1]
                guard let team = wantedSide, order.contains(team) else { return nil }
                perspective = team
            }
            guard let event = builder.event(for: lists[entry.list][entry.index], perspective: perspective) else {
                unplaced.insert(id)
                return nil
            }
            if options.futureOnly, event.end < date { return nil }
            return (id, event)
        }
        for (team, schedule) in nba {
            for game in schedule.events ?? [] {
                guard let id = game.id.flatMap({ Int($0) }), allIDs.insert(id).inserted,
                    wanted.contains(game.seasonType?.type ?? 2)
                else { continue }
                guard var event = builder.event(nba: game, team: kind == .all ? nil : team) else {
                    unplaced.insert(id)
                    continue
                }
                if kind != .all, options.homeOnly || options.awayOnly {
                    let side = options.homeOnly ? event.teams?.last : event.teams?.first
                    guard let side, order.contains(side) else { continue }
                    if side != "nba:\(team.abbrev)", let other = NBATeams.team(written: side) {
                        event = builder.event(nba: game, team: other) ?? event
                    }
                }
                if options.futureOnly, event.end < date { continue }
                events.append((id, event))
            }
        }
        events.sort { ($0.1.start, $0.0) < ($1.1.start, $1.0) }
        if games.isEmpty && nba.allSatisfy({ ($0.schedule.events ?? []).isEmpty }) && unavailable.isEmpty {
            throw CalendarError("the schedule came back with no games (check `faceoff schedule`)")
        }

        let finalEvents = try await stamp(
            events, feed: stateKey(kind), season: season, scheduled: allIDs, unplaced: unplaced, teams: Set(order),
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
        case .team(let written) where NBATeams.team(written: written) != nil:
            let name = NBATeams.team(written: written)?.name ?? written
            title = "\(name) \(label)"
            description = "\(name) games of the NBA's \(label) season (kept current by Faceoff)"
        case .team(let abbrev):
            let facts = TeamFactsTable.facts(for: abbrev)
            let name = facts?.fullName ?? Teams.info(abbrev)?.fullName ?? abbrev
            title = "\(name) \(label)"
            description = "\(name) games of the \(label) season (kept current by Faceoff)"
            color = facts?.primary
        case .favourites(let teams):
            title = "Faceoff favourites \(label)"
            description = "Games of \(teams.joined(separator: " · ")) in the \(label) season (kept current by Faceoff)"
            color = teams.first.flatMap { TeamFactsTable.facts(for: $0)?.primary }
        case .all:
            title = "NHL \(label)"
            description = "Every NHL game of the \(label) season (kept current by Faceoff)"
        }
        return CalendarFeed(name: kind.name, title: title, description: description, color: color, refresh: options.refresh, events: events)
    }
}
