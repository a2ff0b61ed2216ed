import Foundation

/// What a number in an API's answer can be, one rule for every league. A score, a period, a
/// clock or a count is finite, whole where it must be, and within what a game can reach; an
/// answer with an impossible one is refused (`Endpoint.problem`: never cached nor shown, the
/// last good copy kept), and arithmetic on such numbers goes through these checks, so no
/// answer can trap the process or hang it.
public enum Plausible {
    /// One team's points or goals in one game.
    public static let score = 0...999
    /// A game's periods, quarters and overtimes (the longest NHL game went to a 6th overtime,
    /// the NBA's to a 6th).
    public static let period = 1...20
    /// Seconds left in (or gone of) a period: an NHL period is 20 minutes, its intermission
    /// 18; an NBA quarter 12.
    public static let periodSeconds = 0...3600
    /// A season's wins, losses or games of one team.
    public static let seasonCount = 0...200
    /// A series' wins or games (best of seven).
    public static let seriesCount = 0...7
    /// A game's plays. The longest recorded games have about 470 (an NHL playoff game in
    /// overtime, an NBA game); a game of six overtimes might have twice that. The bound also
    /// bounds the work of a poll and of `replay`, whose every step reads the plays so far.
    public static let plays = 0...2_000
    /// A season's year.
    public static let year = 1900...2200
    /// A player's height in inches and weight in pounds.
    public static let heightInches = 0...120
    public static let weightPounds = 0...1000

    /// `value` as a whole number when it is finite and within `range` once rounded; nil for
    /// NaN, an infinity or anything outside.
    public static func int(_ value: Double, in range: ClosedRange<Int>) -> Int? {
        guard value.isFinite, let whole = Int(exactly: value.rounded()), range.contains(whole) else { return nil }
        return whole
    }

    /// `value` when it is finite and within `range`.
    public static func seconds(_ value: Double, in range: ClosedRange<Int> = periodSeconds) -> Double? {
        guard value.isFinite, value >= Double(range.lowerBound), value <= Double(range.upperBound) else { return nil }
        return value
    }

    /// Why `value`, named `what`, is impossible, or nil when it is absent or within `range`.
    public static func problem(_ value: Int?, _ range: ClosedRange<Int>, _ what: @autoclosure () -> String) -> String? {
        guard let value, !range.contains(value) else { return nil }
        return "it gives \(what()) as \(value)"
    }

    /// The first of `problems` that is not nil.
    public static func first(_ problems: String?...) -> String? { problems.lazy.compactMap { $0 }.first }
}
