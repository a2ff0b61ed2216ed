import FaceoffESPN
import FaceoffNHL
import Foundation

extension GameSummary {
    /// An NBA game (an ESPN event) from `team`'s side. A game with no time yet has its day
    /// and no time: ESPN's placeholder time is never shown.
    public init?(nba event: ESPNEvent, team: NBATeam?, time: LocalTime) {
        guard let id = event.id.flatMap({ Int($0) }), let competition = event.competition else { return nil }
        self.id = id
        season = nil
        switch event.seasonType?.type {
        case 1: type = "preseason"
        case 2: type = "regular"
        case 3: type = "playoffs"
        default: type = "other"
        }
        timeTBD = !event.hasTime
        if timeTBD {
            date = event.easternDay
            start = nil
            startLocal = nil
        } else {
            let moment = event.startDate
            date = moment.map(time.isoDay)
            start = moment.map { $0.formatted(.iso8601) }
            startLocal = moment.map(time.iso)
        }
        let kind = competition.status?.type
        status = competition.status?.game ?? "scheduled"
        state = kind?.name
        scheduleState = nil
        let competitors = competition.competitors ?? []
        let scored = status == "live" || status == "final"
        func side(_ homeAway: String) -> Side {
            let competitor = competition.competitor(homeAway)
            let abbrev = competitor?.team?.abbreviation ?? "?"
            // A game not begun has no score (scoreboards write "0").
            let score = scored ? competitor?.score?.points : nil
            return Side(abbrev: abbrev, name: competitor?.team?.displayName ?? abbrev, score: score, shots: nil)
        }
        away = side("away")
        home = side("home")
        venue = competition.venue?.fullName
        neutralSite = competition.neutralSite ?? false
        // "Final/OT", "Final/2OT": any overtime is OT, as the NHL's are.
        endedIn = status == "final" ? ((kind?.detail ?? "").contains("OT") || (competition.status?.period ?? 0) > 4 ? "OT" : "REG") : nil
        broadcasts = competition.networks.compactMap { broadcast in
            guard let network = broadcast.media?.shortName else { return nil }
            let market = broadcast.market?.type?.lowercased() ?? "other"
            return Broadcast(market: ["national", "home", "away"].contains(market) ? market : "other", country: nil, network: network)
        }
        // "West Semifinals - Game 5 If Necessary"
        series = competition.notes?.compactMap(\.headline).first
        self.team = nil
        opponent = nil
        homeOrAway = nil
        result = nil
        if let team, let ours = competitors.first(where: { $0.team?.id == team.id }) {
            let isHome = ours.homeAway == "home"
            self.team = (isHome ? home : away).abbrev
            homeOrAway = isHome ? "home" : "away"
            opponent = (isHome ? away : home).abbrev
            if status == "final", let winner = ours.winner { result = winner ? "W" : "L" }
        }
    }
}
