import FaceoffESPN
import FaceoffKit
import Foundation

extension GameEventBuilder {
    /// An NBA game (an event of ESPN's team schedule) as a calendar event, through the same
    /// templates as the NHL's: a playoff game's round and number from ESPN's note ("West
    /// Semifinals · Game 5", "if necessary" while it may not be needed), a game with no time
    /// yet as an all-day event on its day (US Eastern, ESPN's), a final's score with
    /// `Final/OT` (or none, spoiler-free). UIDs are `nba-game-ID@faceoff`: never an NHL game's.
    func event(nba game: ESPNEvent, team: NBATeam?) -> CalendarEvent? {
        guard let summary = GameSummary(nba: game, team: team, time: LocalTime(timeZone: .gmt)) else { return nil }
        let start: Date
        let end: Date
        let allDay = summary.timeTBD
        if allDay {
            guard let day = summary.date.flatMap(Self.utcDay) else { return nil }
            start = day
            end = day.addingTimeInterval(86400)
        } else {
            guard let moment = game.startDate else { return nil }
            start = moment
            end = moment.addingTimeInterval(Double(duration.components.seconds))
        }
        let names = (away: NBATeams.team(abbreviation: summary.away.abbrev), home: NBATeams.team(abbreviation: summary.home.abbrev))
        let showScore = scores && (summary.isFinal || summary.isLive) && summary.away.score != nil && summary.home.score != nil
        let endedIn = summary.endedIn.flatMap { $0 == "REG" ? nil : $0 } ?? ""
        let isHome = summary.homeOrAway == "home"

        var context = FlatContext(Self.keys)
        func set(_ key: Key, _ text: String?) { if let text, !text.isEmpty { context[key.rawValue] = .text(text) } }
        func set(_ key: Key, _ flag: Bool) { context[key.rawValue] = .flag(flag) }
        func set(_ key: Key, _ number: Int) { context[key.rawValue] = .number(number) }
        set(.status, summary.status)
        set(.tbd, allDay && summary.status == "scheduled")
        set(.postponed, summary.status == "postponed")
        set(.cancelled, summary.status == "cancelled")
        set(.seriesTag, summary.round)
        set(.ifNecessary, summary.ifNecessary)
        set(.live, summary.isLive)
        set(.final, summary.isFinal)
        set(.showScore, showScore)
        set(.perspective, summary.team != nil)
        set(.home, isHome)
        set(.away, names.away?.shortName ?? summary.away.abbrev)
        set(.homeTeam, names.home?.shortName ?? summary.home.abbrev)
        set(.awayScore, summary.away.score ?? 0)
        set(.homeScore, summary.home.score ?? 0)
        set(.endedIn, endedIn)
        set(.preseason, summary.type == "preseason")
        set(.playoffs, summary.type == "playoffs")
        if summary.team != nil {
            set(.us, (isHome ? names.home?.shortName : names.away?.shortName) ?? summary.team)
            set(.them, (isHome ? names.away?.shortName : names.home?.shortName) ?? summary.opponent)
            set(.usScore, (isHome ? summary.home.score : summary.away.score) ?? 0)
            set(.themScore, (isHome ? summary.away.score : summary.home.score) ?? 0)
            if showScore, summary.isFinal, let result = summary.result { set(.result, result) }
        }
        let title = Self.collapsingWhitespace(templates.renderCalendar("calendar-summary", context))

        let gameType = Self.gameTypeLabel(summary.type)
        var tv: [String: String] = [:]
        for broadcast in summary.broadcasts {
            tv[broadcast.market] = tv[broadcast.market].map { $0 + ", " + broadcast.network } ?? broadcast.network
        }
        let link = "https://www.espn.com/nba/game/_/gameId/\(summary.id)"
        context = FlatContext(Self.keys)
        set(.awayFull, names.away?.name ?? summary.away.name)
        set(.homeFull, names.home?.name ?? summary.home.name)
        set(.awayAbbrev, summary.away.abbrev)
        set(.homeAbbrev, summary.home.abbrev)
        set(.gameType, gameType)
        set(.tvNational, tv["national"] ?? tv["other"])
        set(.tvHome, tv["home"])
        set(.tvAway, tv["away"])
        set(.url, link)
        set(.series, summary.roundLine)
        set(.venue, summary.venue)
        if showScore, summary.isFinal {
            // ESPN's own words for how it ended: Final, Final/OT.
            set(
                .finalLine,
                "\(FinalLabel.text(summary.endedIn)): \(summary.away.abbrev) \(summary.away.score ?? 0)–\(summary.home.score ?? 0) \(summary.home.abbrev)"
            )
        }
        let body = Self.withoutBlankLines(templates.renderCalendar("calendar-description", context))
        let status: CalendarEvent.Status =
            switch summary.status {
            case "cancelled": .cancelled
            case "postponed": .tentative
            default: allDay || summary.ifNecessary ? .tentative : .confirmed
            }
        var event = CalendarEvent(
            uid: "nba-game-\(summary.id)@faceoff", start: start, end: end, summary: title, description: body, location: summary.venue,
            latitude: nil, longitude: nil, url: link, categories: ["NBA", gameType, summary.away.abbrev, summary.home.abbrev],
            status: status, sequence: 0, lastModified: Date(timeIntervalSince1970: 0), reminders: allDay ? [] : reminders)
        event.teams = ["nba:\(summary.away.abbrev)", "nba:\(summary.home.abbrev)"]
        if allDay { event.allDay = true }
        if summary.ifNecessary { event.ifNecessary = true }
        return event
    }

    /// "2026-05-13" as that day's 00:00 UTC.
    static func utcDay(_ day: String) -> Date? {
        try? Date("\(day)T00:00:00Z", strategy: .iso8601)
    }
}
