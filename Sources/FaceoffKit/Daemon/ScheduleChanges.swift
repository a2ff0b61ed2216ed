import FaceoffBase
import FaceoffESPN
import FaceoffNHL
import Foundation

/// What changed in a team's schedule between two answers `run` accepted (an answer refused
/// as empty or wrong never gets here: the last good copy stands in for it, and is no change):
/// a game moved, given its time, postponed, cancelled, added, or moved to another arena.
/// Games played or under way are no schedule news. Each change is one `schedule_change`
/// whose id names the new state, so the ledger sends it once however often it is seen.
package enum ScheduleChanges {
    /// A scheduled game as both leagues' schedules give it, with what a change is told by.
    package struct Game: Sendable {
        package var id: Int
        package var season: Int?
        package var away: String?
        package var home: String?
        package var start: Date?
        /// The start as the answer writes it, and its schedule state's raw name: part of a
        /// change's key.
        package var startUTC: String?
        package var stateName: String?
        package var timeTBD: Bool
        package var postponed: Bool
        package var cancelled: Bool
        /// Live or over: no schedule news.
        package var played: Bool
        package var venue: String?
        package var league: League?
        /// A game with no time yet that the answer dates at its day's midnight in the league's
        /// own zone (ESPN's: US Eastern): that day, `2025-04-13`, whatever the fan's zone.
        package var undatedDay: String?

        /// An NHL game of a club schedule.
        package init?(_ game: ScheduleGame) {
            guard let id = game.id else { return nil }
            self.id = id
            season = game.season
            away = game.awayTeam?.abbrev
            home = game.homeTeam?.abbrev
            start = game.startTime
            startUTC = game.startTimeUTC
            stateName = game.gameScheduleState?.rawValue
            timeTBD = game.gameScheduleState?.isTimeTBD == true
            postponed = game.gameScheduleState?.isPostponed == true
            cancelled = game.gameScheduleState?.isCancelled == true
            played = game.gameState?.isFinal == true || game.gameState?.isLive == true
            venue = game.venue?.value
        }

        /// An NBA game of ESPN's team schedule (a game with no time yet is on its day, TBD).
        package init?(nba event: ESPNEvent, season: Int?) {
            guard let id = event.id.flatMap({ Int($0) }), let competition = event.competition,
                let away = competition.competitor("away")?.team?.abbreviation,
                let home = competition.competitor("home")?.team?.abbreviation
            else { return nil }
            self.id = id
            self.season = season
            self.away = away
            self.home = home
            start = event.startDate
            startUTC = event.date
            let status = competition.status?.game
            stateName = competition.status?.type?.name
            timeTBD = !event.hasTime
            undatedDay = timeTBD ? event.date.flatMap(ESPNDate.easternDay) : nil
            postponed = status == "postponed"
            cancelled = status == "cancelled"
            played = status == "live" || status == "final"
            venue = competition.venue?.fullName
            league = .nba
        }
    }

    package static func events(
        team: String, before: [ScheduleGame], after: [ScheduleGame], known: Set<Int> = [], now: Date, time: LocalTime
    ) -> [GameEvent] {
        events(team: team, before: before.compactMap(Game.init), after: after.compactMap(Game.init), known: known, now: now, time: time)
    }

    /// - Parameter team: the followed team, as the config writes it (`TOR`, `nba:LAL`).
    /// - Parameter known: the ids of every game an earlier answer of this run had: a game
    ///   missing from one answer and back in the next is not "added".
    package static func events(team: String, before: [Game], after: [Game], known: Set<Int> = [], now: Date, time: LocalTime)
        -> [GameEvent]
    {
        // Another season's schedule (the "now" answer rolled over): nothing to compare.
        let seasons = (Set(before.compactMap(\.season)), Set(after.compactMap(\.season)))
        if !seasons.0.isEmpty, !seasons.1.isEmpty, seasons.0.isDisjoint(with: seasons.1) { return [] }
        let old = Dictionary(before.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func when(_ game: Game) -> String? {
            guard let start = game.start else { return nil }
            guard game.timeTBD else { return "\(time.day(start)) \(time.time(start))" }
            // A game dated at midnight in the league's zone is on that zone's day (noon UTC of
            // that day is that day everywhere the NBA plays).
            if let day = game.undatedDay, let noon = try? Date("\(day)T12:00:00Z", strategy: .iso8601) {
                return "\(time.day(noon)), time TBD"
            }
            return "\(time.day(start)), time TBD"
        }
        var events: [GameEvent] = []
        for game in after {
            guard let away = game.away, let home = game.home else { continue }
            if game.played { continue }
            // A game dated at its day's midnight in the league's zone: not past until that
            // day is.
            let grace: TimeInterval = game.undatedDay != nil ? 86400 : 0
            if let start = game.start, start.addingTimeInterval(grace) < now, !game.postponed { continue }
            var changes: [(change: String, from: String?, to: String?)] = []
            if let previous = old[game.id] {
                if game.cancelled, !previous.cancelled {
                    changes.append(("cancelled", when(previous), nil))
                } else if game.postponed, !previous.postponed {
                    changes.append(("postponed", when(previous), nil))
                } else if !game.cancelled, !game.postponed, let start = game.start {
                    if previous.postponed || previous.cancelled {
                        // Back on the schedule, usually with a new date.
                        changes.append(("rescheduled", previous.start == start ? nil : when(previous), when(game)))
                    } else if previous.timeTBD, !game.timeTBD {
                        changes.append(("time set", nil, when(game)))
                    } else if let before = previous.start, before != start {
                        changes.append(("moved", when(previous), when(game)))
                    }
                }
                if let venue = game.venue, let before = previous.venue, venue != before {
                    changes.append(("new venue", before, venue))
                }
            } else if !before.isEmpty, !known.contains(game.id), !game.cancelled, game.start.map({ $0 > now }) == true {
                changes.append(("added", nil, when(game)))
            }
            for change in changes {
                // The change, from what, and the new state name it: seen again, it is the same
                // event; moved back and forth, each move is news.
                let key = StableHash.hex(
                    [change.change, change.from ?? "", game.startUTC ?? "", game.stateName ?? "", game.venue ?? ""].joined(separator: "|"))
                var details = ["change": change.change]
                if let from = change.from { details["from"] = from }
                if let to = change.to { details["to"] = to }
                if let start = game.startUTC { details["start"] = start }
                var event = GameEvent(
                    kind: .scheduleChange, key: String(key.prefix(12)), gameId: game.id, away: away, home: home,
                    team: TeamKey(written: team)?.abbrev ?? team, score: GameEvent.Score(away: 0, home: 0), details: details)
                event.league = game.league
                events.append(event)
            }
        }
        return events
    }
}
