import Foundation
import Testing

@testable import FaceoffBase
@testable import FaceoffCalendar
@testable import FaceoffDaemon
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL

@Suite(.timeLimit(.minutes(5))) struct CalendarBuilderTests {
    @Test func controlCharactersAreRemovedFromText() {
        #expect(CalendarBuilder.clean("A\u{0}B\u{7F}C\nD\tE\u{1B}F Montréal – 🏒\r") == "ABC\nD\tEF Montréal – 🏒")
        let plain = "Maple Leafs vs Canadiens · Scotiabank Arena, Toronto"
        #expect(CalendarBuilder.clean(plain) == plain)
    }

    @Test func calendarPropertiesAreThere() throws {
        let text = try CalendarBuilder.serialize(SampleFeed.feed([SampleFeed.event()]))
        let lines = SampleFeed.unfold(text)
        #expect(lines.first == "BEGIN:VCALENDAR")
        #expect(lines.last == "END:VCALENDAR")
        for expected in [
            "VERSION:2.0", "CALSCALE:GREGORIAN", "PRODID:-//Faceoff//Faceoff \(FaceoffInfo.version)//EN",
            "NAME:Toronto Maple Leafs 2025-26", "X-WR-CALNAME:Toronto Maple Leafs 2025-26", "X-WR-CALDESC:Toronto Maple Leafs games",
            "REFRESH-INTERVAL;VALUE=DURATION:PT6H", "X-PUBLISHED-TTL:PT6H", "COLOR:midnightblue", "X-APPLE-CALENDAR-COLOR:#00205B",
        ] {
            #expect(lines.contains(expected), "missing \(expected)")
        }
        #expect(!lines.contains { $0.hasPrefix("METHOD") })
    }

    @Test func eventPropertiesAreUTCAndComplete() throws {
        let lines = SampleFeed.unfold(try CalendarBuilder.serialize(SampleFeed.feed([SampleFeed.event()])))
        for expected in [
            "UID:nhl-game-2025020004@faceoff", "DTSTART:20251009T085320Z", "DTEND:20251009T115320Z",
            "DTSTAMP:20251008T085320Z", "LAST-MODIFIED:20251008T085320Z", "SEQUENCE:2", "STATUS:CONFIRMED",
            "SUMMARY:Maple Leafs vs Canadiens", "LOCATION:Scotiabank Arena\\, Toronto\\, ON", "GEO:43.643500;-79.379100",
            "CATEGORIES:NHL", "CATEGORIES:Regular season", "URL:https://www.nhl.com/gamecenter/2025020004",
            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT1H", "TRIGGER:-PT15M",
        ] {
            #expect(lines.contains(expected), "missing \(expected)")
        }
        #expect(!lines.contains { $0.hasPrefix("BEGIN:VTIMEZONE") })
    }

    @Test func linesAreCRLFFoldedAt75OctetsWithoutSplittingCharacters() throws {
        let description = String(repeating: "Montréal–Québec · Slafkovský, Dvořák; «ça» 🏒\n", count: 8)
        let text = try CalendarBuilder.serialize(SampleFeed.feed([SampleFeed.event(description: description)]))
        let bytes = Array(text.utf8)
        // Every LF is part of a CRLF.
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            #expect(index > 0 && bytes[index - 1] == 0x0D)
        }
        for line in text.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 75, "\(line.utf8.count) octets: \(line)")
        }
        // A fold inside a multi-byte character would have been repaired to U+FFFD on the way in.
        #expect(!text.contains("\u{FFFD}"))
        // Unfolded and unescaped, the text is what went in.
        let unfolded = try #require(SampleFeed.unfold(text).first { $0.hasPrefix("DESCRIPTION:Montr") })
        let value = unfolded.dropFirst("DESCRIPTION:".count)
            .replacingOccurrences(of: "\\n", with: "\n").replacingOccurrences(of: "\\,", with: ",").replacingOccurrences(
                of: "\\;", with: ";")
        #expect(value == description.trimmingCharacters(in: .newlines) || value == description)
    }

    @Test func textIsEscaped() throws {
        let lines = SampleFeed.unfold(try CalendarBuilder.serialize(SampleFeed.feed([SampleFeed.event(summary: "A, B; C \\ D")])))
        #expect(lines.contains("SUMMARY:A\\, B\\; C \\\\ D"))
    }

    @Test func controlCharactersAreRemovedAndXPropertiesEscaped() throws {
        var feed = SampleFeed.feed([SampleFeed.event(summary: "Bell\u{7}Centre\u{0}tail")])
        feed.description = "Games, goals; and \\ more"
        let text = try CalendarBuilder.serialize(feed)
        #expect(text.contains("SUMMARY:BellCentretail"))
        // libical leaves X- values unescaped, so their commas and semicolons are replaced.
        #expect(text.contains("X-WR-CALDESC:Games · goals · and  more"))
        #expect(text.contains("DESCRIPTION:Games\\, goals\\; and \\\\ more"))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\r" && $0 != "\n" })
    }

    @Test func statusesAndNoAlarmOnCancelledGames() throws {
        var cancelled = SampleFeed.event()
        cancelled.status = .cancelled
        var tentative = SampleFeed.event()
        tentative.uid = "other"
        tentative.status = .tentative
        let text = try CalendarBuilder.serialize(SampleFeed.feed([cancelled, tentative]))
        #expect(text.contains("STATUS:CANCELLED"))
        #expect(text.contains("STATUS:TENTATIVE"))
        #expect(text.components(separatedBy: "BEGIN:VALARM").count - 1 == 2)
    }
}

@Suite(.timeLimit(.minutes(5))) struct TimestampTests {
    @Test func theFastParserAgreesWithFoundation() throws {
        for text in [
            "2025-10-12T00:00:00Z", "2024-02-29T23:59:59Z", "2000-03-01T12:34:56Z", "1999-12-31T00:00:01Z", "2026-01-01T05:00:00Z",
        ] {
            #expect(NHLTimestamp.fastUTC(text) == (try Date(text, strategy: .iso8601)), "\(text)")
        }
        for text in ["2025-10-12T00:00:00", "2025-13-12T00:00:00Z", "2025-10-12 00:00:00Z", "2025-10-12T00:00:00.5Z", "x"] {
            #expect(NHLTimestamp.fastUTC(text) == nil, "\(text)")
        }
        // The general path still takes fractional seconds.
        #expect(NHLTimestamp.parse("2025-10-12T00:00:00.500Z") != nil)
    }

    @Test func localTimeFormatsWithoutAFormatter() throws {
        let time = LocalTime(timeZone: TimeZone(identifier: "America/Toronto")!)
        let date = try Date("2025-10-26T00:30:00Z", strategy: .iso8601)
        #expect(time.isoDay(date) == "2025-10-25")
        #expect(time.time(date) == "20:30")
        #expect(time.day(date) == "Sat Oct 25")
        #expect(time.iso(date) == "2025-10-25T20:30:00-04:00")
        let winter = try Date("2026-01-15T17:05:09Z", strategy: .iso8601)
        #expect(time.iso(winter) == "2026-01-15T12:05:09-05:00")
        #expect(LocalTime(timeZone: TimeZone(identifier: "Asia/Kolkata")!).iso(winter) == "2026-01-15T22:35:09+05:30")
        #expect(time.zoneAbbreviation(winter) == "EST")
    }

    /// On the autumn change, 01:30 happens twice: each says its zone. The hour before, the
    /// spring gap and a zone without daylight saving stay bare.
    @Test func theRepeatedHourSaysItsZone() throws {
        let time = LocalTime(timeZone: TimeZone(identifier: "America/Toronto")!)
        func at(_ text: String) throws -> String { time.time(try Date(text, strategy: .iso8601)) }
        #expect(try at("2025-11-02T05:30:00Z") == "01:30 EDT")
        #expect(try at("2025-11-02T06:30:00Z") == "01:30 EST")
        #expect(try at("2025-11-02T04:30:00Z") == "00:30")
        #expect(try at("2025-11-02T07:30:00Z") == "02:30")
        #expect(try at("2026-03-08T07:30:00Z") == "03:30")
        let tokyo = LocalTime(timeZone: TimeZone(identifier: "Asia/Tokyo")!)
        #expect(tokyo.time(try Date("2025-11-02T05:30:00Z", strategy: .iso8601)) == "14:30")
    }
}
