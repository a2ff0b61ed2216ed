import Foundation

/// When a pregame reminder is due, for every league's watcher.
public enum PregameReminder {
    /// The start reminders count to: the later of the schedule's and the feed's, since a game
    /// moved later shows in its feed (polled each minute) before the schedule is read again.
    /// (A game moved earlier waits for the schedule: a feed's start can be an old one.)
    static func start(_ scheduled: Date?, _ feed: Date?) -> Date? {
        [scheduled, feed].compactMap { $0 }.max()
    }

    /// Of the leads (`[watch] pregame`) not yet sent, the one to say at `date`, as one alert,
    /// and the leads it covers. Leads whose moment has come: the one nearest the start, the
    /// earlier ones passed over (a watch begun 5 minutes before says "starts in 5 min" once,
    /// not also "in 1 h"). Else a lead whose moment is less than a minute away, alone (polls
    /// before a start are a minute apart), so `["3m", "2m"]` gives two reminders.
    /// - Parameter event: the game's `pregame` event, its key and details filled in here.
    /// - Parameter moved: the game's start moved since reminders went out: the key names the
    ///   new start, so the ledger takes the new reminder as news.
    static func due(start: Date, at date: Date, leads: [Duration], sent: Set<Int>, event: GameEvent, moved: Bool = false) -> (
        event: GameEvent, covered: [Int]
    )? {
        let left = start.timeIntervalSince(date)
        guard left > 0 else { return nil }
        let pending = leads.map { Int($0.components.seconds) }.filter { !sent.contains($0) }
        let passed = pending.filter { left <= Double($0) }
        let lead: Int
        let covered: [Int]
        if let nearest = passed.min() {
            (lead, covered) = (nearest, passed)
        } else if let soon = pending.filter({ left <= Double($0) + 60 }).max() {
            (lead, covered) = (soon, [soon])
        } else {
            return nil
        }
        var key = lead % 60 == 0 ? String(lead / 60) : "\(lead)s"
        if moved { key += String(movedMark) + String(Int64(start.timeIntervalSince1970)) }
        var reminder = GameEvent(
            kind: .pregame, key: key, gameId: event.gameId, away: event.away, home: event.home, score: event.score,
            details: ["minutes_before": String(Int((left / 60).rounded()))])
        reminder.league = event.league
        return (reminder, covered)
    }

    /// Between a reminder's lead and the start it was for, in a moved game's reminder key.
    static let movedMark: Character = "-"

    /// What reminders of a game went out before, by this process before a restart or by
    /// another one: the latest start they were for, and their leads. `sightings` are the
    /// game's `pregame` events (their ids and when each was first seen). A moved game's key
    /// names its start; a plain one's start is at most its lead and a minute (a reminder is
    /// due at most that early) after it was seen: the latest it can have been, so a move is
    /// taken for one only when it surely was.
    public struct Sent: Sendable, Equatable {
        public var start: Date
        public var leads: Set<Int>
        /// The latest were a moved game's, keyed by their start.
        public var moved: Bool
    }

    public static func sent(_ sightings: [(id: String, seenAt: Date)]) -> Sent? {
        let reminders = sightings.compactMap { sighting -> (lead: Int, start: Date, moved: Bool)? in
            guard let key = sighting.id.split(separator: ":", maxSplits: 2).dropFirst(2).first else { return nil }
            let parts = key.split(separator: movedMark, maxSplits: 1)
            let written = parts[0]
            guard let number = Int(written.hasSuffix("s") ? written.dropLast() : written) else { return nil }
            let lead = written.hasSuffix("s") ? number : number * 60
            if parts.count == 2 {
                guard let start = Int64(parts[1]) else { return nil }
                return (lead, Date(timeIntervalSince1970: TimeInterval(start)), true)
            }
            return (lead, sighting.seenAt.addingTimeInterval(TimeInterval(lead + 60)), false)
        }
        // A moved game's reminders came after the plain ones, whatever the plain ones' bound.
        guard let latest = reminders.filter(\.moved).max(by: { $0.start < $1.start }) ?? reminders.max(by: { $0.start < $1.start })
        else { return nil }
        // The reminders of that start: a moved game's by its start, the plain ones together.
        let same = reminders.filter { $0.moved == latest.moved && (!$0.moved || $0.start == latest.start) }
        return Sent(start: latest.start, leads: Set(same.map(\.lead)), moved: latest.moved)
    }
}
