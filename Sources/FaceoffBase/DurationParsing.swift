import Foundation

/// Durations as the config file writes them: `30s`, `5m`, `1h`, `1h30m`, `2d`, or ISO 8601 (`PT1H`, `P1DT2H`).
public enum DurationText {
    public static func parse(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if trimmed.uppercased().hasPrefix("P") { return parseISO(trimmed.uppercased()) }
        var total: Int64 = 0
        var number = ""
        var sawUnit = false
        for character in trimmed.lowercased() {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            guard let value = Int64(number) else { return nil }
            let unit: Int64
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            case "d": unit = 86_400
            default: return nil
            }
            guard let added = add(total, value, unit) else { return nil }
            total = added
            number = ""
            sawUnit = true
        }
        // "0" alone is a clear enough zero; any other bare number is ambiguous.
        if !number.isEmpty {
            guard !sawUnit, number == "0" else { return nil }
        }
        return .seconds(total)
    }

    private static func parseISO(_ text: String) -> Duration? {
        var total: Int64 = 0
        var number = ""
        var inTime = false
        var sawComponent = false
        for character in text.dropFirst() {
            if character == "T" {
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
                continue
            }
            if character.isNumber {
                number.append(character)
                continue
            }
            guard let value = Int64(number) else { return nil }
            let unit: Int64
            switch (character, inTime) {
            case ("W", false): unit = 604_800
            case ("D", false): unit = 86_400
            case ("H", true): unit = 3600
            case ("M", true): unit = 60
            case ("S", true): unit = 1
            default: return nil
            }
            guard let added = add(total, value, unit) else { return nil }
            total = added
            number = ""
            sawComponent = true
        }
        guard number.isEmpty, sawComponent else { return nil }
        return .seconds(total)
    }

    /// `total + value × unit`, or nil past ten years: no setting needs more, and nothing overflows.
    private static func add(_ total: Int64, _ value: Int64, _ unit: Int64) -> Int64? {
        let limit: Int64 = 10 * 366 * 86_400
        guard value <= limit / unit else { return nil }
        let sum = total + value * unit
        return sum <= limit ? sum : nil
    }

    /// The shortest config spelling of a whole-second duration: `90m` → `1h30m`.
    /// For logs: "1m30s", and under 10 s to a tenth ("0.3s", "2.5s").
    public static func log(_ duration: Duration) -> String {
        guard duration < .seconds(10) else { return format(duration) }
        let tenths = (duration.inSeconds * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10))s" : "\(tenths / 10)s"
    }

    public static func format(_ duration: Duration) -> String {
        var seconds = duration.components.seconds
        if seconds == 0 { return "0s" }
        var text = ""
        for (unit, suffix) in [(Int64(86_400), "d"), (3600, "h"), (60, "m"), (1, "s")] where seconds >= unit {
            text += "\(seconds / unit)\(suffix)"
            seconds %= unit
        }
        return text
    }
}
