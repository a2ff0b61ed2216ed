import FaceoffKit
import Foundation

/// A day on the calendar, as the NHL writes it ("2025-10-25"), with no time or zone: a
/// schedule's day, the standings' date, a `--date` argument.
public struct CalendarDay: Sendable, Equatable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Nil unless `iso` is YYYY-MM-DD and that day exists.
    public init?(iso: String) {
        let parts = iso.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            let date = Self.utc.date(from: DateComponents(year: year, month: month, day: day)),
            Self.utc.dateComponents([.year, .month, .day], from: date) == DateComponents(year: year, month: month, day: day)
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// The day `date` falls on in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone) {
        var calendar = Self.utc
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        (year, month, day) = (parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }

    /// "2025-10-25"
    public var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// "Sat Oct 25, 2025"
    public var text: String { "\(shortText), \(year)" }

    /// "Sat Oct 25"
    public var shortText: String {
        let noon = Self.utc.date(from: DateComponents(year: year, month: month, day: day, hour: 12)) ?? Date(timeIntervalSince1970: 0)
        return LocalTime(timeZone: Self.utc.timeZone).day(noon)
    }

    /// The day before or after, `days` away.
    public func adding(days: Int) -> CalendarDay {
        let noon =
            Self.utc.date(from: DateComponents(year: year, month: month, day: day + days, hour: 12)) ?? Date(timeIntervalSince1970: 0)
        return CalendarDay(noon, in: Self.utc.timeZone)
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
