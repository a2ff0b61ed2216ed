/// The names a flat template can use, each with a slot in a `FlatContext`.
struct FlatKeys: Sendable {
    let names: [String]
    let slots: [String: Int]

    init(_ names: [String]) {
        self.names = names
        slots = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    }
}

/// Values by slot: filling one is an array store, reading one an array load.
struct FlatContext: Sendable {
    let keys: FlatKeys
    private(set) var values: [FlatValue?]

    init(_ keys: FlatKeys) {
        self.keys = keys
        values = Array(repeating: nil, count: keys.names.count)
    }

    /// The context from named values (names the keys don't have are left out).
    init(_ keys: FlatKeys, _ named: [String: FlatValue]) {
        self.init(keys)
        for (name, value) in named { if let slot = keys.slots[name] { values[slot] = value } }
    }

    subscript(slot: Int) -> FlatValue? {
        get { values[slot] }
        set { values[slot] = newValue }
    }

    /// The values by name, for swift-mustache.
    var named: [String: Any] {
        var result: [String: Any] = [:]
        for (slot, value) in values.enumerated() { if let value { result[keys.names[slot]] = value.any } }
        return result
    }
}

/// A value in a flat template context.
enum FlatValue: Sendable, Equatable {
    case text(String)
    case number(Int)
    case flag(Bool)

    /// The value as swift-mustache sees it, for the general renderer.
    var any: Any {
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
    indirect enum Node: Sendable {
        case text(String)
        case value(String)
        case section(String, inverted: Bool, [Node])
    }

    /// The template as a flat program: names become slots (nil: a name the context never has),
    /// sections a test and a jump past their end.
    enum Step: Sendable {
        case text(String)
        case value(Int?)
        /// Unless the section renders, continue at `end`.
        case section(Int?, inverted: Bool, end: Int)
    }

    let steps: [Step]

    init?(_ source: String, keys: FlatKeys) {
        var parser = Parser(source: Array(source.utf8))
        guard let nodes = parser.parse(until: nil) else { return nil }
        var steps: [Step] = []
        func emit(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .text(let text): steps.append(.text(text))
                case .value(let name): steps.append(.value(keys.slots[name]))
                case .section(let name, let inverted, let children):
                    let index = steps.count
                    steps.append(.text(""))
                    emit(children)
                    steps[index] = .section(keys.slots[name], inverted: inverted, end: steps.count)
                }
            }
        }
        emit(nodes)
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

    private struct Parser {
        let source: [UInt8]
        var position = 0
        init(source: [UInt8]) { self.source = source }

        /// Nodes up to `{{/name}}` (or the end when `name` is nil); nil for anything this
        /// renderer does not handle, or a malformed template.
        mutating func parse(until closing: String?) -> [Node]? {
            var nodes: [Node] = []
            var textStart = position
            while position < source.count {
                guard source[position] == UInt8(ascii: "{"), position + 1 < source.count, source[position + 1] == UInt8(ascii: "{") else {
                    position += 1
                    continue
                }
                if textStart < position { nodes.append(.text(String(decoding: source[textStart..<position], as: UTF8.self))) }
                let triple = position + 2 < source.count && source[position + 2] == UInt8(ascii: "{")
                let open = position + (triple ? 3 : 2)
                let close = triple ? "}}}" : "}}"
                guard let end = find(close, from: open) else { return nil }
                var tag = Substring(String(decoding: source[open..<end], as: UTF8.self))
                position = end + close.utf8.count
                textStart = position
                guard let sigil = tag.first else { return nil }
                if triple {
                    guard let name = Self.name(tag) else { return nil }
                    nodes.append(.value(name))
                    continue
                }
                switch sigil {
                case "!":
                    continue
                case "#", "^", "/", "&":
                    tag = tag.dropFirst()
                default:
                    break
                }
                guard let name = Self.name(tag) else { return nil }
                switch sigil {
                case "#", "^":
                    guard let children = parse(until: name) else { return nil }
                    nodes.append(.section(name, inverted: sigil == "^", children))
                    textStart = position
                case "/":
                    return name == closing ? nodes : nil
                default:
                    nodes.append(.value(name))
                }
            }
            guard closing == nil else { return nil }
            if textStart < source.count { nodes.append(.text(String(decoding: source[textStart...], as: UTF8.self))) }
            return nodes
        }

        private func find(_ needle: String, from start: Int) -> Int? {
            let bytes = Array(needle.utf8)
            var index = start
            while index + bytes.count <= source.count {
                if source[index] == bytes[0], Array(source[index..<index + bytes.count]) == bytes { return index }
                index += 1
            }
            return nil
        }

        /// A plain key (letters, digits, `_`, `-`); nil for `.`, dotted names, transforms and
        /// the other sigils (`>`, `<`, `$`, `=`, `%`).
        private static func name(_ tag: Substring) -> String? {
            let trimmed = tag.drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            var name = Substring(trimmed)
            while let last = name.last, last == " " || last == "\t" || last == "\n" || last == "\r" { name = name.dropLast() }
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ scalar in
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
            }) else { return nil }
            return String(name)
        }
    }
}
