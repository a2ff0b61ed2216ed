import FaceoffKit
import FaceoffNHL
import Foundation

/// `faceoff player`: bio, this season's regular-season numbers, career totals, last five games.
public struct PlayerReport: Codable, Sendable, Equatable {
    /// One line of numbers; nil fields print as "-". Skaters and goalies fill different fields.
    public struct Stats: Codable, Sendable, Equatable {
        public var gamesPlayed: Int?
        public var goals: Int?
        public var assists: Int?
        public var points: Int?
        public var plusMinus: Int?
        public var penaltyMinutes: Int?
        public var powerPlayGoals: Int?
        public var shorthandedGoals: Int?
        public var gameWinningGoals: Int?
        public var shots: Int?
        public var shootingPct: Double?
        public var timeOnIcePerGame: String?
        public var gamesStarted: Int?
        public var wins: Int?
        public var losses: Int?
        public var otLosses: Int?
        public var goalsAgainstAverage: Double?
        public var savePct: Double?
        public var shutouts: Int?

        init(_ line: PlayerStatLine?, timeOnIce: String? = nil, gamesStarted: Int? = nil) {
            gamesPlayed = line?.gamesPlayed
            goals = line?.goals
            assists = line?.assists
            points = line?.points
            plusMinus = line?.plusMinus
            penaltyMinutes = line?.pim
            powerPlayGoals = line?.powerPlayGoals
            shorthandedGoals = line?.shorthandedGoals
            gameWinningGoals = line?.gameWinningGoals
            shots = line?.shots
            shootingPct = line?.shootingPctg
            timeOnIcePerGame = timeOnIce ?? line?.avgToi
            self.gamesStarted = gamesStarted ?? line?.gamesStarted
            wins = line?.wins
            losses = line?.losses
            otLosses = line?.otLosses
            goalsAgainstAverage = line?.goalsAgainstAvg
            savePct = line?.savePctg
            shutouts = line?.shutouts
        }
    }

    public struct Game: Codable, Sendable, Equatable {
        public var gameId: Int?
        public var date: String?
        /// "vs CGY" or "@ CGY"
        public var opponent: String
        public var goals: Int?
        public var assists: Int?
        public var points: Int?
        public var plusMinus: Int?
        public var shots: Int?
        public var timeOnIce: String?
        public var decision: String?
        public var goalsAgainst: Int?
        public var savePct: Double?
    }

    public var id: Int
    public var name: String
    public var team: String?
    public var teamName: String?
    public var number: Int?
    /// C, L, R, D or G
    public var position: String?
    public var isGoalie: Bool
    public var active: Bool?
    public var age: Int?
    public var birthDate: String?
    public var birthplace: String?
    public var heightInches: Int?
    public var weightPounds: Int?
    public var handedness: String?
    public var draft: String?
    /// The season `seasonStats` belong to, e.g. "20252026".
    public var season: String
    /// nil when the player has no regular-season games this season.
    public var seasonStats: Stats?
    public var careerStats: Stats?
    public var lastGames: [Game]

    public init(landing: PlayerLanding, season: String, now: Date, time: LocalTime) {
        id = landing.playerId ?? 0
        name = landing.fullName
        team = landing.currentTeamAbbrev
        teamName = landing.fullTeamName?.value
        number = landing.sweaterNumber
        position = landing.position
        isGoalie = landing.isGoalie
        active = landing.isActive
        birthDate = landing.birthDate
        age = landing.birthDate.flatMap { time.age(birthDate: $0, at: now) }
        let place = [landing.birthCity?.value, landing.birthStateProvince?.value, landing.birthCountry]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
        birthplace = place.isEmpty ? nil : place
        heightInches = landing.heightInInches
        weightPounds = landing.weightInPounds
        handedness = landing.shootsCatches
        if let details = landing.draftDetails, let year = details.year {
            draft = "\(year) \(details.teamAbbrev ?? "") round \(details.round ?? 0), #\(details.overallPick ?? 0) overall"
        }
        self.season = season
        // This season's rows (several when he was traded), NHL regular season only.
        let rows = landing.nhlSeasons(gameType: .regularSeason).filter { String($0.season ?? 0) == season }
        let featured = landing.featuredStats
        if String(featured?.season ?? 0) == season, let line = featured?.regularSeason?.subSeason, (line.gamesPlayed ?? 0) > 0 {
            seasonStats = Stats(
                line, timeOnIce: rows.last?.stats.avgToi, gamesStarted: rows.compactMap(\.stats.gamesStarted).reduce(nil) { ($0 ?? 0) + $1 }
            )
        } else if let row = rows.last, (row.stats.gamesPlayed ?? 0) > 0 {
            seasonStats = Stats(row.stats)
        }
        careerStats = (landing.careerTotals?.regularSeason ?? featured?.regularSeason?.career).map { Stats($0) }
        lastGames = (landing.last5Games ?? []).map { game in
            let opponent = game.opponentAbbrev ?? "?"
            return Game(
                gameId: game.gameId, date: game.gameDate, opponent: game.homeRoadFlag == "H" ? "vs \(opponent)" : "@ \(opponent)",
                goals: game.goals, assists: game.assists, points: game.points, plusMinus: game.plusMinus, shots: game.shots,
                timeOnIce: game.toi, decision: game.decision, goalsAgainst: game.goalsAgainst, savePct: game.savePctg)
        }
    }
}

/// `faceoff teams`: the 32 clubs, league → conference → division.
public struct TeamsReport: Codable, Sendable, Equatable {
    public struct Team: Codable, Sendable, Equatable {
        public var abbrev: String
        public var name: String
        public var conference: String
        public var division: String
        public var arena: String?
        public var city: String?
        public var latitude: Double?
        public var longitude: Double?
        public var timeZone: String?
        public var primaryColor: String?
        public var secondaryColor: String?
    }

    public struct Division: Codable, Sendable, Equatable {
        public var name: String
        public var teams: [Team]
    }

    public struct Conference: Codable, Sendable, Equatable {
        public var name: String
        public var divisions: [Division]
    }

    public var league: String
    /// "api" when names and the team list came from the standings, "built-in" when offline without a cache.
    public var source: String
    public var conferences: [Conference]

    public init(standings: Standings?) {
        var teams: [Team] = []
        let source: String
        let rows = standings?.standings ?? []
        if rows.isEmpty {
            source = "built-in"
            teams = Teams.all.map { Self.team($0.abbrev, name: $0.fullName, conference: $0.conference, division: $0.division) }
        } else {
            source = "api"
            for row in rows {
                guard let abbrev = row.teamAbbrev?.value else { continue }
                let known = Teams.info(abbrev)
                teams.append(
                    Self.team(
                        abbrev, name: row.teamName?.value ?? known?.fullName ?? abbrev,
                        conference: row.conferenceName ?? known?.conference ?? "Other",
                        division: row.divisionName ?? known?.division ?? "Other"))
            }
        }
        self.init(league: "NHL", source: source, teams: teams)
    }

    /// Teams grouped: Eastern before Western, each league's divisions in their usual order,
    /// teams by name.
    public init(league: String, source: String, teams: [Team]) {
        self.league = league
        self.source = source
        let conferenceOrder = ["Eastern", "Western"]
        let divisionOrder = ["Atlantic", "Metropolitan", "Central", "Southeast", "Northwest", "Pacific", "Southwest"]
        let conferenceNames = Set(teams.map(\.conference)).sorted {
            (conferenceOrder.firstIndex(of: $0) ?? 9, $0) < (conferenceOrder.firstIndex(of: $1) ?? 9, $1)
        }
        conferences = conferenceNames.map { conference in
            let members = teams.filter { $0.conference == conference }
            let divisions = Set(members.map(\.division)).sorted {
                (divisionOrder.firstIndex(of: $0) ?? 9, $0) < (divisionOrder.firstIndex(of: $1) ?? 9, $1)
            }
            return Conference(
                name: conference,
                divisions: divisions.map { division in
                    Division(name: division, teams: members.filter { $0.division == division }.sorted { $0.name < $1.name })
                })
        }
    }

    private static func team(_ abbrev: String, name: String, conference: String, division: String) -> Team {
        let facts = TeamFactsTable.facts(for: abbrev)
        return Team(
            abbrev: abbrev, name: name, conference: conference, division: division, arena: facts?.arena.name,
            city: facts?.arena.city, latitude: facts?.arena.latitude, longitude: facts?.arena.longitude,
            timeZone: facts?.timeZone, primaryColor: facts?.primary.hex, secondaryColor: facts?.secondary.hex)
    }
}
