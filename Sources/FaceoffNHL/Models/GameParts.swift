import Foundation

/// A team inside a game object (schedule, score, scoreboard, landing, boxscore, play-by-play).
/// Schedules use `commonName` + `placeName`; the score endpoint uses `name` (the common name, e.g.
/// "Red Wings"); the scoreboard sends both, and there `name` is the full name ("Toronto Maple Leafs").
public struct GameTeam: Codable, Sendable, Equatable {
    public var id: Int?
    public var abbrev: String?
    public var commonName: LocalizedString?
    public var name: LocalizedString?
    public var placeName: LocalizedString?
    public var placeNameWithPreposition: LocalizedString?
    /// Present once the game has started.
    public var score: Int?
    /// Shots on goal (score, landing, boxscore, play-by-play).
    public var sog: Int?
    public var logo: String?
    public var darkLogo: String?
    /// Season record like "27-25-9" (scoreboard, upcoming games).
    public var record: String?
    public var awaySplitSquad: Bool?
    public var homeSplitSquad: Bool?
    public var radioLink: String?

    /// Best short display name: commonName, else name, else abbrev, else "".
    public var displayName: String {
        commonName?.value ?? name?.value ?? abbrev ?? ""
    }

    /// "Place Common" when both are known ("Toronto Maple Leafs"), else `displayName`.
    public var fullName: String {
        if let place = placeName?.value, let common = commonName?.value { return "\(place) \(common)" }
        return displayName
    }
}

/// `tvBroadcasts[]`: market "N" national, "H" home, "A" away; countryCode "US" / "CA".
public struct TVBroadcast: Codable, Sendable, Equatable {
    public var id: Int?
    public var market: String?
    public var countryCode: String?
    public var network: String?
    public var sequenceNumber: Int?

    public var isNational: Bool { market == "N" }
}

/// `alternateBroadcasts[]` in club schedules: `{country, descriptions: [{default}]}`.
public struct AlternateBroadcast: Codable, Sendable, Equatable {
    public var country: String?
    public var descriptions: [LocalizedString]?
}

/// `periodDescriptor`. `number` is missing in club-schedule entries and before a game starts.
public struct PeriodDescriptor: Codable, Sendable, Equatable {
    public var number: Int?
    public var periodType: PeriodType?
    public var maxRegulationPeriods: Int?
    public var otPeriods: Int?

    /// "1st", "2nd", "3rd", "OT", "2OT"…, "SO"; "" when unknown.
    public var label: String {
        let regulation = maxRegulationPeriods ?? 3
        switch periodType {
        case .some(.so):
            return "SO"
        case .some(.ot):
            if let number, number - regulation > 1 { return "\(number - regulation)OT" }
            return "OT"
        default:
            guard let number else { return "" }
            if number > regulation {
                return number - regulation > 1 ? "\(number - regulation)OT" : "OT"
            }
            switch number {
            case 1: return "1st"
            case 2: return "2nd"
            case 3: return "3rd"
            default: return "\(number)th"
            }
        }
    }
    package init(number: Int? = nil, periodType: PeriodType? = nil, maxRegulationPeriods: Int? = nil, otPeriods: Int? = nil) {
        self.number = number
        self.periodType = periodType
        self.maxRegulationPeriods = maxRegulationPeriods
        self.otPeriods = otPeriods
    }
}

/// `gameOutcome`: how a final game ended.
public struct GameOutcome: Codable, Sendable, Equatable {
    public var lastPeriodType: PeriodType?
    public var otPeriods: Int?
    package init(lastPeriodType: PeriodType? = nil, otPeriods: Int? = nil) {
        self.lastPeriodType = lastPeriodType
        self.otPeriods = otPeriods
    }
}

/// `clock`. Between periods `inIntermission` is true and the time fields count down the intermission.
public struct GameClock: Codable, Sendable, Equatable {
    public var timeRemaining: String?
    public var secondsRemaining: Int?
    public var running: Bool?
    public var inIntermission: Bool?

    public init(timeRemaining: String? = nil, secondsRemaining: Int? = nil, running: Bool? = nil, inIntermission: Bool? = nil) {
        self.timeRemaining = timeRemaining
        self.secondsRemaining = secondsRemaining
        self.running = running
        self.inIntermission = inIntermission
    }
}

/// Live `situation` object (API.md §8; shape from client code, no live recording).
public struct Situation: Codable, Sendable, Equatable {
    public var homeTeam: SituationTeam?
    public var awayTeam: SituationTeam?
    /// 4 digits: away goalie, away skaters, home skaters, home goalie. Parsed elsewhere.
    public var situationCode: String?
    /// Time left on the power play.
    public var timeRemaining: String?
    public var secondsRemaining: Int?
}

public struct SituationTeam: Codable, Sendable, Equatable {
    public var abbrev: String?
    /// "PP" (power play) and/or "EN" (net empty / extra attacker).
    public var situationDescriptions: [String]?
    public var strength: Int?
}

/// Playoff `seriesStatus`.
public struct SeriesStatus: Codable, Sendable, Equatable {
    public var round: Int?
    public var seriesAbbrev: String?
    public var seriesTitle: String?
    public var seriesLetter: String?
    public var neededToWin: Int?
    public var topSeedWins: Int?
    public var bottomSeedWins: Int?
    public var gameNumberOfSeries: Int?
    public var topSeedTeamAbbrev: LocalizedString?
    public var bottomSeedTeamAbbrev: LocalizedString?
}

/// `winningGoalie` / `winningGoalScorer`: `{playerId, firstInitial{default}, lastName{default}}`.
public struct GamePlayerRef: Codable, Sendable, Equatable {
    public var playerId: Int?
    public var firstInitial: LocalizedString?
    public var firstName: LocalizedString?
    public var lastName: LocalizedString?

    /// "A. Ovechkin" style.
    public var displayName: String {
        [firstInitial?.value ?? firstName?.value, lastName?.value].compactMap { $0 }.joined(separator: " ")
    }
}

/// `specialEvent` (Stadium Series, Global Series…).
public struct SpecialEvent: Codable, Sendable, Equatable {
    public var parentId: Int?
    public var name: LocalizedString?
    public var lightLogoUrl: LocalizedString?
    public var darkLogoUrl: LocalizedString?
}
