/// What a watcher under `run` asks of the daemon's schedules, and tells it: the daemon
/// conforms; a watcher of a game named by hand has none.
public protocol ScheduleLink: Sendable {
    /// Whether the latest schedules still list `game` (asked when its feed answers 404, so
    /// a CDN edge's 404 never ends a scheduled game); the schedule is asked again soon.
    func lists(_ game: Int) -> Bool
    /// The feed shows `game` starting later than before: the schedule is asked again now,
    /// so its `schedule_change` goes out.
    func moved(_ game: Int)
}
