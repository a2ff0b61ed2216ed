import FaceoffAPI
import Foundation

/// `apis/site/v2/sports/basketball/nba/summary?event={id}`: one game, its box score and its
/// plays.
public struct ESPNSummary: Decodable, Sendable, Equatable {
    public struct Header: Decodable, Sendable, Equatable {
        public var id: String?
        /// False: no start time yet (`date` is a placeholder on its day).
        public var timeValid: Bool?
        public var competitions: [HeaderCompetition]?
        /// A playoff game's round and number: "East Finals - Game 6".
        public var gameNote: String?
    }

    public struct HeaderCompetition: Decodable, Sendable, Equatable {
        public struct Series: Decodable, Sendable, Equatable {
            /// "playoff", or "season" (the regular season's meetings)
            public struct Competitor: Decodable, Sendable, Equatable {
                /// ESPN's team id.
                public var id: String?
                public var wins: Int?
            }
            public var type: String?
            public var summary: String?
            /// The most games the series can have (7).
            public var totalCompetitions: Int?
            public var competitors: [Competitor]?
        }
        public struct Competitor: Decodable, Sendable, Equatable {
            public struct LineScore: Decodable, Sendable, Equatable { public var displayValue: String? }
            public var homeAway: String?
            public var team: ESPNTeam?
            public var score: ESPNScore?
            public var winner: Bool?
            public var linescores: [LineScore]?
        }

        public var date: String?
        public var timeValid: Bool?
        public var status: ESPNEvent.Status?
        public var competitors: [Competitor]?
        /// The playoff series only ("IND leads series 3-2"): summaries list the regular
        /// season's meetings beside it, and an answer may give one object instead of a list.
        public var series: Series?

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            date = try container.decodeIfPresent(String.self, forKey: .date)
            timeValid = try? container.decodeIfPresent(Bool.self, forKey: .timeValid)
            status = try container.decodeIfPresent(ESPNEvent.Status.self, forKey: .status)
            competitors = try container.decodeIfPresent([Competitor].self, forKey: .competitors)
            let listed = (try? container.decodeIfPresent([Series].self, forKey: .series)) ?? nil
            let single = (try? container.decodeIfPresent(Series.self, forKey: .series)) ?? nil
            series = (listed ?? single.map { [$0] } ?? []).first { $0.type == "playoff" }
        }

        private enum CodingKeys: String, CodingKey { case date, timeValid, status, competitors, series }
    }

    public struct Boxscore: Decodable, Sendable, Equatable {
        public var players: [TeamPlayers]?
    }

    public struct TeamPlayers: Decodable, Sendable, Equatable {
        public struct Statistics: Decodable, Sendable, Equatable {
            /// MIN PTS FG 3PT FT REB AST TO STL BLK OREB DREB PF +/-
            public var names: [String]?
            public var athletes: [Athlete]?
        }

        public struct Athlete: Decodable, Sendable, Equatable {
            public struct Person: Decodable, Sendable, Equatable {
                public var id: String?
                public var displayName: String?
            }

            public var athlete: Person?
            public var starter: Bool?
            public var didNotPlay: Bool?
            /// In the order of `names`; empty for a player who did not play.
            public var stats: [String]?
        }

        public var team: ESPNTeam?
        public var statistics: [Statistics]?
    }

    public struct TeamLeaders: Decodable, Sendable, Equatable {
        public struct Category: Decodable, Sendable, Equatable {
            public struct Leader: Decodable, Sendable, Equatable {
                public struct Person: Decodable, Sendable, Equatable { public var displayName: String? }
                public var athlete: Person?
                public var displayValue: String?
                /// "11/16 FG, 3/6 FT"
                public var summary: String?
            }

            /// "Points"
            public var displayName: String?
            public var leaders: [Leader]?
        }

        public var team: ESPNTeam?
        public var leaders: [Category]?
    }

    public struct GameInfo: Decodable, Sendable, Equatable {
        public var venue: ESPNEvent.Venue?
        public var attendance: Int?
    }

    /// One play: the score after it, its quarter and the time left in it, who was in it (the
    /// scorer, shooter or rebounder first; on a basket, the one who assisted second).
    public struct Play: Decodable, Sendable, Equatable {
        public struct Kind: Decodable, Sendable, Equatable { public var text: String? }
        public struct Period: Decodable, Sendable, Equatable { public var number: Int? }
        public struct Clock: Decodable, Sendable, Equatable { public var displayValue: String? }
        public struct Team: Decodable, Sendable, Equatable { public var id: String? }
        public struct Participant: Decodable, Sendable, Equatable {
            public struct Athlete: Decodable, Sendable, Equatable { public var id: String? }
            public var athlete: Athlete?
        }

        public var id: String?
        /// Grows through the game (a string in the answers).
        public var sequenceNumber: String?
        /// "Jump Shot", "Free Throw - 1 of 2", "Defensive Rebound", "End Period", "End Game"
        public var type: Kind?
        /// "Wendell Carter Jr. makes 26-foot three point jumper (Franz Wagner assists)"
        public var text: String?
        public var awayScore: Int?
        public var homeScore: Int?
        public var period: Period?
        /// Time left in the quarter: "10:05", under a minute "45.3".
        public var clock: Clock?
        public var scoringPlay: Bool?
        public var scoreValue: Int?
        public var team: Team?
        public var participants: [Participant]?
        public var wallclock: String?

        public init(
            id: String? = nil, sequenceNumber: String? = nil, type: String? = nil, text: String? = nil, awayScore: Int? = nil,
            homeScore: Int? = nil, period: Int? = nil, clock: String? = nil, scoringPlay: Bool? = nil, scoreValue: Int? = nil,
            team: String? = nil, participants: [String] = []
        ) {
            self.id = id
            self.sequenceNumber = sequenceNumber
            self.type = type.map { Kind(text: $0) }
            self.text = text
            self.awayScore = awayScore
            self.homeScore = homeScore
            self.period = period.map { Period(number: $0) }
            self.clock = clock.map { Clock(displayValue: $0) }
            self.scoringPlay = scoringPlay
            self.scoreValue = scoreValue
            self.team = team.map { Team(id: $0) }
            self.participants = participants.map { Participant(athlete: .init(id: $0)) }
        }

        /// The ids of the players in it, in the answer's order.
        public var athletes: [String] { (participants ?? []).compactMap { $0.athlete?.id } }
    }

    public var header: Header?
    public var boxscore: Boxscore?
    public var leaders: [TeamLeaders]?
    public var gameInfo: GameInfo?
    /// In order; none before the game.
    public var plays: [Play]?

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        header = try container.decodeIfPresent(Header.self, forKey: .header)
        boxscore = try? container.decodeIfPresent(Boxscore.self, forKey: .boxscore)
        leaders = try? container.decodeIfPresent([TeamLeaders].self, forKey: .leaders)
        gameInfo = try? container.decodeIfPresent(GameInfo.self, forKey: .gameInfo)
        // One play ESPN wrote oddly loses that play, not the game.
        plays = try? container.decodeIfPresent([Lenient<Play>].self, forKey: .plays)?.compactMap(\.value)
    }

    private enum CodingKeys: String, CodingKey { case header, boxscore, leaders, gameInfo, plays }
}

/// An element of a list that decodes to nil instead of failing the list.
struct Lenient<Value: Decodable>: Decodable {
    let value: Value?

    init(from decoder: any Decoder) throws {
        value = try? Value(from: decoder)
    }
}

extension ESPNSummary {
    /// Why the answer can't be a real game's (`Plausible`): a play's quarter, clock, score or
    /// points, or the game's period, out of what a game reaches; nil when all are.
    public var implausible: String? {
        let period = header?.competitions?.first?.status?.period
        let series = header?.competitions?.first?.series
        if let problem = Plausible.first(
            Plausible.problem(period, 0...Plausible.period.upperBound, "the game's period"),
            Plausible.problem(plays?.count, Plausible.plays, "the number of plays"),
            Plausible.problem(series?.totalCompetitions, 1...Plausible.seriesCount.upperBound, "the series' games"),
            series?.competitors?.lazy.compactMap { Plausible.problem($0.wins, Plausible.seriesCount, "a series' wins") }.first)
        {
            return problem
        }
        for play in plays ?? [] {
            let problem = Plausible.first(
                Plausible.problem(play.period?.number, Plausible.period, "a play's quarter"),
                Plausible.problem(play.awayScore, Plausible.score, "a play's away score"),
                Plausible.problem(play.homeScore, Plausible.score, "a play's home score"),
                Plausible.problem(play.scoreValue, 0...4, "a play's points"),
                play.clock?.displayValue.flatMap { clock in
                    ESPNClock.isImpossible(clock) ? "it gives a play's clock as \"\(clock.prefix(40))\"" : nil
                })
            if let problem { return problem }
        }
        return nil
    }
}

/// A period's clock as ESPN writes it ("10:05", or under a minute "45.3") as seconds, nil for
/// anything a period's clock can't read (not a number, NaN, negative, longer than a period).
public enum ESPNClock {
    public static func seconds(_ clock: String) -> Double? { number(clock).flatMap { Plausible.seconds($0) } }

    /// A number no period's clock can read (NaN, an infinity, negative, longer than any
    /// period): the answer is refused. Text that is no number at all ("--") is only no clock.
    public static func isImpossible(_ clock: String) -> Bool {
        guard let value = number(clock) else { return false }
        return Plausible.seconds(value) == nil
    }

    /// "10:05" as 605, "45.3" as 45.3; nil for what is not minutes and seconds or seconds.
    static func number(_ clock: String) -> Double? {
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return Double(parts[0])
        case 2:
            guard let minutes = Double(parts[0]), let seconds = Double(parts[1]) else { return nil }
            return minutes * 60 + seconds
        default: return nil
        }
    }
}
