import FaceoffBase
import FaceoffKit
import FaceoffNHL
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
    /// Playoff games' series states, by game id (`SeriesState.states` of the schedules).
    var series: [Int: SeriesState] = [:]

    typealias Key = CalendarTemplateKey

    static let keys = CalendarTemplateKey.flatKeys

    /// A game's kind as the feeds name it (its CATEGORIES and the templates' `game_type`), in
    /// either league.
    static func gameTypeLabel(_ type: String) -> String {
        switch type {
        case "preseason": "Preseason"
        case "regular": "Regular season"
        case "playoffs": "Playoffs"
        default: "Special event"
        }
    }

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

    /// A title on one line: runs of spaces, tabs and line breaks become one space, none at the
    /// ends. (By bytes: splitting a String by Characters costs more than rendering it.)
    static func collapsingWhitespace(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D {
                pendingSpace = !output.isEmpty
            } else {
                if pendingSpace { output.append(0x20) }
                pendingSpace = false
                output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Each line without leading or trailing spaces and tabs, and no blank lines.
    static func withoutBlankLines(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
            var lineStart = 0
            while lineStart < bytes.count {
                var lineEnd = lineStart
                while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
                var start = lineStart
                var end = lineEnd
                while start < end, isSpace(bytes[start]) { start += 1 }
                while end > start, isSpace(bytes[end - 1]) { end -= 1 }
                if start < end {
                    if !output.isEmpty { output.append(0x0A) }
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                }
                lineStart = lineEnd + 1
            }
            return String(decoding: output, as: UTF8.self)
        }
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

        // Mustache treats "" as true in a section; an absent key is what templates test for.
        var context = FlatContext(Self.keys)
        func set(_ key: Key, _ text: String?) { if let text, !text.isEmpty { context[key.rawValue] = .text(text) } }
        func set(_ key: Key, _ flag: Bool) { context[key.rawValue] = .flag(flag) }
        func set(_ key: Key, _ number: Int) { context[key.rawValue] = .number(number) }
        // A playoff game the series may not need is tentative; one it ended without, cancelled.
        // Spoiler-free feeds can't say either from the results: games past the fourth are "if
        // necessary" until played.
        let series = self.series[summary.id]
        let notNeeded = scores && series?.notNeeded == true
        let ifNecessary =
            scores
            ? series?.ifNecessary == true
            : series.map { $0.gameNumber > $0.neededToWin && !summary.isFinal && !summary.isLive } ?? false
        set(.status, summary.status)
        set(.tbd, summary.timeTBD && summary.status == "scheduled")
        set(.postponed, summary.status == "postponed")
        set(.cancelled, summary.status == "cancelled" || notNeeded)
        set(.seriesTag, series?.tag)
        set(.ifNecessary, ifNecessary)
        set(.live, summary.isLive)
        set(.final, summary.isFinal)
        set(.showScore, showScore)
        set(.perspective, summary.team != nil)
        set(.home, summary.homeOrAway == "home")
        set(.away, away?.displayName ?? summary.away.abbrev)
        set(.homeTeam, home?.displayName ?? summary.home.abbrev)
        set(.awayScore, summary.away.score ?? 0)
        set(.homeScore, summary.home.score ?? 0)
        set(.endedIn, endedIn)
        set(.preseason, summary.type == "preseason")
        set(.playoffs, summary.type == "playoffs")
        if summary.team != nil {
            set(.us, ours?.displayName ?? "")
            set(.them, theirs?.displayName ?? "")
            set(.usScore, usScore ?? 0)
            set(.themScore, themScore ?? 0)
            if showScore, summary.isFinal, let result = summary.result { set(.result, result) }
        }
        let title = Self.collapsingWhitespace(templates.renderCalendar("calendar-summary", context))

        let arena = summary.venue.flatMap(TeamFactsTable.arena(named:))
        let gameType = Self.gameTypeLabel(summary.type)
        // Networks by market, in one pass: "TSN4, RDS".
        var tv: [String: String] = [:]
        for broadcast in summary.broadcasts {
            var name = broadcast.network
            if let country = broadcast.country { name += " (\(country))" }
            if let earlier = tv[broadcast.market] { tv[broadcast.market] = earlier + ", " + name } else { tv[broadcast.market] = name }
        }
        let link =
            game.gameCenterLink.map { $0.hasPrefix("http") ? $0 : "https://www.nhl.com" + $0 }
            ?? "https://www.nhl.com/gamecenter/\(summary.id)"
        context = FlatContext(Self.keys)
        set(.awayFull, away?.fullName ?? summary.away.abbrev)
        set(.homeFull, home?.fullName ?? summary.home.abbrev)
        set(.awayAbbrev, summary.away.abbrev)
        set(.homeAbbrev, summary.home.abbrev)
        set(.gameType, gameType)
        set(.tvNational, tv["national"])
        set(.tvHome, tv["home"])
        set(.tvAway, tv["away"])
        set(.url, link)
        // The series score is a result: spoiler-free feeds leave it out.
        set(
            .series,
            series.map { state in
                ["\(state.abbrev) game \(state.gameNumber)", scores ? state.text : nil, ifNecessary ? "if necessary" : nil]
                    .compactMap { $0 }.joined(separator: " · ")
            } ?? summary.series)
        set(.venue, summary.venue)
        set(.city, arena?.city)
        if showScore, summary.isFinal {
            set(
                .finalLine,
                "Final: \(summary.away.abbrev) \(summary.away.score ?? 0)–\(summary.home.score ?? 0) \(summary.home.abbrev)\(endedIn.isEmpty ? "" : " (\(endedIn))")"
            )
        }
        if scores, summary.status == "scheduled" {
            let known = [summary.away.abbrev, summary.home.abbrev].compactMap { abbrev in records[abbrev].map { "\(abbrev) \($0)" } }
            set(.records, known.joined(separator: " · "))
        }
        let body = Self.withoutBlankLines(templates.renderCalendar("calendar-description", context))
        let status: CalendarEvent.Status =
            switch summary.status {
            case "cancelled": .cancelled
            case "postponed": .tentative
            case _ where notNeeded: .cancelled
            default: summary.timeTBD || ifNecessary ? .tentative : .confirmed
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
