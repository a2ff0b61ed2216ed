import FaceoffNHL
import Foundation

/// The system's time zone read as the C library reads it (tzset(3)), so Faceoff's times agree
/// with `date`'s: `TZ` when set (`:NAME`, a name under /usr/share/zoneinfo, a path to a zone
/// file, or a POSIX offset such as `UTC+5`, which is five hours *behind* UTC), else
/// /etc/localtime. What the C library would fall back to UTC for is UTC here too, and said.
public enum SystemTimeZone {
    public struct Reading: Sendable {
        public var zone: TimeZone
        /// Why `TZ` could not be read as written (then `zone` is what the C library uses).
        public var problem: String?
    }

    static let zoneinfo = "/usr/share/zoneinfo/"

    /// - Parameter environment: nil reads `TZ` from the process's own environment (one
    ///   variable: all of `ProcessInfo`'s costs a short command more than the rest of this).
    public static func read(_ environment: [String: String]? = nil) -> Reading {
        guard let raw = environment.map({ $0["TZ"] }) ?? getenv("TZ").map({ String(cString: $0) }) else {
            return Reading(zone: zone(atPath: "/etc/localtime") ?? .current, problem: nil)
        }
        let utc = TimeZone(identifier: "UTC")!
        if raw.isEmpty { return Reading(zone: utc, problem: nil) }
        let value = raw.hasPrefix(":") ? String(raw.dropFirst()) : raw
        if value.hasPrefix("/") {
            if let zone = zone(atPath: value) { return Reading(zone: zone, problem: nil) }
            return Reading(
                zone: utc,
                problem: "TZ=\(raw) is not a time zone file under \(zoneinfo), so UTC is used; set TZ to a name such as America/Toronto")
        }
        if !value.contains(".."), FileManager.default.fileExists(atPath: zoneinfo + value), let zone = TimeZone(identifier: value) {
            return Reading(zone: zone, problem: nil)
        }
        if let (offset, daylight) = posixOffset(value), let zone = TimeZone(secondsFromGMT: offset) {
            return Reading(
                zone: zone,
                problem: daylight
                    ? "TZ=\(raw) has daylight-saving rules, which Faceoff does not follow (it uses the standard offset); set TZ to a name such as America/Toronto"
                    : nil)
        }
        return Reading(
            zone: utc,
            problem:
                "TZ=\(raw) is not a time zone this system knows, so UTC is used (as the C library does); set TZ to a name such as America/Toronto, or timezone in the config"
        )
    }

    /// The zone of a zone file (links followed), by its name under /usr/share/zoneinfo.
    static func zone(atPath path: String) -> TimeZone? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        var name = String(cString: resolved)
        guard name.hasPrefix(zoneinfo) else { return nil }
        name.removeFirst(zoneinfo.count)
        for variant in ["posix/", "right/"] where name.hasPrefix(variant) { name.removeFirst(variant.count) }
        return TimeZone(identifier: name)
    }

    /// "UTC+5", "<+0330>-3:30", "EST5EDT,M3.2.0,M11.1.0": the standard offset east of UTC in
    /// seconds (the POSIX sign is west-positive), and whether daylight-saving rules follow.
    static func posixOffset(_ text: String) -> (Int, Bool)? {
        var rest = Substring(text)
        if rest.hasPrefix("<") {
            guard let close = rest.firstIndex(of: ">") else { return nil }
            rest = rest[rest.index(after: close)...]
        } else {
            let letters = rest.prefix { $0.isASCII && $0.isLetter }
            guard letters.count >= 3 else { return nil }
            rest = rest.dropFirst(letters.count)
        }
        var sign = 1
        if let first = rest.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        var parts: [Int] = []
        while parts.count < 3 {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 2, let number = Int(digits) else { return nil }
            parts.append(number)
            rest = rest.dropFirst(digits.count)
            guard rest.first == ":" else { break }
            rest = rest.dropFirst()
        }
        guard let hours = parts.first, hours <= 24 else { return nil }
        let seconds = hours * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0)
        // What follows the offset: nothing, or a daylight-saving zone and its rules.
        let daylight = !rest.isEmpty
        if daylight, !(rest.first!.isLetter || rest.first == "<") { return nil }
        return (-sign * seconds, daylight)
    }
}
