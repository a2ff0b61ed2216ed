/// The API's four-digit `situationCode`: away goalie, away skaters, home skaters, home goalie.
/// Goalie digits are 1 in net, 0 pulled; skater counts include an extra attacker.
public struct SituationCode: Sendable, Equatable, CustomStringConvertible {
    public let awayGoalieIn: Bool
    public let awaySkaters: Int
    public let homeSkaters: Int
    public let homeGoalieIn: Bool

    public init?(_ code: String?) {
        guard let code, code.count == 4 else { return nil }
        let digits = code.compactMap(\.wholeNumberValue)
        guard digits.count == 4, digits[0] <= 1, digits[3] <= 1 else { return nil }
        awayGoalieIn = digits[0] == 1
        awaySkaters = digits[1]
        homeSkaters = digits[2]
        homeGoalieIn = digits[3] == 1
    }

    /// Skaters a team has from penalties alone: an extra attacker for a pulled goalie doesn't count.
    public var awayBase: Int { awaySkaters - (awayGoalieIn ? 0 : 1) }
    public var homeBase: Int { homeSkaters - (homeGoalieIn ? 0 : 1) }

    public var awayPowerPlay: Bool { awayBase > homeBase }
    public var homePowerPlay: Bool { homeBase > awayBase }
    public var awayNetEmpty: Bool { !awayGoalieIn }
    public var homeNetEmpty: Bool { !homeGoalieIn }

    /// `1010`/`0101`: one shooter against a goalie — a shootout or penalty shot, not a strength.
    public var isPenaltyShot: Bool { awaySkaters + homeSkaters == 1 }

    /// The team on the power play and the teams with their net empty, as a live game shows
    /// them; nothing during a shootout or a penalty shot (one shooter is no strength).
    public static func flags(_ code: String?, shootout: Bool, away: String, home: String) -> (powerPlay: String?, emptyNet: [String]) {
        guard !shootout, let code = SituationCode(code), !code.isPenaltyShot else { return (nil, []) }
        let powerPlay = code.awayPowerPlay ? away : code.homePowerPlay ? home : nil
        return (powerPlay, [code.awayNetEmpty ? away : nil, code.homeNetEmpty ? home : nil].compactMap(\.self))
    }

    /// "5v4" with the larger side first, counting skaters on the ice.
    public var strength: String {
        "\(max(awaySkaters, homeSkaters))v\(min(awaySkaters, homeSkaters))"
    }

    public var description: String {
        "\(awayGoalieIn ? 1 : 0)\(awaySkaters)\(homeSkaters)\(homeGoalieIn ? 1 : 0)"
    }
}
