import Foundation

/// Turns a scheduled game into a calendar event (without SEQUENCE and LAST-MODIFIED, which
/// come from the stored state), through the calendar templates.
struct GameEventBuilder {
    let templates: TemplateSet
    let scores: Bool
    let duration: Duration
    let reminders: [Int]
    /// "W-L-OT" by abbreviation, for upcoming games' descriptions.
    let records: [String: String]

    /// The parts of an event that make SEQUENCE rise when they change (RFC 5545 §3.8.7.4).
    static func fingerprint(_ event: CalendarEvent) -> String {
        "\(Int(event.start.timeIntervalSince1970))|\(Int(event.end.timeIntervalSince1970))|\(event.status.rawValue)"
    }

    /// Everything a client shows; a change makes LAST-MODIFIED (and DTSTAMP) move.
    static func contentHash(_ event: CalendarEvent) -> String {
        var hash = StableHash()
        func mix(_ text: String) { hash.mix(field: text) }
        mix(event.uid)
        mix(String(Int(event.start.timeIntervalSince1970)))
        mix(String(Int(event.end.timeIntervalSince1970)))
        mix(event.summary)
        mix(event.description)
        mix(event.location ?? "")
        mix(event.latitude.map { String($0) } ?? "")
        mix(event.longitude.map { String($0) } ?? "")
        mix(event.url ?? "")
        mix(event.categories.joined(separator: ","))
        mix(event.status.rawValue)
        mix(event.reminders.map(String.init).joined(separator: ","))
        return hash.hex
    }

    static func trimmed(_ line: Substring) -> Substring {
        var start = line.startIndex
        var end = line.endIndex
        while start < end, line[start] == " " || line[start] == "\t" { start = line.index(after: start) }
        while end > start, line[line.index(before: end)] == " " || line[line.index(before: end)] == "\t" { end = line.index(before: end) }
        return line[start..<end]
    }

    func event(for game: ScheduleGame, perspective: String?) -> CalendarEvent? {
        guard let summary = GameSummary(game, team: perspective, time: nil), let start = game.startTime else { return nil }
        let away = game.awayTeam
        let home = game.homeTeam
        let ours = summary.homeOrAway == "home" ? home : away
        let theirs = summary.homeOrAway == "home" ? away : home
        let showScore = scores && (summary.isFinal || summary.isLive) && summary.away.score != nil && summary.home.score != nil
        let endedIn = summary.endedIn.flatMap { $0 == "REG" ? nil : $0 } ?? ""
        let usScore = summary.homeOrAway == "home" ? summary.home.score : summary.away.score
        let themScore = summary.homeOrAway == "home" ? summary.away.score : summary.home.score

        var context: [String: Any] = [
            "status": summary.status,
            "tbd": summary.timeTBD && summary.status == "scheduled",
            "postponed": summary.status == "postponed",
            "cancelled": summary.status == "cancelled",
            "live": summary.isLive,
            "final": summary.isFinal,
            "show_score": showScore,
            "perspective": summary.team != nil,
            "home": summary.homeOrAway == "home",
            "away": away?.displayName ?? summary.away.abbrev,
            "home_team": home?.displayName ?? summary.home.abbrev,
            "away_score": summary.away.score ?? 0,
            "home_score": summary.home.score ?? 0,
            "ended_in": endedIn,
            "preseason": summary.type == "preseason",
            "playoffs": summary.type == "playoffs",
        ]
        if summary.team != nil {
            context["us"] = ours?.displayName ?? ""
            context["them"] = theirs?.displayName ?? ""
            context["us_score"] = usScore ?? 0
            context["them_score"] = themScore ?? 0
            if showScore, summary.isFinal, let result = summary.result { context["result"] = result }
        }

        let arena = summary.venue.flatMap(TeamFactsTable.arena(named:))
        let gameType = switch summary.type {
        case "preseason": "Preseason"
        case "regular": "Regular season"
        case "playoffs": "Playoffs"
        default: "Special event"
        }
        func networks(_ market: String) -> String {
            summary.broadcasts.filter { $0.market == market }
                .map { "\($0.network)\($0.country.map { " (\($0))" } ?? "")" }
                .joined(separator: ", ")
        }
        let link = game.gameCenterLink.map { $0.hasPrefix("http") ? $0 : "https://www.nhl.com" + $0 }
            ?? "https://www.nhl.com/gamecenter/\(summary.id)"
        var details: [String: Any] = [
            "away_full": away?.fullName ?? summary.away.abbrev,
            "home_full": home?.fullName ?? summary.home.abbrev,
            "away_abbrev": summary.away.abbrev,
            "home_abbrev": summary.home.abbrev,
            "game_type": gameType,
            "tv_national": networks("national"),
            "tv_home": networks("home"),
            "tv_away": networks("away"),
            "url": link,
        ]
        if let series = summary.series { details["series"] = series }
        if let venue = summary.venue { details["venue"] = venue }
        if let city = arena?.city { details["city"] = city }
        if showScore, summary.isFinal {
            details["final_line"] = "Final: \(summary.away.abbrev) \(summary.away.score ?? 0)–\(summary.home.score ?? 0) \(summary.home.abbrev)\(endedIn.isEmpty ? "" : " (\(endedIn))")"
        }
        if scores, summary.status == "scheduled" {
            let known = [summary.away.abbrev, summary.home.abbrev].compactMap { abbrev in records[abbrev].map { "\(abbrev) \($0)" } }
            if !known.isEmpty { details["records"] = known.joined(separator: " · ") }
        }

        // Mustache treats "" as true in a section; an absent key is what templates test for.
        context = context.filter { ($0.value as? String)?.isEmpty != true }
        details = details.filter { ($0.value as? String)?.isEmpty != true }
        let title = templates.renderFlat("calendar-summary", context)
            .split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r\n" }).joined(separator: " ")
        // Trimmed by hand: Foundation's trimmingCharacters goes through NSString on Linux.
        let body = templates.renderFlat("calendar-description", details)
            .split(separator: "\n")
            .map(Self.trimmed)
            .filter { !$0.isEmpty }
            .joined(separator: "\n")
        let status: CalendarEvent.Status =
            switch summary.status {
            case "cancelled": .cancelled
            case "postponed": .tentative
            default: summary.timeTBD ? .tentative : .confirmed
            }
        var categories = ["NHL", gameType]
        categories += [summary.away.abbrev, summary.home.abbrev]
        let location = summary.venue.map { venue in arena.map { "\(venue), \($0.city)" } ?? venue }
        var event = CalendarEvent(
            uid: "nhl-game-\(summary.id)@faceoff", start: start, end: start.addingTimeInterval(Double(duration.components.seconds)),
            summary: title, description: body, location: location,
            latitude: arena?.latitude, longitude: arena?.longitude, url: link, categories: categories,
            status: status, sequence: 0, lastModified: Date(timeIntervalSince1970: 0), reminders: reminders)
        event.teams = [summary.away.abbrev, summary.home.abbrev]
        return event
    }

    /// The status words templates put in front of a title.
    static let statusPrefixes = ["CANCELLED: ", "POSTPONED: ", "TBD: "]

    static func withoutStatusPrefix(_ summary: String) -> String {
        var text = summary
        while let prefix = statusPrefixes.first(where: { text.hasPrefix($0) }) { text = String(text.dropFirst(prefix.count)) }
        return text
    }
}
