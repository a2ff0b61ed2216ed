import Foundation

/// Dates and times as a fan reads them, in the configured time zone.
public struct LocalTime: Sendable {
    public let timeZone: TimeZone

    public init(timeZone: TimeZone) { self.timeZone = timeZone }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    private func format(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }

    /// "Sat Oct 25"
    public func day(_ date: Date) -> String { format(date, "EEE MMM d") }
    /// "2025-10-25"
    public func isoDay(_ date: Date) -> String { format(date, "yyyy-MM-dd") }
    /// "19:00"
    public func time(_ date: Date) -> String { format(date, "HH:mm") }
    /// "2025-10-25T19:00:00-04:00"
    public func iso(_ date: Date) -> String { format(date, "yyyy-MM-dd'T'HH:mm:ssxxx") }
    /// "EDT"
    public func zoneAbbreviation(_ date: Date) -> String { format(date, "zzz") }

    /// A calendar day in this zone ("2025-10-25") as the instant it starts.
    public func startOfDay(_ isoDay: String) -> Date? {
        let parts = isoDay.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
    }

    /// Whole years between `birth` ("1997-09-17") and `date`.
    public func age(birthDate: String, at date: Date) -> Int? {
        guard let birth = startOfDay(birthDate) else { return nil }
        return calendar.dateComponents([.year], from: birth, to: date).year
    }
}

/// "in 2d 4h", "in 3h 05m", "in 12m", "now".
public enum Countdown {
    public static func describe(from now: Date, to start: Date) -> String {
        let seconds = Int(start.timeIntervalSince(now))
        guard seconds > 0 else { return "now" }
        let days = seconds / 86_400
        let hours = (seconds % 86_400) / 3600
        let minutes = (seconds % 3600) / 60
        if days > 0 { return "in \(days)d \(hours)h" }
        if hours > 0 { return "in \(hours)h \(String(format: "%02d", minutes))m" }
        return "in \(max(1, minutes))m"
    }
}
