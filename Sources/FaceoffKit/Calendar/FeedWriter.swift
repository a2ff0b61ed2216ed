import Foundation

/// Writes feed files so a calendar app never sees a broken or needlessly emptied feed.
public enum FeedWriter {
    public enum Outcome: Sendable, Equatable {
        case written
        /// The file already had exactly this content; it was left alone (its mtime too).
        case unchanged
        /// The new feed had no games where the old one had some; the old one stays.
        case refusedEmpty(previousEvents: Int)
    }

    public static func eventCount(_ text: String) -> Int {
        text.components(separatedBy: "BEGIN:VEVENT").count - 1
    }

    public static func write(_ text: String, to path: String, allowEmpty: Bool) throws -> Outcome {
        let existing = try? String(contentsOfFile: path, encoding: .utf8)
        if existing == text { return .unchanged }
        if let existing, !allowEmpty, eventCount(text) == 0 {
            let previous = eventCount(existing)
            if previous > 0 { return .refusedEmpty(previousEvents: previous) }
        }
        try AtomicFile.write(text, to: path)
        return .written
    }
}
