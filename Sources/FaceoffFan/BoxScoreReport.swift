import FaceoffKit
import FaceoffNHL
import Foundation

/// One game's box score (`faceoff game`): goals, shots by period, goalies, penalties, power
/// plays and three stars, from the landing, the boxscore and the right-rail answers. A part
/// whose answer is missing is named in `unavailable`, never guessed.
public struct BoxScoreReport: Codable, Sendable, Equatable {
    public struct Goal: Codable, Sendable, Equatable {
        public var period: String
        /// Time into the period, "MM:SS".
        public var time: String?
        public var team: String?
        public var scorer: String
        public var scorerTotal: Int?
        public var assists: [String]
        /// EV | PP | SH.
        public var strength: String?
        public var emptyNet: Bool
        public var penaltyShot: Bool
        /// The score after it, away first.
        public var score: String?
    }

    public struct PeriodShots: Codable, Sendable, Equatable {
        public var period: String
        public var away: Int
        public var home: Int
    }

    public struct Goalie: Codable, Sendable, Equatable {
        public var team: String
        public var name: String
        public var shotsAgainst: Int?
        public var saves: Int?
        public var savePercentage: Double?
        /// W | L | O (an overtime or shootout loss).
        public var decision: String?
        public var timeOnIce: String?
    }

    public struct Penalty: Codable, Sendable, Equatable {
        public var period: String
        public var time: String?
        public var team: String?
        public var player: String?
        public var infraction: String?
        public var minutes: Int?
    }

    public struct Star: Codable, Sendable, Equatable {
        public var star: Int
        public var name: String
        public var team: String?
        /// "2 G, 1 A" for a skater, ".950 SV%" for a goalie; nil when the answer gives none.
        public var line: String?
    }

    public var id: Int
    /// scheduled | live | final | postponed | cancelled.
    public var status: String
    public var start: String?
    public var away: GameSummary.Side
    public var home: GameSummary.Side
    public var endedIn: String?
    /// A live game's period and time left.
    public var period: String?
    public var clock: String?
    /// Absent (not empty) when the landing could not be had; so are penalties and stars.
    public var goals: [Goal]?
    public var shotsByPeriod: [PeriodShots]?
    public var goalies: [Goalie]?
    public var penalties: [Penalty]?
    /// "2/5": power-play goals over power plays.
    public var powerPlays: AwayHomeText?
    public var threeStars: [Star]?
    /// What could not be shown, and why.
    public var unavailable: [String]

    /// A save percentage as hockey writes it: ".950", "1.000".
    public static func savePercentage(_ value: Double) -> String {
        let text = String(format: "%.3f", value)
        return text.hasPrefix("0.") ? String(text.dropFirst()) : text
    }

    public struct AwayHomeText: Codable, Sendable, Equatable {
        public var away: String
        public var home: String
    }

    /// From the landing, the boxscore, or both (at least one): the game's state and score
    /// from whichever is there, each part from the answer that has it.
    public init(landing: GameLanding?, boxscore: Boxscore?, rightRail: GameRightRail?, unavailable: [String], time: LocalTime) {
        let schedule = ScheduleGame(
            id: landing?.id ?? boxscore?.id, gameType: landing?.gameType ?? boxscore?.gameType,
            startTimeUTC: landing?.startTimeUTC ?? boxscore?.startTimeUTC, gameState: landing?.gameState ?? boxscore?.gameState,
            gameScheduleState: landing?.gameScheduleState ?? boxscore?.gameScheduleState, awayTeam: landing?.awayTeam ?? boxscore?.awayTeam,
            homeTeam: landing?.homeTeam ?? boxscore?.homeTeam, periodDescriptor: landing?.periodDescriptor ?? boxscore?.periodDescriptor,
            gameOutcome: landing?.gameOutcome ?? boxscore?.gameOutcome)
        let summary = GameSummary(schedule, team: nil, time: time)
        id = schedule.id ?? 0
        status = summary?.status ?? "scheduled"
        start = schedule.startTimeUTC
        away = summary?.away ?? GameSummary.Side(abbrev: schedule.awayTeam?.abbrev ?? "?", name: "?", score: nil, shots: nil)
        home = summary?.home ?? GameSummary.Side(abbrev: schedule.homeTeam?.abbrev ?? "?", name: "?", score: nil, shots: nil)
        endedIn = summary?.endedIn
        period = status == "live" ? schedule.periodDescriptor?.label : nil
        clock = status == "live" ? (landing?.clock ?? boxscore?.clock)?.timeRemaining : nil

        goals = landing.map {
            ($0.summary?.scoring ?? []).flatMap { period in
                (period.goals ?? []).map { goal in
                    let name = goal.name?.value ?? [goal.firstName?.value, goal.lastName?.value].compactMap(\.self).joined(separator: " ")
                    return Goal(
                        period: period.periodDescriptor?.label ?? "?", time: goal.timeInPeriod, team: goal.teamAbbrev?.value,
                        scorer: name.isEmpty ? "?" : name, scorerTotal: goal.goalsToDate,
                        assists: (goal.assists ?? []).compactMap { assist in
                            guard let name = assist.name?.value ?? assist.lastName?.value else { return nil }
                            return assist.assistsToDate.map { "\(name) (\($0))" } ?? name
                        },
                        strength: goal.strength?.uppercased(), emptyNet: goal.goalModifier?.contains("empty-net") ?? false,
                        penaltyShot: goal.goalModifier == "penalty-shot",
                        score: goal.awayScore.flatMap { a in goal.homeScore.map { "\(a)–\($0)" } })
                }
            }
        }
        // Every period's line or none: a table missing one would add up to a wrong total.
        shotsByPeriod = rightRail?.shotsByPeriod.flatMap { lines in
            let known = lines.compactMap { line -> PeriodShots? in
                guard let away = line.away, let home = line.home else { return nil }
                return PeriodShots(period: line.periodDescriptor?.label ?? "?", away: away, home: home)
            }
            return known.count == lines.count ? known : nil
        }
        if let stats = boxscore?.playerByGameStats {
            let sides = [(away.abbrev, stats.awayTeam), (home.abbrev, stats.homeTeam)]
            goalies = sides.flatMap { team, players in
                // Only those who played: a dressed backup has no time on ice.
                (players?.goalies ?? []).filter { ($0.toi ?? "00:00") != "00:00" }.map { goalie in
                    Goalie(
                        team: team, name: goalie.name?.value ?? "?", shotsAgainst: goalie.shotsAgainst, saves: goalie.saves,
                        savePercentage: goalie.savePctg, decision: goalie.decision, timeOnIce: goalie.toi)
                }
            }
        }
        penalties = landing.map {
            ($0.summary?.penalties ?? []).flatMap { period in
                (period.penalties ?? []).map { penalty in
                    Penalty(
                        period: period.periodDescriptor?.label ?? "?", time: penalty.timeInPeriod, team: penalty.teamAbbrev?.value,
                        player: penalty.committedByPlayer.map(\.description) ?? penalty.servedBy.map { "bench (\($0.description) served)" },
                        infraction: penalty.descKey.map(Infraction.words), minutes: penalty.duration)
                }
            }
        }
        if let stat = rightRail?.teamStat("powerPlay"), let away = stat.awayValue?.description, let home = stat.homeValue?.description {
            powerPlays = AwayHomeText(away: away, home: home)
        }
        threeStars = landing.map {
            ($0.summary?.threeStars ?? []).compactMap { star in
                guard let number = star.star, let name = star.name?.value else { return nil }
                var line: String?
                if let save = star.savePctg {
                    line = "\(Self.savePercentage(save)) SV%"
                } else if let goals = star.goals, let assists = star.assists {
                    line = "\(goals) G, \(assists) A"
                }
                return Star(star: number, name: name, team: star.teamAbbrev?.value, line: line)
            }
        }
        self.unavailable = unavailable
    }
}
