import Foundation

/// When a pregame reminder is due, for every league's watcher.
public enum PregameReminder {
    /// Of the leads (`[watch] pregame`) not yet sent whose moment has come at `date` (up to a
    /// minute early, as polls before the start are a minute apart), the one nearest the start,
    /// as one alert; the earlier ones it passes over count as sent, so a watch begun 5 minutes
    /// before says "starts in 5 min" once, not also "in 1 h".
    /// - Parameter event: the game's `pregame` event, its key and details filled in here.
    static func due(start: Date, at date: Date, leads: [Duration], sent: Set<Int>, event: GameEvent) -> (
        event: GameEvent, covered: [Int]
    )? {
        let left = start.timeIntervalSince(date)
        guard left > 0 else { return nil }
        let due = leads.map { Int($0.components.seconds) }.filter { !sent.contains($0) && left <= Double($0) + 60 }
        guard let lead = due.min() else { return nil }
        var reminder = GameEvent(
            kind: .pregame, key: lead % 60 == 0 ? String(lead / 60) : "\(lead)s", gameId: event.gameId, away: event.away,
            home: event.home, score: event.score, details: ["minutes_before": String(Int((left / 60).rounded()))])
        reminder.league = event.league
        return (reminder, due)
    }
}
