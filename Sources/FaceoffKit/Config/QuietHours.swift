import Foundation

/// A sink's nightly quiet (`quiet_hours = "23:00-07:00"`): from `start` up to `end`, in the
/// configured time zone, across midnight when `end` is earlier than `start`.
public struct QuietHours: Sendable, Equatable, CustomStringConvertible {
    /// Minutes after midnight.
    public let start: Int
    public let end: Int

    /// "HH:MM-HH:MM"; nil for anything else, or for a span that starts where it ends.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let start = Self.minutes(parts[0]), let end = Self.minutes(parts[1]), start != end else { return nil }
        self.start = start
        self.end = end
    }

    /// "07:00" → 420; nil unless HH:MM with HH < 24 and MM < 60.
    public static func minutes(_ text: String) -> Int? {
        let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count == 2, pieces.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy { ("0"..."9").contains($0) } }),
            let hour = Int(pieces[0]), let minute = Int(pieces[1]), (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        return hour * 60 + minute
    }

    public var description: String { "\(Self.text(start))-\(Self.text(end))" }

    static func text(_ minutes: Int) -> String { String(format: "%02d:%02d", minutes / 60, minutes % 60) }

    /// Whether `date` falls in the quiet: after the latest `start` on the wall clock of
    /// `zone`, before the first `end` that follows it. One span from its start, so a clock
    /// change inside it (01:00–02:00 twice in the autumn) never ends it and starts it again.
    public func contains(_ date: Date, in zone: TimeZone) -> Bool {
        date < end(after: date, in: zone)
    }

    /// When the quiet that holds at `date` ends: the first `end` at or after the latest
    /// `start`. On the day a clock change skips an hour, each end is the moment the wall clock
    /// really reaches it (02:30 skipped: 03:00), so a span whose ends both fall in the gap is
    /// empty and one that ends in it ends when the gap does, never a day later.
    public func end(after date: Date, in zone: TimeZone) -> Date {
        Self.next(end, after: Self.latest(start, atOrBefore: date, in: zone).addingTimeInterval(-1), in: zone)
    }

    /// The latest moment at or before `date` whose wall clock in `zone` reads `minutes`.
    static func latest(_ minutes: Int, atOrBefore date: Date, in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(hour: minutes / 60, minute: minutes % 60, second: 0)
        return calendar.nextDate(after: date.addingTimeInterval(1), matching: components, matchingPolicy: .nextTime, direction: .backward)
            ?? date.addingTimeInterval(-86400)
    }

    /// The first moment after `date` whose wall clock in `zone` reads `minutes` after midnight
    /// (a time a clock change skips: the first moment after it).
    public static func next(_ minutes: Int, after date: Date, in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(hour: minutes / 60, minute: minutes % 60, second: 0)
        return calendar.nextDate(after: date, matching: components, matchingPolicy: .nextTime) ?? date.addingTimeInterval(86400)
    }
}
