import FaceoffHTTP
import Foundation

// Values the API may extend are kept as raw values: decoding an unknown value never throws,
// and it encodes back unchanged (single value container).

/// `gameState`: FUT, PRE, LIVE, CRIT, OVER, FINAL, OFF (API.md §7). Unknown values (e.g. "SUSP") are kept.
public struct GameState: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public static let fut = GameState("FUT")
    public static let pre = GameState("PRE")
    public static let live = GameState("LIVE")
    public static let crit = GameState("CRIT")
    public static let over = GameState("OVER")
    public static let final = GameState("FINAL")
    public static let off = GameState("OFF")

    /// LIVE or CRIT: the game is being played.
    public var isLive: Bool { self == .live || self == .crit }
    /// OVER, FINAL or OFF: the score is settled.
    public var isFinal: Bool { self == .over || self == .final || self == .off }
    /// FUT or PRE: not started yet.
    public var isUpcoming: Bool { self == .fut || self == .pre }
    /// OFF: official, the data will not change any more.
    public var isOfficial: Bool { self == .off }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}

/// `gameScheduleState`: OK, TBD, PPD, CNCL. Check it before `gameState` (a cancelled game stays FUT).
public struct GameScheduleState: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public static let ok = GameScheduleState("OK")
    public static let tbd = GameScheduleState("TBD")
    public static let ppd = GameScheduleState("PPD")
    public static let cncl = GameScheduleState("CNCL")

    public var isCancelled: Bool { self == .cncl }
    public var isPostponed: Bool { self == .ppd }
    /// Date/time not final; `startTimeUTC` is a placeholder.
    public var isTimeTBD: Bool { self == .tbd }
    public var isOK: Bool { self == .ok }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}

/// `periodType`: REG, OT, SO.
public struct PeriodType: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public static let reg = PeriodType("REG")
    public static let ot = PeriodType("OT")
    public static let so = PeriodType("SO")

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}

/// `gameType` / `gameTypeId`: 1 preseason, 2 regular season, 3 playoffs, 4 All-Star; other values
/// (e.g. 20 for the 4 Nations Face-Off, 19 for other special events) are kept as is.
public struct GameType: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public init(integerLiteral value: Int) { self.rawValue = value }

    public static let preseason = GameType(1)
    public static let regularSeason = GameType(2)
    public static let playoffs = GameType(3)
    public static let allStar = GameType(4)

    public var isPreseason: Bool { self == .preseason }
    public var isRegularSeason: Bool { self == .regularSeason }
    public var isPlayoffs: Bool { self == .playoffs }
    /// 1, 2 or 3: a normal NHL game.
    public var isStandard: Bool { (1...3).contains(rawValue) }

    public var description: String { String(rawValue) }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let value = try? c.decode(Int.self) {
            rawValue = value
        } else if let text = try? c.decode(String.self), let value = Int(text) {
            rawValue = value
        } else {
            throw DecodingError.typeMismatch(
                Int.self,
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "gameType is not an integer"))
        }
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}

/// Play-by-play `typeDescKey` (API.md §4 table). Unknown keys are kept.
public struct PlayType: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public static let faceoff = PlayType("faceoff")  // 502
    public static let hit = PlayType("hit")  // 503
    public static let giveaway = PlayType("giveaway")  // 504
    public static let goal = PlayType("goal")  // 505
    public static let shotOnGoal = PlayType("shot-on-goal")  // 506
    public static let missedShot = PlayType("missed-shot")  // 507
    public static let blockedShot = PlayType("blocked-shot")  // 508
    public static let penalty = PlayType("penalty")  // 509
    public static let stoppage = PlayType("stoppage")  // 516
    public static let periodStart = PlayType("period-start")  // 520
    public static let periodEnd = PlayType("period-end")  // 521
    public static let shootoutComplete = PlayType("shootout-complete")  // 523
    public static let gameEnd = PlayType("game-end")  // 524
    public static let takeaway = PlayType("takeaway")  // 525
    public static let delayedPenalty = PlayType("delayed-penalty")  // 535
    public static let failedShotAttempt = PlayType("failed-shot-attempt")  // 537

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}

/// A response that carries a `gameState` (used to cache finished games forever).
public protocol GameStateCarrying {
    var gameState: GameState? { get }
}
