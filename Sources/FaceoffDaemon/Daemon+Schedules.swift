import FaceoffAPI
import FaceoffBase
import FaceoffKit
import FaceoffMQTT
import FaceoffNHL
import Foundation
import Logging

/// Asking for the schedules again, and what their answers do to the timeline.
extension Daemon {
    /// Fetches the schedules (conditional GETs), rewrites the calendars, and puts the games to
    /// plan for on the timeline with the time of the next refresh: the configured one when
    /// every schedule was current, within minutes when one was not (a failure, or an answer
    /// not trusted, so the last good copy was planned from).
    func refresh(_ parts: inout Parts, _ timeline: inout Timeline<C.Instant>) async {
        let fetched = await fetchSchedules(&parts)
        if Task.isCancelled { return }
        if let fetched {
            timeline.games = fetched.games
            // A team whose schedule could not be had this time keeps its games listed: a
            // watcher's 404 is no reason to drop a game its schedule merely went unread for.
            listed.withLock { $0 = fetched.current ? Set(fetched.games.keys) : $0.union(fetched.games.keys) }
        }
        if fetched?.current == true {
            timeline.nextRefresh = dependencies.clock.now.advanced(by: parts.session.config.calendar.refresh)
        } else if outage.start != nil {
            // Offline: the outage was logged once; look again soon, so that the
            // schedule is back within a poll or two of the network.
            timeline.nextRefresh = dependencies.clock.now.advanced(by: max(parts.session.config.watch.poll, .seconds(30)))
        } else {
            timeline.nextRefresh = dependencies.clock.now.advanced(by: Self.scheduleRetry)
        }
    }

    /// How soon a schedule that could not be refreshed is asked for again (the API answering).
    static var scheduleRetry: Duration { .seconds(300) }

    /// The games to plan for, whether every schedule was current, and the calendars
    /// rewritten; nil when no schedule could be had at all.
    func fetchSchedules(_ parts: inout Parts) async -> (games: [Int: Timeline<C.Instant>.Game], current: Bool)? {
        let config = parts.session.config
        var teams = config.nhlTeams
        // The NHL's player ids have seven digits from 8,000,000; an NBA player followed by his
        // ESPN athlete id (for his milestones) is not the NHL's to look up.
        for player in config.players where (8_000_000..<9_000_000).contains(player) {
            if let team = try? await parts.client.fetch(.player(player)).value.currentTeamAbbrev, !teams.contains(team) {
                teams.append(team)
            }
        }
        parts.teams = teams
        var games: [Int: Timeline<C.Instant>.Game] = [:]
        var fetched = 0
        var current = true
        let date = dependencies.now()
        let followed =
            teams.map { TeamKey(league: .nhl, abbrev: $0) } + config.teamKeys.filter { $0.league != .nhl }
        let time = LocalTime(timeZone: config.timeZone)
        for team in followed {
            let key = team.written
            do {
                let league = team.league.definition
                let read = try await league.schedule(
                    of: team, client: league.client(among: [parts.client, parts.espn]), at: date, time: time)
                fetched += 1
                if let (age, reason) = read.stale {
                    current = false
                    scheduleTrouble(
                        key, "the schedule answer was not usable; planning from the last good copy and asking again every 5 min",
                        ["copy_age": "\(AgeText.describe(age))", "error": "\(reason)"])
                } else {
                    scheduleTrouble(key, nil)
                }
                announceChanges(team: key, games: read.changes, at: date, config: config)
                for game in read.planned { games[game.id] = game }
            } catch is CancellationError {
                // Stopping (SIGTERM): nothing failed, and there is no "again".
                return nil
            } catch {
                current = false
                scheduleTrouble(key, "schedule fetch failed; asking again every 5 min", ["error": "\(error)"])
            }
        }
        guard fetched > 0 || followed.isEmpty else { return nil }
        let reports = await parts.publisher.publish(parts.feeds)
        for report in reports {
            for warning in report.warnings {
                logger.warning("calendar written without a team", metadata: ["feed": "\(report.feed)", "why": "\(warning)"])
            }
            if let error = report.error {
                logger.error("calendar not written; the last good file stays", metadata: ["feed": "\(report.feed)", "error": "\(error)"])
            } else {
                logger.info(
                    "calendar written",
                    metadata: [
                        "feed": "\(report.feed)", "events": "\(report.events)", "changed": "\(report.changed)", "path": "\(report.path)",
                    ])
            }
        }
        return (games, current)
    }

    /// Routes a `schedule_change` for each change since the team's last accepted schedule
    /// (a stale copy standing in for a refused answer is that schedule, so no change).
    /// - Parameter team: as the config writes it (`TOR`, `nba:LAL`).
    func announceChanges(team: String, games: [ScheduleChanges.Game], at date: Date, config: Config) {
        let before = lastSchedules.withLock { schedules in
            let before = schedules[team]
            schedules[team] = (games, (before?.known ?? []).union(games.map(\.id)))
            return before
        }
        guard let before else { return }
        let changes = ScheduleChanges.events(
            team: team, before: before.games, after: games, known: before.known, now: date, time: LocalTime(timeZone: config.timeZone))
        for event in changes {
            logger.info(
                "schedule changed", metadata: ["team": "\(team)", "game": "\(event.gameId)", "change": "\(event.details["change"] ?? "")"])
            routing.route(event)
        }
    }

    /// A team's schedule trouble is logged once when it begins and once when it ends; while
    /// the API is unreachable the outage says it all.
    func scheduleTrouble(_ team: String, _ message: Logger.Message?, _ metadata: Logger.Metadata = [:]) {
        let quiet = outage.start != nil
        // Whether this changes what the log has said of the team.
        let say = troubled.withLock { teams -> Bool in
            guard message != nil else { return teams.removeValue(forKey: team) == true }
            if teams[team] == true { return false }
            teams[team] = !quiet
            return !quiet
        }
        guard say else { return }
        if let message {
            logger.warning(message, metadata: metadata.merging(["team": "\(team)"]) { $1 })
        } else {
            logger.notice("the schedule answer is good again", metadata: ["team": "\(team)"])
        }
    }
}
