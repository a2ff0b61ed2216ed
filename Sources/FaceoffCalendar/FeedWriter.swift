import FaceoffBase
import FaceoffKit
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
        // A byte scan: components(separatedBy:) goes through NSString on Linux.
        let needle = Array("BEGIN:VEVENT".utf8)
        var count = 0
        var text = text
        text.withUTF8 { bytes in
            guard bytes.count >= needle.count else { return }
            var index = 0
            while index <= bytes.count - needle.count {
                if bytes[index] == needle[0], (1..<needle.count).allSatisfy({ bytes[index + $0] == needle[$0] }) {
                    count += 1
                    index += needle.count
                } else {
                    index += 1
                }
            }
        }
        return count
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
