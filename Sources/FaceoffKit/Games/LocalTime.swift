import Foundation

/// Dates and times as a fan reads them, in the configured time zone.
///
/// Formatting is done from calendar components rather than DateFormatter: a formatter costs
/// an ICU object per use (and isn't Sendable), and feeds format thousands of times.
public struct LocalTime: Sendable {
    public let timeZone: TimeZone
    private let calendar: Calendar

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private func parts(_ date: Date) -> DateComponents {
        calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
    }

    private static func two(_ value: Int?) -> String {
        let value = value ?? 0
        return value < 10 ? "0\(value)" : "\(value)"
    }

    /// "Sat Oct 25"
    public func day(_ date: Date) -> String {
        let parts = parts(date)
        return "\(Self.weekdays[(parts.weekday ?? 1) - 1]) \(Self.months[(parts.month ?? 1) - 1]) \(parts.day ?? 1)"
    }

    /// "2025-10-25"
    public func isoDay(_ date: Date) -> String {
        let parts = parts(date)
        return "\(parts.year ?? 0)-\(Self.two(parts.month))-\(Self.two(parts.day))"
    }

    /// "19:00"; "01:30 EDT" and "01:30 EST" in the hour that happens twice when clocks go back.
    public func time(_ date: Date) -> String {
        let parts = parts(date)
        let text = "\(Self.two(parts.hour)):\(Self.two(parts.minute))"
        return isAmbiguous(date) ? text + " " + zoneAbbreviation(date) : text
    }

    /// Whether the wall time of `date` also names another instant (clocks set back).
    func isAmbiguous(_ date: Date) -> Bool {
        let here = timeZone.secondsFromGMT(for: date)
        for hours in [-4.0, 4.0] {
            let other = timeZone.secondsFromGMT(for: date.addingTimeInterval(hours * 3600))
            guard other != here else { continue }
            // The instant with the same wall time under the other offset, if it exists.
            let twin = date.addingTimeInterval(Double(here - other))
            if timeZone.secondsFromGMT(for: twin) == other { return true }
        }
        return false
    }

    /// "2025-10-25T19:00:00-04:00"
    public func iso(_ date: Date) -> String {
        let parts = parts(date)
        let offset = timeZone.secondsFromGMT(for: date)
        let sign = offset < 0 ? "-" : "+"
        let zone =
            offset == 0 && timeZone.identifier == "UTC"
            ? "Z" : "\(sign)\(Self.two(abs(offset) / 3600)):\(Self.two(abs(offset) % 3600 / 60))"
        return
            "\(parts.year ?? 0)-\(Self.two(parts.month))-\(Self.two(parts.day))T\(Self.two(parts.hour)):\(Self.two(parts.minute)):\(Self.two(parts.second))\(zone)"
    }

    /// "EDT" (a formatter is worth it here: this is printed once per command).
    public func zoneAbbreviation(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "zzz"
        return formatter.string(from: date)
    }

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
