import FaceoffKit
import FaceoffNHL
import Foundation
import Testing

/// Checks a JSON document against the subset of JSON Schema that docs/json/*.schema.json use:
/// type, properties, required, additionalProperties, items, enum and local $ref.
struct SchemaValidator {
    let root: JSONValue

    init(file: URL) throws {
        root = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: file))
    }

    /// Every place the document breaks the schema, as "path: problem".
    func problems(in document: JSONValue) -> [String] {
        var found: [String] = []
        check(document, against: root, path: "$", into: &found)
        return found
    }

    private func resolve(_ schema: JSONValue) -> JSONValue {
        guard let reference = schema["$ref"]?.string, reference.hasPrefix("#/") else { return schema }
        var node = root
        for part in reference.dropFirst(2).split(separator: "/") { node = node[String(part)] ?? .null }
        return resolve(node)
    }

    private func check(_ value: JSONValue, against rawSchema: JSONValue, path: String, into found: inout [String]) {
        let schema = resolve(rawSchema)
        if let type = schema["type"]?.string, !matches(value, type) {
            found.append("\(path): expected \(type), found \(value)")
            return
        }
        if case .array(let options)? = schema["enum"], !options.contains(value) {
            found.append("\(path): \(value) is not one of the documented values")
        }
        if case .object(let object) = value {
            guard case .object(let properties)? = schema["properties"] ?? .object([:]) else { return }
            if case .array(let required)? = schema["required"] {
                for case .string(let key) in required where object[key] == nil {
                    found.append("\(path): missing required '\(key)'")
                }
            }
            for (key, child) in object.sorted(by: { $0.key < $1.key }) {
                if let property = properties[key] {
                    check(child, against: property, path: "\(path).\(key)", into: &found)
                } else if case .object? = schema["additionalProperties"] {
                    check(child, against: schema["additionalProperties"]!, path: "\(path).\(key)", into: &found)
                } else if schema["additionalProperties"] == .bool(false) {
                    found.append("\(path): undocumented key '\(key)'")
                }
            }
        }
        if case .array(let array) = value, let items = schema["items"] {
            for (index, element) in array.enumerated() {
                check(element, against: items, path: "\(path)[\(index)]", into: &found)
            }
        }
    }

    private func matches(_ value: JSONValue, _ type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("number", .number), ("null", .null):
            return true
        case ("integer", .number(let number)):
            return number == number.rounded()
        default:
            return false
        }
    }
}

extension SchemaValidator {
    /// Checks one JSON document a command printed against its schema in docs/json/.
    static func validate(_ json: String, schema name: String) throws {
        let validator = try SchemaValidator(file: CLI.root.appendingPathComponent("docs/json/\(name).schema.json"))
        let document = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        let problems = validator.problems(in: document)
        #expect(problems.isEmpty, "\(name): \(problems.prefix(5))")
    }
}
