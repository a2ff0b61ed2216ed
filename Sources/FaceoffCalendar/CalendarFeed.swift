import FaceoffBase
import FaceoffKit
import Foundation

/// One .ics feed, ready to serialise: everything decided, nothing left to look up.
public struct CalendarFeed: Sendable, Equatable {
    /// The file name without `.ics`: `TOR`, `favourites`, `all`.
    public var name: String
    public var title: String
    public var description: String
    public var color: RGB?
    public var refresh: Duration
    public var events: [CalendarEvent]

    public init(name: String, title: String, description: String, color: RGB?, refresh: Duration, events: [CalendarEvent]) {
        self.name = name
        self.title = title
        self.description = description
        self.color = color
        self.refresh = refresh
        self.events = events
    }
}

public struct CalendarEvent: Sendable, Equatable, Codable {
    public enum Status: String, Sendable, Codable {
        case confirmed = "CONFIRMED"
        case tentative = "TENTATIVE"
        case cancelled = "CANCELLED"
    }

    public var uid: String
    public var start: Date
    public var end: Date
    public var summary: String
    public var description: String
    public var location: String?
    public var latitude: Double?
    public var longitude: Double?
    public var url: String?
    public var categories: [String]
    public var status: Status
    public var sequence: Int
    public var lastModified: Date
    /// Alarms, each this long before the start.
    public var reminders: [Int]
    /// The two teams (away, home): kept in the calendar state, not written to the feed.
    public var teams: [String]?
    /// A game with no time yet, on its day: `start` is that day at 00:00 UTC, `end` the next;
    /// written as dates (`DTSTART;VALUE=DATE`), without alarms.
    public var allDay: Bool?
    /// A playoff game its league drops from the schedule when the series does not need it
    /// (ESPN's "if necessary" games): its going is no sign of a broken answer.
    public var ifNecessary: Bool?

    public init(
        uid: String, start: Date, end: Date, summary: String, description: String, location: String?, latitude: Double?,
        longitude: Double?, url: String?, categories: [String], status: Status, sequence: Int, lastModified: Date, reminders: [Int]
    ) {
        self.uid = uid
        self.start = start
        self.end = end
        self.summary = summary
        self.description = description
        self.location = location
        self.latitude = latitude
        self.longitude = longitude
        self.url = url
        self.categories = categories
        self.status = status
        self.sequence = sequence
        self.lastModified = lastModified
        self.reminders = reminders
    }
}

public struct CalendarError: ReportedError, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
