/// "Did you mean …?" for mistyped names.
public enum Suggest {
    /// The candidates nearest to `input` (optimal string alignment distance, case-insensitive),
    /// if any is within `limit` edits.
    package static func closest(to input: String, in candidates: [String], limit: Int = 2) -> [String] {
        let needle = Array(input.lowercased())
        var best = Int.max
        var found: [String] = []
        for candidate in candidates {
            // The lengths alone differ by more than the limit (and a huge input costs nothing).
            guard abs(needle.count - candidate.count) <= limit else { continue }
            let distance = editDistance(needle, Array(candidate.lowercased()))
            guard distance <= limit, distance <= best else { continue }
            if distance < best {
                best = distance
                found = []
            }
            found.append(candidate)
        }
        return found
    }

    public static func phrase(_ input: String, in candidates: [String], quoted: Bool = true) -> String {
        let matches = closest(to: input, in: candidates)
        guard !matches.isEmpty else { return "" }
        let names = matches.map { quoted ? "'\($0)'" : $0 }
        return " (did you mean \(names.joined(separator: " or "))?)"
    }

    /// Levenshtein distance that also counts swapping two neighbours as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
