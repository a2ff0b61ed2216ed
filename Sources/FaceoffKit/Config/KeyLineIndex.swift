import Foundation

/// Which line of a TOML file each key is on. TOMLKit reports positions for syntax errors only,
/// so validation errors find their line here. Keys are dotted paths; `[[sink]]` entries are
/// numbered from 0 (`sink.1.url`).
struct KeyLineIndex {
    private(set) var lines: [String: Int] = [:]

    init(text: String) {
        var prefix: [String] = []
        var arrayCounts: [String: Int] = [:]
        var multilineDelimiter: String?
        // "\r\n" is a single Character in Swift, so split on scalars to count CRLF lines too.
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map {
            String(String.UnicodeScalarView($0))
        }
        for (offset, rawLine) in lines.enumerated() {
            let number = offset + 1
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if let delimiter = multilineDelimiter {
                if line.components(separatedBy: delimiter).count % 2 == 0 { multilineDelimiter = nil }
                continue
            }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[[") {
                let name = Self.headerName(line.dropFirst(2))
                let index = arrayCounts[name, default: 0]
                arrayCounts[name] = index + 1
                prefix = Self.splitKey(name) + [String(index)]
                record(prefix, number)
                continue
            }
            if line.hasPrefix("[") {
                prefix = Self.splitKey(Self.headerName(line.dropFirst()))
                record(prefix, number)
                continue
            }
            guard let equals = Self.keyEnd(line) else { continue }
            let key = Self.splitKey(String(line[..<equals]))
            record(prefix + key, number)
            let value = line[line.index(after: equals)...]
            for delimiter in ["\"\"\"", "'''"] where value.components(separatedBy: delimiter).count == 2 {
                multilineDelimiter = delimiter
            }
        }
    }

    /// The line of `path`, or of its nearest parent that has one.
    func line(of path: [String]) -> Int? {
        var path = path
        while !path.isEmpty {
            if let line = lines[path.joined(separator: ".")] { return line }
            path.removeLast()
        }
        return nil
    }

    private mutating func record(_ path: [String], _ line: Int) {
        let key = path.joined(separator: ".")
        if lines[key] == nil { lines[key] = line }
    }

    private static func headerName(_ rest: Substring) -> String {
        String(rest.prefix { $0 != "]" }).trimmingCharacters(in: .whitespaces)
    }

    /// Where the `=` after a bare, quoted or dotted key is, if this line starts with one.
    private static func keyEnd(_ line: String) -> String.Index? {
        var quote: Character?
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            switch character {
            case "\"", "'": quote = character
            case "=": return index
            case "#", "[", "{", ",": return nil
            default: continue
            }
        }
        return nil
    }

    private static func splitKey(_ key: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quote: Character?
        for character in key {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
                continue
            }
            switch character {
            case "\"", "'": quote = character
            case ".":
                parts.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            default: current.append(character)
            }
        }
        parts.append(current.trimmingCharacters(in: .whitespaces))
        return parts
    }
}
