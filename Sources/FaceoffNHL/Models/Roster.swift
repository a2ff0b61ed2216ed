import Foundation

/// `GET /v1/roster/{TEAM}/{current|SEASON}`. Note: `defensemen` here, `defense` in boxscores.
/// A season without data returns empty arrays.
public struct Roster: Codable, Sendable, Equatable {
    public var forwards: [RosterPlayer]?
    public var defensemen: [RosterPlayer]?
    public var goalies: [RosterPlayer]?

    public var allPlayers: [RosterPlayer] { (forwards ?? []) + (defensemen ?? []) + (goalies ?? []) }
}

public struct RosterPlayer: Codable, Sendable, Equatable {
    public var id: Int?
    public var headshot: String?
    public var firstName: LocalizedString?
    public var lastName: LocalizedString?
    /// Can be missing (new call-ups).
    public var sweaterNumber: Int?
    /// "C" | "L" | "R" | "D" | "G".
    public var positionCode: String?
    public var shootsCatches: String?
    public var heightInInches: Int?
    public var weightInPounds: Int?
    public var heightInCentimeters: Int?
    public var weightInKilograms: Int?
    /// "YYYY-MM-DD".
    public var birthDate: String?
    public var birthCity: LocalizedString?
    /// ISO 3166-1 alpha-3, e.g. "CAN".
    public var birthCountry: String?
    public var birthStateProvince: LocalizedString?

    public var fullName: String {
        [firstName?.value, lastName?.value].compactMap { $0 }.joined(separator: " ")
    }
}
