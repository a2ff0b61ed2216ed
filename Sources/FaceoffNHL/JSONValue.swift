import FaceoffAPI
import Foundation

/// Any JSON document, kept whole: for `faceoff api`, which passes responses through.
public indirect enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value == value.rounded(), abs(value) < 1e15 { try container.encode(Int64(value)) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public func prettyPrinted() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? "null"
    }
}

extension Endpoint where Response == JSONValue {
    /// Any path under `/v1/`, passed through. Freshness follows the resource's kind.
    public static func raw(_ path: String) -> Self {
        let trimmed = path.hasPrefix("/") ? String(path.dropFirst()) : path
        // A path typed by hand: a 404 most likely means a typo, not a wrong server.
        return Self(trimmed, missing: "the NHL API has nothing at \(trimmed); check the path") { json, _ in
            if let state = json["gameState"]?.string { return FreshnessRules.game(GameState(rawValue: state)) }
            if trimmed.hasPrefix("standings") || trimmed.hasPrefix("roster") || trimmed.hasPrefix("player") {
                return FreshnessRules.daily
            }
            if trimmed.hasPrefix("club-schedule") || trimmed.hasPrefix("schedule") { return FreshnessRules.scheduleMaxAge }
            return .revalidate
        }
    }
}
