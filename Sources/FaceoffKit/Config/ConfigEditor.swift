import FaceoffNHL
import Foundation

/// Edits a root-level list in config.toml's text (`teams = [...]`, `players = [...]`), touching
/// nothing else, so the user's comments and layout survive `follow` and `unfollow`.
public enum ConfigEditor {
    /// An element of a TOML array as written, with where it sits in the text.
    struct Element {
        var range: Range<String.Index>
        /// The value: a string's contents or an integer's digits.
        var value: String
    }

    struct ArraySpan {
        var keyLineStart: String.Index
        var open: String.Index
        var close: String.Index
        var elements: [Element]
    }

    /// Adds `items` (TOML literals such as `"TOR"` or `8479318`) to the root list `key`, skipping
    /// values already there (compared after `canonical`, so "Leafs" counts as TOR). Creates the
    /// key if it is missing. CRLF files stay CRLF.
    public static func add(_ items: [String], toList key: String, in text: String, canonical: (String) -> String = { $0 }) -> String {
        withUnixLines(text) { addLF(items, toList: key, in: $0, canonical: canonical) }
    }

    /// Removes the values `items` from the root list `key` (compared after `canonical`).
    /// Lines left empty go too.
    public static func remove(_ items: [String], fromList key: String, in text: String, canonical: (String) -> String = { $0 }) -> String {
        withUnixLines(text) { removeLF(items, fromList: key, in: $0, canonical: canonical) }
    }

    private static func withUnixLines(_ text: String, _ edit: (String) -> String) -> String {
        let unicode = text.unicodeScalars
        let crlf = zip(unicode, unicode.dropFirst()).contains { $0 == "\r" && $1 == "\n" }
        guard crlf else { return edit(text) }
        let edited = edit(text.replacingOccurrences(of: "\r\n", with: "\n"))
        return edited.replacingOccurrences(of: "\n", with: "\r\n")
    }

    private static func addLF(_ items: [String], toList key: String, in text: String, canonical: (String) -> String) -> String {
        guard let span = findRootArray(key, in: text) else {
            var seen: Set<String> = []
            let unique = items.filter { seen.insert(canonical(literalValue($0))).inserted }
            return insertRootKey("\(key) = [\(unique.joined(separator: ", "))]", into: text)
        }
        var seen = Set(span.elements.map { canonical($0.value) })
        let missing = items.filter { seen.insert(canonical(literalValue($0))).inserted }
        guard !missing.isEmpty else { return text }
        var result = text
        let inner = text[span.open..<span.close]
        if !inner.contains("\n") {
            let existing = span.elements.map { String(text[$0.range]) }
            result.replaceSubrange(
                text.index(after: span.open)..<span.close, with: (existing + missing).joined(separator: ", "))
            return result
        }
        // A list written one item per line: add lines in the same style before the closing bracket.
        guard let last = span.elements.last else {
            let indent = "  "
            let block = missing.map { "\n\(indent)\($0)," }.joined()
            result.insert(contentsOf: block, at: text.index(after: span.open))
            return result
        }
        let lineStart = text[..<last.range.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
        let indent = String(text[lineStart..<last.range.lowerBound].prefix { $0 == " " || $0 == "\t" })
        var afterLast = last.range.upperBound
        var needsComma = true
        var cursor = afterLast
        while cursor < span.close, text[cursor] == " " || text[cursor] == "\t" { cursor = text.index(after: cursor) }
        if cursor < span.close, text[cursor] == "," {
            afterLast = text.index(after: cursor)
            needsComma = false
        }
        // Keep a comment that ends the last item's line on that line.
        let lineEnd = text[afterLast..<span.close].firstIndex(of: "\n") ?? afterLast
        let insertion = missing.map { "\n\(indent)\($0)," }.joined()
        result.insert(contentsOf: insertion, at: lineEnd)
        if needsComma { result.insert(",", at: last.range.upperBound) }
        return result
    }

    private static func removeLF(_ items: [String], fromList key: String, in text: String, canonical: (String) -> String) -> String {
        guard let span = findRootArray(key, in: text) else { return text }
        let doomed = Set(items.map { canonical(literalValue($0)) })
        let removing = span.elements.filter { doomed.contains(canonical($0.value)) }
        guard !removing.isEmpty else { return text }
        if !text[span.open..<span.close].contains("\n") {
            let kept = span.elements.filter { !doomed.contains(canonical($0.value)) }.map { String(text[$0.range]) }
            var result = text
            result.replaceSubrange(text.index(after: span.open)..<span.close, with: kept.joined(separator: ", "))
            return result
        }
        var result = text
        // Work from the end so earlier ranges stay valid.
        for element in removing.reversed() {
            var end = element.range.upperBound
            var cursor = end
            while cursor < result.endIndex, result[cursor] == " " || result[cursor] == "\t" { cursor = result.index(after: cursor) }
            if cursor < result.endIndex, result[cursor] == "," { end = result.index(after: cursor) }
            let lineStart = result[..<element.range.lowerBound].lastIndex(of: "\n").map { result.index(after: $0) } ?? result.startIndex
            let lineEnd = result[end...].firstIndex(of: "\n") ?? result.endIndex
            let before = result[lineStart..<element.range.lowerBound]
            let after = result[end..<lineEnd]
            if before.allSatisfy(\.isWhitespace),
                after.trimmingCharacters(in: .whitespaces).isEmpty || after.trimmingCharacters(in: .whitespaces).hasPrefix("#")
            {
                // The item had its line to itself (perhaps with a comment about it): drop the line.
                let removeEnd = lineEnd < result.endIndex ? result.index(after: lineEnd) : lineEnd
                result.removeSubrange(lineStart..<removeEnd)
            } else {
                result.removeSubrange(element.range.lowerBound..<end)
            }
        }
        return result
    }

    /// The values in the root list `key`, as written (strings unquoted).
    static func values(ofList key: String, in text: String) -> [String] {
        findRootArray(key, in: text)?.elements.map(\.value) ?? []
    }

    private static func literalValue(_ literal: String) -> String {
        if literal.hasPrefix("\""), literal.hasSuffix("\""), literal.count >= 2 { return String(literal.dropFirst().dropLast()) }
        return literal
    }

    /// Puts a new root key before the first table header (and the comments that introduce it),
    /// or at the end of a file with no tables.
    static func insertRootKey(_ line: String, into text: String) -> String {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        guard let header = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("[") }) else {
            return (lines + [line]).joined(separator: "\n") + "\n"
        }
        var position = header
        while position > 0, lines[position - 1].trimmingCharacters(in: .whitespaces).hasPrefix("#") { position -= 1 }
        var insertion = [line]
        if position > 0, !lines[position - 1].trimmingCharacters(in: .whitespaces).isEmpty { insertion.insert("", at: 0) }
        insertion.append("")
        if position < lines.count, lines[position].trimmingCharacters(in: .whitespaces).isEmpty { insertion.removeLast() }
        lines.insert(contentsOf: insertion, at: position)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Finds `key = [ ... ]` among the root keys (before the first table header).
    static func findRootArray(_ key: String, in text: String) -> ArraySpan? {
        var lineStart = text.startIndex
        while lineStart < text.endIndex {
            let lineEnd = text[lineStart...].firstIndex(of: "\n") ?? text.endIndex
            let line = text[lineStart..<lineEnd]
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("[") { return nil }
            if let spelled = ["\(key)", "\"\(key)\"", "'\(key)'"].first(where: { trimmed.hasPrefix($0) }) {
                let rest = trimmed.dropFirst(spelled.count).drop { $0 == " " || $0 == "\t" }
                if rest.hasPrefix("=") {
                    let value = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
                    guard value.hasPrefix("[") else { return nil }
                    return scanArray(in: text, open: value.startIndex, keyLineStart: lineStart)
                }
            }
            lineStart = lineEnd < text.endIndex ? text.index(after: lineEnd) : text.endIndex
        }
        return nil
    }

    private static func scanArray(in text: String, open: String.Index, keyLineStart: String.Index) -> ArraySpan? {
        var elements: [Element] = []
        var index = text.index(after: open)
        while index < text.endIndex {
            let character = text[index]
            switch character {
            case "]":
                return ArraySpan(keyLineStart: keyLineStart, open: open, close: index, elements: elements)
            case "#":
                index = text[index...].firstIndex(of: "\n") ?? text.endIndex
                continue
            case "\"", "'":
                let start = index
                var cursor = text.index(after: index)
                var value = ""
                while cursor < text.endIndex, text[cursor] != character {
                    if character == "\"", text[cursor] == "\\" {
                        cursor = text.index(after: cursor)
                        guard cursor < text.endIndex else { return nil }
                    }
                    value.append(text[cursor])
                    cursor = text.index(after: cursor)
                }
                guard cursor < text.endIndex else { return nil }
                index = text.index(after: cursor)
                elements.append(Element(range: start..<index, value: value))
                continue
            case _ where character.isNumber || character == "-" || character == "+":
                let start = index
                while index < text.endIndex, text[index].isNumber || text[index] == "_" || text[index] == "-" || text[index] == "+" {
                    index = text.index(after: index)
                }
                elements.append(Element(range: start..<index, value: String(text[start..<index]).replacingOccurrences(of: "_", with: "")))
                continue
            default:
                break
            }
            index = text.index(after: index)
        }
        return nil
    }
}
