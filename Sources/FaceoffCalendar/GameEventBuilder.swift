import FaceoffBase
import FaceoffKit
import Foundation

/// Turns a scheduled game into a calendar event (without SEQUENCE and LAST-MODIFIED, which
/// come from the stored state), through the calendar templates.
struct GameEventBuilder {
    let templates: TemplateSet
    let scores: Bool
    let duration: Duration
    let reminders: [Int]
    /// "W-L-OT" by league and abbreviation, for upcoming games' descriptions.
    let records: [League: [String: String]]

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

    /// `game` as an event, seen as its summary is (from a followed team, or from nobody); nil
    /// when it has no start the calendar can place.
    func event(for game: CalendarGame) -> CalendarEvent? {
        let summary = game.summary
        guard let start = game.start else { return nil }
        let showScore = scores && (summary.isFinal || summary.isLive) && summary.away.score != nil && summary.home.score != nil
        let endedIn = summary.endedIn.flatMap { $0 == "REG" ? nil : $0 } ?? ""
        let isHome = summary.homeOrAway == "home"

        // Mustache treats "" as true in a section; an absent key is what templates test for.
        var context = FlatContext(Self.keys)
        func set(_ key: Key, _ text: String?) { if let text, !text.isEmpty { context[key.rawValue] = .text(text) } }
        func set(_ key: Key, _ flag: Bool) { context[key.rawValue] = .flag(flag) }
        func set(_ key: Key, _ number: Int) { context[key.rawValue] = .number(number) }
        set(.status, summary.status)
        set(.tbd, summary.timeTBD && summary.status == "scheduled")
        set(.postponed, summary.status == "postponed")
        set(.cancelled, summary.status == "cancelled" || game.notNeeded)
        set(.seriesTag, game.seriesTag)
        set(.ifNecessary, game.ifNecessary)
        set(.live, summary.isLive)
        set(.final, summary.isFinal)
        set(.showScore, showScore)
        set(.perspective, summary.team != nil)
        set(.home, isHome)
        set(.away, game.away.short)
        set(.homeTeam, game.home.short)
        set(.awayScore, summary.away.score ?? 0)
        set(.homeScore, summary.home.score ?? 0)
        set(.endedIn, endedIn)
        set(.preseason, summary.type == "preseason")
        set(.playoffs, summary.type == "playoffs")
        if summary.team != nil {
            set(.us, isHome ? game.home.short : game.away.short)
            set(.them, isHome ? game.away.short : game.home.short)
            set(.usScore, (isHome ? summary.home.score : summary.away.score) ?? 0)
            set(.themScore, (isHome ? summary.away.score : summary.home.score) ?? 0)
            if showScore, summary.isFinal, let result = summary.result { set(.result, result) }
        }
        let title = Self.collapsingWhitespace(templates.renderCalendar("calendar-summary", context))

        let gameType = Self.gameTypeLabel(summary.type)
        context = FlatContext(Self.keys)
        set(.awayFull, game.away.full)
        set(.homeFull, game.home.full)
        set(.awayAbbrev, summary.away.abbrev)
        set(.homeAbbrev, summary.home.abbrev)
        set(.gameType, gameType)
        set(.tvNational, game.tv["national"])
        set(.tvHome, game.tv["home"])
        set(.tvAway, game.tv["away"])
        set(.url, game.link)
        set(.series, game.seriesLine)
        set(.venue, summary.venue)
        set(.city, game.arena?.city)
        if showScore, summary.isFinal { set(.finalLine, game.finalLine) }
        if scores, summary.status == "scheduled" {
            let records = self.records[game.league] ?? [:]
            let known = [summary.away.abbrev, summary.home.abbrev].compactMap { abbrev in records[abbrev].map { "\(abbrev) \($0)" } }
            set(.records, known.joined(separator: " · "))
        }
        let body = Self.withoutBlankLines(templates.renderCalendar("calendar-description", context))
        let status: CalendarEvent.Status =
            switch summary.status {
            case "cancelled": .cancelled
            case "postponed": .tentative
            case _ where game.notNeeded: .cancelled
            default: summary.timeTBD || game.ifNecessary ? .tentative : .confirmed
            }
        let location = summary.venue.map { venue in game.arena.map { "\(venue), \($0.city)" } ?? venue }
        var event = CalendarEvent(
            uid: "\(game.league.rawValue)-game-\(summary.id)@faceoff", start: start,
            end: start.addingTimeInterval(game.allDay ? 86400 : Double(duration.components.seconds)), summary: title,
            description: body, location: location, latitude: game.arena?.latitude, longitude: game.arena?.longitude, url: game.link,
            categories: [game.league.name, gameType, summary.away.abbrev, summary.home.abbrev], status: status, sequence: 0,
            lastModified: Date(timeIntervalSince1970: 0), reminders: game.allDay ? [] : reminders)
        event.teams = game.teams
        if game.allDay { event.allDay = true }
        if game.leavesWhenNotNeeded { event.ifNecessary = true }
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
