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
        if moved { key += "-" + String(Int64(start.timeIntervalSince1970)) }
        var reminder = GameEvent(
            kind: .pregame, key: key, gameId: event.gameId, away: event.away, home: event.home, score: event.score,
            details: ["minutes_before": String(Int((left / 60).rounded()))])
        reminder.league = event.league
        return (reminder, covered)
    }
}
