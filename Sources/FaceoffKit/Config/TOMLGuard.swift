/// Mistakes that toml++ (under TOMLKit) does not report but crashes on: found by fuzzing the
/// config parser. Checked before the text reaches it, and reported the way its own errors are.
///
/// - A `}` where an array element is expected (`teams = [}]`, `teams = ["TOR", }]`): toml++
///   fails an assertion (debug) or assumes it cannot happen (release).
/// - A control character where a key starts (`[\u{3}alendar]`). TOML allows no control
///   character but tab anywhere in a document (escape it in a string), so any is refused.
/// - A table header whose name doesn't start with a bare-key character or a quote (`[[` and
///   the end of the line, `[\u{FFFD}atch]`): toml++ fails an assertion in parse_key.
enum TOMLGuard {
    struct Problem: Equatable {
        let line: Int
        let message: String
    }

    /// The first such mistake, outside strings and comments.
    static func check(_ text: String) -> Problem? {
        var row = 1
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\n") { row += 1 }
            if (byte < 0x20 && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\n") && byte != UInt8(ascii: "\r")) || byte == 0x7F {
                let code = String(byte, radix: 16, uppercase: true)
                return Problem(
                    line: row,
                    message:
                        "a control character (U+\(String(repeating: "0", count: 4 - code.count))\(code)); TOML allows none but tab, so write it as an escape inside a string"
                )
            }
        }
        var open: [UInt8] = []  // "[" and "{" not yet closed
        var line = 1
        var lineStart = true  // nothing but spaces yet on this line
        var bytes = Array(text.utf8)[...]
        func starts(_ prefix: String) -> Bool { bytes.starts(with: prefix.utf8) }
        while let byte = bytes.first {
            let wasLineStart = lineStart
            if byte != UInt8(ascii: " "), byte != UInt8(ascii: "\t") { lineStart = byte == UInt8(ascii: "\n") }
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                bytes = bytes.dropFirst()
            case UInt8(ascii: "[") where wasLineStart && open.isEmpty:
                // A table header: [name] or [[name]].
                let name = bytes.dropFirst(starts("[[") ? 2 : 1).drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                guard let first = name.first, isBareKey(first) || first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") else {
                    return Problem(line: line, message: "a table header needs a name after '[', as in [calendar] or [[sink]]")
                }
                open.append(byte)
                bytes = bytes.dropFirst()
            case UInt8(ascii: "#"):
                bytes = bytes.drop { $0 != UInt8(ascii: "\n") }
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let delimiter = starts(byte == UInt8(ascii: "\"") ? "\"\"\"" : "'''") ? 3 : 1
                bytes = bytes.dropFirst(delimiter)
                // To the closing delimiter (an escaped quote doesn't close a basic string).
                while let next = bytes.first {
                    if next == UInt8(ascii: "\n") {
                        line += 1
                        if delimiter == 1 { break }  // unterminated: toml++ reports it
                    }
                    if next == UInt8(ascii: "\\"), byte == UInt8(ascii: "\"") {
                        bytes = bytes.dropFirst(2)
                        continue
                    }
                    if next == byte, delimiter == 1 || bytes.starts(with: repeatElement(byte, count: 3)) {
                        bytes = bytes.dropFirst(delimiter)
                        break
                    }
                    bytes = bytes.dropFirst()
                }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                open.append(byte)
                bytes = bytes.dropFirst()
            case UInt8(ascii: "]"):
                if open.last == UInt8(ascii: "[") { open.removeLast() }
                bytes = bytes.dropFirst()
            case UInt8(ascii: "}"):
                if open.last == UInt8(ascii: "[") {
                    return Problem(line: line, message: "'}' inside an array, where a value or the closing ']' should be")
                }
                if open.last == UInt8(ascii: "{") { open.removeLast() }
                bytes = bytes.dropFirst()
            default:
                bytes = bytes.dropFirst()
            }
        }
        return nil
    }

    static func isBareKey(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
}
