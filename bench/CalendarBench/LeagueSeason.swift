import FaceoffKit
import FaceoffNHL
import Foundation

/// A made-up but realistic 2025-26 league season in the API's club-schedule shape: every team
/// plays 82 games (41 at home), the first half of them finished with scores.
enum LeagueSeason {
    static func generate() -> [(team: String, json: Data)] {
        let teams = Teams.abbreviations
        var games: [[String: Any]] = []
        let start = try! Date("2025-10-07T23:00:00Z", strategy: .iso8601)
        var number = 1
        // A circle round-robin: 31 rounds of 16 games, repeated and mirrored to reach 82 each.
        var rotation = Array(teams.indices)
        var round = 0
        while games.count < 32 * 82 / 2 {
            for pair in 0..<16 where games.count < 32 * 82 / 2 {
                var home = teams[rotation[pair]]
                var away = teams[rotation[31 - pair]]
                if (round + pair).isMultiple(of: 2) { swap(&home, &away) }
                let day = start.addingTimeInterval(Double(round) * 86_400 * 1.3 + Double(pair % 4) * 1800)
                games.append(game(id: 2025020000 + number, home: home, away: away, start: day, finished: round < 41, seed: number))
                number += 1
            }
            rotation = [rotation[0]] + [rotation[31]] + rotation[1..<31]
            round += 1
        }
        return teams.map { team in
            let mine = games.filter {
                ($0["homeTeam"] as! [String: Any])["abbrev"] as! String == team
                    || ($0["awayTeam"] as! [String: Any])["abbrev"] as! String == team
            }
            let document: [String: Any] = [
                "previousSeason": 20242025, "currentSeason": 20252026, "clubTimezone": "America/Toronto",
                "clubUTCOffset": "-05:00", "games": mine,
            ]
            return (team, try! JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]))
        }
    }

    static func game(id: Int, home: String, away: String, start: Date, finished: Bool, seed: Int) -> [String: Any] {
        func team(_ abbrev: String, score: Int?) -> [String: Any] {
            let facts = TeamFactsTable.facts(for: abbrev)!
            var object: [String: Any] = [
                "id": Teams.abbreviations.firstIndex(of: abbrev)! + 1, "abbrev": abbrev,
                "commonName": ["default": facts.commonName], "placeName": ["default": facts.placeName],
                "placeNameWithPreposition": ["default": facts.placeName, "fr": "de \(facts.placeName)"],
                "logo": "https://assets.nhle.com/logos/nhl/svg/\(abbrev)_light.svg",
            ]
            if let score { object["score"] = score }
            return object
        }
        let homeScore = finished ? seed % 6 : nil
        let awayScore = finished ? (seed * 7 + 3) % 6 : nil
        let tied = finished && homeScore == awayScore
        let formatter = ISO8601DateFormatter()
        var object: [String: Any] = [
            "id": id, "season": 20252026, "gameType": 2, "gameDate": String(formatter.string(from: start).prefix(10)),
            "venue": ["default": TeamFactsTable.facts(for: home)!.arena.name], "neutralSite": false,
            "startTimeUTC": formatter.string(from: start), "easternUTCOffset": "-05:00", "venueUTCOffset": "-05:00",
            "venueTimezone": TeamFactsTable.facts(for: home)!.timeZone,
            "gameState": finished ? "OFF" : "FUT", "gameScheduleState": "OK",
            "tvBroadcasts": [
                ["id": 1, "market": "N", "countryCode": "US", "network": "ESPN+", "sequenceNumber": 1],
                ["id": 2, "market": "H", "countryCode": "CA", "network": "SN", "sequenceNumber": 2],
                ["id": 3, "market": "A", "countryCode": "US", "network": "MSG", "sequenceNumber": 3],
            ],
            "awayTeam": team(away, score: tied ? (awayScore ?? 0) + 1 : awayScore),
            "homeTeam": team(home, score: homeScore),
            "periodDescriptor": ["periodType": tied ? "OT" : "REG", "maxRegulationPeriods": 3],
            "gameCenterLink": "/gamecenter/\(away.lowercased())-vs-\(home.lowercased())/\(id)",
        ]
        if finished { object["gameOutcome"] = ["lastPeriodType": tied ? "OT" : "REG"] }
        return object
    }
}
