import Foundation

/// A localised name as the NHL web API sends it: `{"default": "Canadiens", "fr": "…", "cs": "…"}`.
///
/// Some endpoints send the same field as a plain JSON string (for example `teamAbbrev` is `"TOR"` in
/// score goals and three stars but `{"default": "TOR"}` in landing scoring), so this decodes from either
/// shape. An object without `default` falls back to `fr`, then to any other string value.
/// It always encodes back as an object, `{"default": …, "fr": …}`.
public struct LocalizedString: Codable, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The `default` text (usually English). Read this one.
    public let `default`: String
    /// The French text, when the API sends one.
    public let fr: String?

    /// Same as `default`.
    public var value: String { `default` }
    public var description: String { `default` }

    public init(_ value: String, fr: String? = nil) {
        self.default = value
        self.fr = fr
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }

    public init(from decoder: any Decoder) throws {
        // Objects are by far the more common form, so try that first: a failed attempt costs a
        // thrown error, and decoding a season's schedules makes thousands of these.
        guard let container = try? decoder.container(keyedBy: AnyKey.self) else {
            // Not an object: it must be a string (this throws a typeMismatch DecodingError otherwise).
            self.default = try decoder.singleValueContainer().decode(String.self)
            self.fr = nil
            return
        }
        var texts: [String: String] = [:]
        var blank = true
        for key in container.allKeys {
            if let text = try? container.decode(String.self, forKey: key) {
                texts[key.stringValue] = text
            } else if (try? container.decodeNil(forKey: key)) != true {
                blank = false
            }
        }
        // Blank texts are no text: an object of none (`{}`, nulls, "") is a name left empty,
        // which a property reads as absent (`decodeIfPresent` below).
        texts = texts.filter { !$0.value.trimmingCharacters(in: .whitespaces).isEmpty }
        let fallback = texts.keys.sorted().first.flatMap { texts[$0] }
        guard let main = texts["default"] ?? texts["fr"] ?? fallback else {
            guard blank else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: decoder.codingPath,
                        debugDescription: "Localized string object has no string value"))
            }
            self.default = ""
            self.fr = nil
            return
        }
        self.default = main
        self.fr = texts["fr"]
    }

    /// No text at all: a name the API left empty.
    public var isBlank: Bool { `default`.trimmingCharacters(in: .whitespaces).isEmpty }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        try container.encode(self.default, forKey: AnyKey(stringValue: "default"))
        try container.encodeIfPresent(fr, forKey: AnyKey(stringValue: "fr"))
    }
}

extension KeyedDecodingContainer {
    /// A name the API left empty (`{}`, `{"default": ""}`, `""`) is read as no name, so every
    /// reader's fallback applies (a team's abbreviation, the team table): one rule for a
    /// missing name, wherever a model has one.
    public func decodeIfPresent(_ type: LocalizedString.Type, forKey key: Key) throws -> LocalizedString? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        let text = try decode(LocalizedString.self, forKey: key)
        return text.isBlank ? nil : text
    }
}

/// A person reference whose shape varies between API versions: a plain string (`"A. Greer"`),
/// a localised object (`{"default": "A. Greer"}`), or an object with `firstName`/`lastName`
/// (and maybe `sweaterNumber`). Used for landing penalties (`committedByPlayer`, `drawnBy`, `servedBy`).
public struct PersonName: Codable, Sendable, Hashable, CustomStringConvertible {
    public var name: LocalizedString?
    public var firstName: LocalizedString?
    public var lastName: LocalizedString?
    public var sweaterNumber: Int?

    public init(
        name: LocalizedString? = nil, firstName: LocalizedString? = nil,
        lastName: LocalizedString? = nil, sweaterNumber: Int? = nil
    ) {
        self.name = name
        self.firstName = firstName
        self.lastName = lastName
        self.sweaterNumber = sweaterNumber
    }

    /// `name`, or "First Last" built from the parts, or "" when nothing is known.
    public var displayName: String {
        if let name { return name.value }
        return [firstName?.value, lastName?.value].compactMap { $0 }.joined(separator: " ")
    }

    public var description: String { displayName }

    private enum CodingKeys: String, CodingKey {
        case name, firstName, lastName, sweaterNumber, `default`
    }

    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
            self.init(name: LocalizedString(text))
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name: LocalizedString?
        if container.contains(.default) {
            name = try LocalizedString(from: decoder)
        } else {
            name = try container.decodeIfPresent(LocalizedString.self, forKey: .name)
        }
        self.init(
            name: name,
            firstName: try container.decodeIfPresent(LocalizedString.self, forKey: .firstName),
            lastName: try container.decodeIfPresent(LocalizedString.self, forKey: .lastName),
            sweaterNumber: (try? container.decodeIfPresent(Int.self, forKey: .sweaterNumber)) ?? nil)
    }

    /// Encodes in the API's shapes: `{"default": …}` for a plain name, else `{firstName, lastName, sweaterNumber}`.
    public func encode(to encoder: any Encoder) throws {
        if let name, firstName == nil, lastName == nil, sweaterNumber == nil {
            try name.encode(to: encoder)
            return
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(name?.default, forKey: .default)
        try container.encodeIfPresent(firstName, forKey: .firstName)
        try container.encodeIfPresent(lastName, forKey: .lastName)
        try container.encodeIfPresent(sweaterNumber, forKey: .sweaterNumber)
    }
}

/// A scalar that the API sends as a number in one place and a string in another
/// (right-rail `teamGameStats`: `20`, `0.559322`, `"0/4"`). Keeps the JSON kind for encoding.
public struct FlexibleValue: Codable, Sendable, Hashable, CustomStringConvertible {
    enum Storage: Sendable, Hashable {
        case int(Int)
        case double(Double)
        case string(String)
        case bool(Bool)
    }

    let storage: Storage

    public init(_ value: Int) { storage = .int(value) }
    public init(_ value: Double) { storage = .double(value) }
    public init(_ value: String) { storage = .string(value) }
    public init(_ value: Bool) { storage = .bool(value) }

    /// The value as a number, when it is one (or a string that parses as one).
    public var number: Double? {
        switch storage {
        case .int(let v): return Double(v)
        case .double(let v): return v
        case .string(let s): return Double(s)
        case .bool: return nil
        }
    }

    /// The value as an Int, when it is an integral number.
    public var int: Int? {
        switch storage {
        case .int(let v): return v
        case .double(let v): return v.rounded() == v && abs(v) < 1e15 ? Int(v) : nil
        case .string(let s): return Int(s)
        case .bool: return nil
        }
    }

    /// The value as text: strings as is, numbers in Swift's default formatting.
    public var text: String {
        switch storage {
        case .int(let v): return String(v)
        case .double(let v): return String(v)
        case .string(let s): return s
        case .bool(let b): return String(b)
        }
    }

    public var description: String { text }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let v = try? c.decode(Int.self) {
            storage = .int(v)
        } else if let v = try? c.decode(Double.self) {
            storage = .double(v)
        } else if let v = try? c.decode(String.self) {
            storage = .string(v)
        } else if let v = try? c.decode(Bool.self) {
            storage = .bool(v)
        } else {
            throw DecodingError.typeMismatch(
                FlexibleValue.self,
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "Expected a number, string or bool"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch storage {
        case .int(let v): try c.encode(v)
        case .double(let v): try c.encode(v)
        case .string(let v): try c.encode(v)
        case .bool(let v): try c.encode(v)
        }
    }
}

/// A flag the API sends as `true`/`false` in some places and `0`/`1` in others
/// (player landing `inHHOF: 0`, `inTop100AllTime: 0`).
public struct FlexibleBool: Codable, Sendable, Hashable, CustomStringConvertible, ExpressibleByBooleanLiteral {
    public let boolValue: Bool

    public init(_ value: Bool) { boolValue = value }
    public init(booleanLiteral value: Bool) { boolValue = value }

    public var description: String { String(boolValue) }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) {
            boolValue = b
        } else if let i = try? c.decode(Int.self) {
            boolValue = i != 0
        } else if let s = try? c.decode(String.self) {
            boolValue = ["1", "true", "yes", "y"].contains(s.lowercased())
        } else {
            throw DecodingError.typeMismatch(
                FlexibleBool.self,
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "Expected a bool, 0/1 or a string"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(boolValue)
    }
}

/// ISO-8601 parsing for the API's UTC timestamps (`2025-10-12T00:00:00Z`). No shared mutable formatter.
enum NHLTimestamp {
    static func parse(_ text: String?) -> Date? {
        guard let text, !text.isEmpty else { return nil }
        if let date = fastUTC(text) { return date }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        // Tolerate fractional seconds, should the API ever send them.
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return try? fractional.parse(text)
    }

    /// "2025-10-12T00:00:00Z", the form the API always uses, without a formatter: feeds and
    /// schedules parse thousands of these.
    static func fastUTC(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count == 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
                bytes[16] == 0x3A, bytes[19] == 0x5A
            else { return nil }
            func number(_ from: Int, _ count: Int) -> Int? {
                var value = 0
                for index in from..<from + count {
                    let digit = Int(bytes[index]) - 48
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
                let minute = number(14, 2), let second = number(17, 2), (1...12).contains(month), (1...31).contains(day),
                hour < 24, minute < 60, second < 61
            else { return nil }
            // Days from the civil date (Howard Hinnant's algorithm), proleptic Gregorian.
            let y = month <= 2 ? year - 1 : year
            let era = (y >= 0 ? y : y - 399) / 400
            let yearOfEra = y - era * 400
            let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            let days = era * 146_097 + dayOfEra - 719_468
            return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second))
        }
    }
}
