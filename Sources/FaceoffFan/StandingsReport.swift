import FaceoffKit
import FaceoffNHL
import Foundation

/// `faceoff standings`: the league table, grouped the way the NHL groups it.
public struct StandingsReport: Codable, Sendable, Equatable {
    public enum Grouping: String, Codable, Sendable, CaseIterable {
        case league, conference, division, wildcard
    }

    public struct Row: Codable, Sendable, Equatable {
        public var rank: Int
        public var abbrev: String
        public var name: String
        public var conference: String?
        public var division: String?
        public var gamesPlayed: Int
        public var wins: Int
        public var losses: Int
        public var otLosses: Int
        public var points: Int
        public var pointPct: Double
        public var goalsFor: Int?
        public var goalsAgainst: Int?
        public var goalDifferential: Int
        /// "W3"
        public var streak: String?
        /// "6-3-1"
        public var lastTen: String?
        /// x, y, z, p, e when the NHL has marked one.
        public var clinch: String?
        public var followed: Bool
    }

    public struct Group: Codable, Sendable, Equatable {
        public var name: String
        public var rows: [Row]
        /// For the wildcard view: rows after this many are outside a playoff spot.
        public var cutoff: Int?
    }

    public var by: Grouping
    public var date: String?
    public var groups: [Group]

    public init(standings: Standings, by: Grouping, followed: [String]) {
        self.by = by
        let rows = standings.standings ?? []
        date = rows.first?.date
        func row(_ source: StandingsRow, rank: Int) -> Row {
            let abbrev = source.teamAbbrev?.value ?? "?"
            let lastTen = source.l10Wins.map { "\($0)-\(source.l10Losses ?? 0)-\(source.l10OtLosses ?? 0)" }
            return Row(
                rank: rank, abbrev: abbrev, name: source.teamName?.value ?? abbrev, conference: source.conferenceName,
                division: source.divisionName, gamesPlayed: source.gamesPlayed ?? 0, wins: source.wins ?? 0,
                losses: source.losses ?? 0, otLosses: source.otLosses ?? 0, points: source.points ?? 0,
                pointPct: source.pointPctg ?? 0, goalsFor: source.goalFor, goalsAgainst: source.goalAgainst,
                goalDifferential: source.goalDifferential ?? ((source.goalFor ?? 0) - (source.goalAgainst ?? 0)),
                streak: source.streakCode.map { "\($0)\(source.streakCount ?? 0)" }, lastTen: lastTen,
                clinch: source.clinchIndicator, followed: followed.contains(abbrev))
        }
        // The NHL's own order (points, then its tie-breakers) is in the sequence fields.
        func sorted(_ rows: [StandingsRow], by key: (StandingsRow) -> Int?) -> [StandingsRow] {
            rows.sorted { (key($0) ?? Int.max, $0.leagueSequence ?? Int.max) < (key($1) ?? Int.max, $1.leagueSequence ?? Int.max) }
        }
        func grouped(_ rows: [StandingsRow], by name: (StandingsRow) -> String?) -> [(String, [StandingsRow])] {
            var order: [String] = []
            var buckets: [String: [StandingsRow]] = [:]
            for row in sorted(rows, by: \.leagueSequence) {
                let key = name(row) ?? "Other"
                if buckets[key] == nil { order.append(key) }
                buckets[key, default: []].append(row)
            }
            // Eastern before Western, Atlantic/Metropolitan before Central/Pacific.
            let preferred = ["Eastern", "Western", "Atlantic", "Metropolitan", "Central", "Pacific"]
            order.sort { (preferred.firstIndex(of: $0) ?? 99, $0) < (preferred.firstIndex(of: $1) ?? 99, $1) }
            return order.map { ($0, buckets[$0]!) }
        }
        switch by {
        case .league:
            groups = [Group(name: "NHL", rows: sorted(rows, by: \.leagueSequence).enumerated().map { row($1, rank: $0 + 1) })]
        case .conference:
            groups = grouped(rows, by: \.conferenceName).map { name, members in
                Group(name: name, rows: sorted(members, by: \.conferenceSequence).enumerated().map { row($1, rank: $0 + 1) })
            }
        case .division:
            groups = grouped(rows, by: \.divisionName).map { name, members in
                Group(name: name, rows: sorted(members, by: \.divisionSequence).enumerated().map { row($1, rank: $0 + 1) })
            }
        case .wildcard:
            var result: [Group] = []
            for (conference, members) in grouped(rows, by: \.conferenceName) {
                var leaders: Set<String> = []
                for (division, divisionRows) in grouped(members, by: \.divisionName) {
                    let top = Array(sorted(divisionRows, by: \.divisionSequence).prefix(3))
                    leaders.formUnion(top.compactMap { $0.teamAbbrev?.value })
                    result.append(Group(name: division, rows: top.enumerated().map { row($1, rank: $0 + 1) }))
                }
                let rest = members.filter { !leaders.contains($0.teamAbbrev?.value ?? "") }
                let ordered = sorted(rest) { ($0.wildcardSequence ?? 0) > 0 ? $0.wildcardSequence : $0.conferenceSequence }
                result.append(Group(name: "\(conference) Wild Card", rows: ordered.enumerated().map { row($1, rank: $0 + 1) }, cutoff: 2))
            }
            groups = result
        }
    }
}

/// `faceoff roster`: the current roster by jersey number, grouped by position.
public struct RosterReport: Codable, Sendable, Equatable {
    public struct Player: Codable, Sendable, Equatable {
        public var id: Int?
        public var number: Int?
        public var name: String
        public var position: String?
        /// L or R: shoots for skaters, catches for goalies.
        public var handedness: String?
        public var age: Int?
        public var birthDate: String?
        public var heightInches: Int?
        public var heightCm: Int?
        public var weightPounds: Int?
        public var weightKg: Int?
        public var birthplace: String?
    }

    public struct Group: Codable, Sendable, Equatable {
        public var name: String
        public var players: [Player]
    }

    /// "NBA" for an NBA team; absent for the NHL (as before there were two leagues).
    public var league: String?
    public var team: String
    public var groups: [Group]

    public init(league: String?, team: String, groups: [Group]) {
        self.league = league
        self.team = team
        self.groups = groups
    }

    public init(roster: Roster, team: String, now: Date, time: LocalTime) {
        self.team = team
        func players(_ source: [RosterPlayer]?) -> [Player] {
            (source ?? [])
                .map { player in
                    let place = [player.birthCity?.value, player.birthStateProvince?.value, player.birthCountry]
                        .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
                    return Player(
                        id: player.id, number: player.sweaterNumber, name: player.fullName, position: player.positionCode,
                        handedness: player.shootsCatches, age: player.birthDate.flatMap { time.age(birthDate: $0, at: now) },
                        birthDate: player.birthDate, heightInches: player.heightInInches, heightCm: player.heightInCentimeters,
                        weightPounds: player.weightInPounds, weightKg: player.weightInKilograms,
                        birthplace: place.isEmpty ? nil : place)
                }
                // Players without a number go last, by name.
                .sorted { ($0.number ?? Int.max, $0.name) < ($1.number ?? Int.max, $1.name) }
        }
        groups = [
            Group(name: "Forwards", players: players(roster.forwards)),
            Group(name: "Defence", players: players(roster.defensemen)),
            Group(name: "Goalies", players: players(roster.goalies)),
        ]
    }
}
