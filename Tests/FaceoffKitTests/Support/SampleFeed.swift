import FaceoffBase
import Foundation
import Testing

@testable import FaceoffBase
@testable import FaceoffCalendar
@testable import FaceoffDaemon
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL

/// One game's calendar event (TOR's home opener against MTL) and a team feed holding events.
enum SampleFeed {
    static let start = Date(timeIntervalSince1970: 1_760_000_000)

    static func event(summary: String = "Maple Leafs vs Canadiens", description: String = "Montréal Canadiens @ Toronto Maple Leafs")
        -> CalendarEvent
    {
        CalendarEvent(
            uid: "nhl-game-2025020004@faceoff", start: start, end: start.addingTimeInterval(3 * 3600), summary: summary,
            description: description, location: "Scotiabank Arena, Toronto, ON", latitude: 43.6435, longitude: -79.3791,
            url: "https://www.nhl.com/gamecenter/2025020004", categories: ["NHL", "Regular season"], status: .confirmed,
            sequence: 2, lastModified: start.addingTimeInterval(-86400), reminders: [3600, 900])
    }

    static func feed(_ events: [CalendarEvent]) -> CalendarFeed {
        CalendarFeed(
            name: "TOR", title: "Toronto Maple Leafs 2025-26", description: "Toronto Maple Leafs games", color: RGB(hex: "#00205B"),
            refresh: .seconds(6 * 3600), events: events)
    }

    /// The logical lines: CRLF split, folded continuations joined back.
    static func unfold(_ text: String) -> [String] {
        var lines: [String] = []
        for line in text.components(separatedBy: "\r\n") {
            if line.hasPrefix(" "), !lines.isEmpty { lines[lines.count - 1] += line.dropFirst() } else { lines.append(line) }
        }
        return lines.filter { !$0.isEmpty }
    }
}
