import Foundation

/// `GET /v1/standings/{now|YYYY-MM-DD}`. Before a season: `{"wildCardIndicator": false, "standings": []}`.
public struct Standings: Codable, Sendable, Equatable {
    public var wildCardIndicator: Bool?
    /// "2025-10-09T05:42:37Z".
    public var standingsDateTimeUtc: String?
    public var standings: [StandingsRow]?

    public var standingsDate: Date? { NHLTimestamp.parse(standingsDateTimeUtc) }

    /// Each team's record as "W-L-OT", by abbreviation.
    public var records: [String: String] {
        var records: [String: String] = [:]
        for row in standings ?? [] {
            guard let abbrev = row.teamAbbrev?.value else { continue }
            records[abbrev] = "\(row.wins ?? 0)-\(row.losses ?? 0)-\(row.otLosses ?? 0)"
        }
        return records
    }

    /// The row whose `teamAbbrev` is `abbrev` (case-insensitive).
    public func row(for abbrev: String) -> StandingsRow? {
        standings?.first { $0.teamAbbrev?.value.caseInsensitiveCompare(abbrev) == .orderedSame }
    }
}

/// One team's line. Rows carry no team id: key on `teamAbbrev`.
public struct StandingsRow: Codable, Sendable, Equatable {
    public var teamAbbrev: LocalizedString?
    public var teamName: LocalizedString?
    public var teamCommonName: LocalizedString?
    public var placeName: LocalizedString?
    public var teamLogo: String?
    public var conferenceAbbrev: String?
    public var conferenceName: String?
    public var divisionAbbrev: String?
    public var divisionName: String?
    public var date: String?
    public var seasonId: Int?
    public var gameTypeId: Int?
    /// x playoff spot, y division, z conference, p Presidents' Trophy, e eliminated; absent otherwise.
    public var clinchIndicator: String?

    public var gamesPlayed: Int?
    public var wins: Int?
    public var losses: Int?
    public var otLosses: Int?
    public var ties: Int?
    public var points: Int?
    public var pointPctg: Double?
    public var winPctg: Double?
    public var regulationWins: Int?
    public var regulationWinPctg: Double?
    public var regulationPlusOtWins: Int?
    public var regulationPlusOtWinPctg: Double?
    public var shootoutWins: Int?
    public var shootoutLosses: Int?
    public var goalFor: Int?
    public var goalAgainst: Int?
    public var goalDifferential: Int?
    public var goalDifferentialPctg: Double?
    public var goalsForPctg: Double?
    /// "W" | "L" | "OT".
    public var streakCode: String?
    public var streakCount: Int?

    public var homeGamesPlayed: Int?
    public var homeWins: Int?
    public var homeLosses: Int?
    public var homeOtLosses: Int?
    public var homeTies: Int?
    public var homePoints: Int?
    public var homeRegulationWins: Int?
    public var homeRegulationPlusOtWins: Int?
    public var homeGoalsFor: Int?
    public var homeGoalsAgainst: Int?
    public var homeGoalDifferential: Int?

    public var roadGamesPlayed: Int?
    public var roadWins: Int?
    public var roadLosses: Int?
    public var roadOtLosses: Int?
    public var roadTies: Int?
    public var roadPoints: Int?
    public var roadRegulationWins: Int?
    public var roadRegulationPlusOtWins: Int?
    public var roadGoalsFor: Int?
    public var roadGoalsAgainst: Int?
    public var roadGoalDifferential: Int?

    public var l10GamesPlayed: Int?
    public var l10Wins: Int?
    public var l10Losses: Int?
    public var l10OtLosses: Int?
    public var l10Ties: Int?
    public var l10Points: Int?
    public var l10RegulationWins: Int?
    public var l10RegulationPlusOtWins: Int?
    public var l10GoalsFor: Int?
    public var l10GoalsAgainst: Int?
    public var l10GoalDifferential: Int?

    public var leagueSequence: Int?
    public var leagueHomeSequence: Int?
    public var leagueRoadSequence: Int?
    public var leagueL10Sequence: Int?
    public var conferenceSequence: Int?
    public var conferenceHomeSequence: Int?
    public var conferenceRoadSequence: Int?
    public var conferenceL10Sequence: Int?
    public var divisionSequence: Int?
    public var divisionHomeSequence: Int?
    public var divisionRoadSequence: Int?
    public var divisionL10Sequence: Int?
    /// 0 for the top three of each division, 1… for the rest of the conference.
    public var wildcardSequence: Int?
    public var waiversSequence: Int?

    /// "W-L-OTL", e.g. "10-5-2"; nil when a part is missing.
    public var recordText: String? {
        guard let wins, let losses, let otLosses else { return nil }
        return "\(wins)-\(losses)-\(otLosses)"
    }
}
