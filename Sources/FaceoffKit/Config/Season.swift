import Foundation

/// A season id such as 20252026: two consecutive years.
public struct Season: Sendable, Equatable, CustomStringConvertible {
    public let startYear: Int

    public init?(_ text: String) {
        guard text.count == 8, text.allSatisfy(\.isASCII), let start = Int(text.prefix(4)), let end = Int(text.suffix(4)),
            end == start + 1, start >= 1917
        else { return nil }
        startYear = start
    }

    public init(startYear: Int) { self.startYear = startYear }

    public var id: String { "\(startYear)\(startYear + 1)" }
    /// "2025-26"
    public var description: String { "\(startYear)-\(String(startYear + 1).suffix(2))" }
}

/// The season for a date: a new one begins in September.
public enum CurrentSeason {
    public static func id(at date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = calendar.dateComponents([.year, .month], from: date)
        let year = components.year ?? 2025
        let start = (components.month ?? 1) >= 9 ? year : year - 1
        return Season(startYear: start).id
    }
}
