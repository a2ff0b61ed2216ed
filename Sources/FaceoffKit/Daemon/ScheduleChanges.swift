import FaceoffBase
import FaceoffNHL
import Foundation

/// What changed in a team's schedule between two answers `run` accepted (an answer refused
/// as empty or wrong never gets here: the last good copy stands in for it, and is no change):
/// a game moved, given its time, postponed, cancelled, added, or moved to another arena.
/// Games played or under way are no schedule news. Each change is one `schedule_change`
/// whose id names the new state, so the ledger sends it once however often it is seen.
package enum ScheduleChanges {
    /// - Parameter known: the ids of every game an earlier answer of this run had: a game
    ///   missing from one answer and back in the next is not "added".
    package static func events(
        team: String, before: [ScheduleGame], after: [ScheduleGame], known: Set<Int> = [], now: Date, time: LocalTime
    ) -> [GameEvent] {
        // Another season's schedule (the "now" answer rolled over): nothing to compare.
        let seasons = (Set(before.compactMap(\.season)), Set(after.compactMap(\.season)))
        if !seasons.0.isEmpty, !seasons.1.isEmpty, seasons.0.isDisjoint(with: seasons.1) { return [] }
        let old = Dictionary(before.compactMap { game in game.id.map { ($0, game) } }, uniquingKeysWith: { first, _ in first })
        func when(_ game: ScheduleGame) -> String? {
            guard let start = game.startTime else { return nil }
            return game.gameScheduleState?.isTimeTBD == true ? "\(time.day(start)), time TBD" : "\(time.day(start)) \(time.time(start))"
        }
        var events: [GameEvent] = []
        for game in after {
            guard let id = game.id, let away = game.awayTeam?.abbrev, let home = game.homeTeam?.abbrev else { continue }
            if game.gameState?.isFinal == true || game.gameState?.isLive == true { continue }
            if let start = game.startTime, start < now, game.gameScheduleState?.isPostponed != true { continue }
            let state = game.gameScheduleState
            var changes: [(change: String, from: String?, to: String?)] = []
            if let previous = old[id] {
                let was = previous.gameScheduleState
                if state?.isCancelled == true, was?.isCancelled != true {
                    changes.append(("cancelled", when(previous), nil))
                } else if state?.isPostponed == true, was?.isPostponed != true {
                    changes.append(("postponed", when(previous), nil))
                } else if state?.isCancelled != true, state?.isPostponed != true, let start = game.startTime {
                    if was?.isPostponed == true || was?.isCancelled == true {
                        // Back on the schedule, usually with a new date.
                        changes.append(("rescheduled", previous.startTime == start ? nil : when(previous), when(game)))
                    } else if was?.isTimeTBD == true, state?.isTimeTBD != true {
                        changes.append(("time set", nil, when(game)))
                    } else if let before = previous.startTime, before != start {
                        changes.append(("moved", when(previous), when(game)))
                    }
                }
                if let venue = game.venue?.value, let before = previous.venue?.value, venue != before {
                    changes.append(("new venue", before, venue))
                }
            } else if !before.isEmpty, !known.contains(id), state?.isCancelled != true, game.startTime.map({ $0 > now }) == true {
                changes.append(("added", nil, when(game)))
            }
            for change in changes {
                // The change, from what, and the new state name it: seen again, it is the same
                // event; moved back and forth, each move is news.
                let key = StableHash.hex(
                    [change.change, change.from ?? "", game.startTimeUTC ?? "", state?.rawValue ?? "", game.venue?.value ?? ""]
                        .joined(separator: "|"))
                var details = ["change": change.change]
                if let from = change.from { details["from"] = from }
                if let to = change.to { details["to"] = to }
                if let start = game.startTimeUTC { details["start"] = start }
                events.append(
                    GameEvent(
                        kind: .scheduleChange, key: String(key.prefix(12)), gameId: id, away: away, home: home, team: team,
                        score: GameEvent.Score(away: 0, home: 0), details: details))
            }
        }
        return events
    }
}
