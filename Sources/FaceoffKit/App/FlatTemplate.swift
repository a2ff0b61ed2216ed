import FaceoffHTTP
import FaceoffNHL
/// The names a flat template can use, each with a slot in a `FlatContext`.
package struct FlatKeys: Sendable {
    package let names: [String]
    package let slots: [String: Int]

    package init(_ names: [String]) {
        self.names = names
        slots = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    }
}

/// Values by slot: filling one is an array store, reading one an array load.
package struct FlatContext: Sendable {
    package let keys: FlatKeys
    private(set) var values: [FlatValue?]

    package init(_ keys: FlatKeys) {
        self.keys = keys
        values = Array(repeating: nil, count: keys.names.count)
    }

    /// The context from named values (names the keys don't have are left out).
    package init(_ keys: FlatKeys, _ named: [String: FlatValue]) {
        self.init(keys)
        for (name, value) in named { if let slot = keys.slots[name] { values[slot] = value } }
    }

    package subscript(slot: Int) -> FlatValue? {
        get { values[slot] }
        set { values[slot] = newValue }
    }

    /// The values by name, for swift-mustache.
    package var named: [String: Any] {
        var result: [String: Any] = [:]
        for (slot, value) in values.enumerated() { if let value { result[keys.names[slot]] = value.any } }
        return result
    }
}

/// A value in a flat template context.
package enum FlatValue: Sendable, Equatable {
    case text(String)
    case number(Int)
    case flag(Bool)

    /// The value as swift-mustache sees it, for the general renderer.
    package var any: Any {
        switch self {
        case .text(let text): text
        case .number(let number): number
        case .flag(let flag): flag
        }
    }
}

/// A small renderer for the calendar templates, which run once per game per feed (about 4,000
/// times for the league's feeds): flat contexts of strings, numbers and booleans, and the
/// Mustache tags such templates use (variables, `{{{x}}}`/`{{&x}}`, sections, inverted sections,
/// comments). It renders the way swift-mustache does with the TEXT content type, except
/// for the whitespace around standalone tags, which the calendar's own clean-up (collapsed title,
/// trimmed lines, no blank lines) makes irrelevant; a test holds the two renderers to the same
/// cleaned-up text. A template using anything else (`{{.}}`, partials, dotted names, transforms,
/// set delimiters, inheritance, pragmas) gets no `FlatTemplate` and is rendered by
/// swift-mustache.
struct FlatTemplate: Sendable {
    /// The template as a flat program: names become slots (nil: a name the context never has),
    /// sections a test and a jump past their end.
    enum Step: Sendable {
        case text(String)
        case value(Int?)
        /// Unless the section renders, continue at `end`.
        case section(Int?, inverted: Bool, end: Int)
    }

    let steps: [Step]

    /// Nil for anything this renderer does not handle, or a malformed template.
    init?(_ source: String, keys: FlatKeys) {
        var steps: [Step] = []
        // Sections not yet closed, with the place of their step (filled in at the close).
        var open: [(name: String, inverted: Bool, step: Int)] = []
        var rest = Substring(source)
        while let tagStart = rest.range(of: "{{") {
            if tagStart.lowerBound > rest.startIndex { steps.append(.text(String(rest[..<tagStart.lowerBound]))) }
            let triple = rest[tagStart.upperBound...].hasPrefix("{")
            let bodyStart = triple ? rest.index(after: tagStart.upperBound) : tagStart.upperBound
            guard let tagEnd = rest[bodyStart...].range(of: triple ? "}}}" : "}}") else { return nil }
            var tag = rest[bodyStart..<tagEnd.lowerBound]
            rest = rest[tagEnd.upperBound...]
            let sigil = triple ? nil : tag.first
            if sigil == "!" { continue }
            if let sigil, "#^/&".contains(sigil) { tag = tag.dropFirst() }
            guard let name = Self.name(tag) else { return nil }
            switch sigil {
            case "#", "^":
                open.append((name, sigil == "^", steps.count))
                steps.append(.text(""))
            case "/":
                guard let section = open.popLast(), section.name == name else { return nil }
                steps[section.step] = .section(keys.slots[name], inverted: section.inverted, end: steps.count)
            default:
                steps.append(.value(keys.slots[name]))
            }
        }
        guard open.isEmpty else { return nil }
        if !rest.isEmpty { steps.append(.text(String(rest))) }
        self.steps = steps
    }

    func render(_ context: FlatContext) -> String {
        var output = ""
        output.reserveCapacity(256)
        var index = 0
        while index < steps.count {
            switch steps[index] {
            case .text(let text):
                output += text
            case .value(let slot):
                guard let slot else { break }
                switch context[slot] {
                case .text(let text): output += text
                case .number(let number): output += String(number)
                case .flag(let flag): output += flag ? "true" : "false"
                case .none: break
                }
            case .section(let slot, let inverted, let end):
                // Inside a section, names still resolve to the context's values: the value a
                // non-boolean section pushes (a string or a number) has no keys of its own.
                let truthy: Bool =
                    switch slot.flatMap({ context[$0] }) {
                    case .flag(let flag): flag
                    case .none: false
                    default: true
                    }
                if truthy == inverted {
                    index = end
                    continue
                }
            }
            index += 1
        }
        return output
    }

    /// A plain key (letters, digits, `_`, `-`); nil for `.`, dotted names, transforms and
    /// the other sigils (`>`, `<`, `$`, `=`, `%`).
    private static func name(_ tag: Substring) -> String? {
        let trimmed = tag.drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        var name = Substring(trimmed)
        while let last = name.last, last == " " || last == "\t" || last == "\n" || last == "\r" { name = name.dropLast() }
        guard !name.isEmpty,
            name.unicodeScalars.allSatisfy({ scalar in
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
            })
        else { return nil }
        return String(name)
    }
}
