import FaceoffBase
import Foundation
import Mustache

/// The Mustache templates in effect: the ones built into the binary, each replaced by a file
/// of the same name in the user's template directory when there is one.
public struct TemplateSet: Sendable {
    private let templates: [String: MustacheTemplate]
    /// The calendar templates again, for the fast renderer, when they stay within what it does.
    private let flat: [String: FlatTemplate]
    /// Names whose text came from the user's directory.
    public let overridden: Set<String>

    /// Built-in templates by name (file name without `.mustache`).
    static let builtIn: [String: String] = {
        var result: [String: String] = [:]
        for (path, text) in EmbeddedFiles.all where path.hasPrefix("Templates/") && path.hasSuffix(".mustache") {
            result[String(path.dropFirst("Templates/".count).dropLast(".mustache".count))] = text
        }
        return result
    }()

    public static var builtInNames: [String] { builtIn.keys.sorted() }

    /// Parses every template now, so a mistake is reported at startup with its file, line and
    /// column, not at the first goal.
    public init(overrides directory: String?) throws(TemplateError) {
        var templates: [String: MustacheTemplate] = [:]
        var flat: [String: FlatTemplate] = [:]
        var overridden: Set<String> = []
        for (name, text) in Self.builtIn {
            var source = text
            var file = "Templates/\(name).mustache (built in)"
            if let directory {
                let path = directory + "/\(name).mustache"
                if FileManager.default.fileExists(atPath: path) {
                    do {
                        source = try FileError.readText(path)
                    } catch {
                        throw TemplateError(file: path, line: nil, column: nil, message: "cannot read it: \(error.reason)")
                    }
                    file = path
                    overridden.insert(name)
                }
            }
            templates[name] = try Self.parse(source, file: file, contentType: name.hasPrefix("webhook-") ? "JSON" : "TEXT")
            if name.hasPrefix("calendar-") { flat[name] = FlatTemplate(source, keys: CalendarTemplateKey.flatKeys) }
        }
        self.templates = templates
        self.flat = flat
        self.overridden = overridden
    }

    package static func parse(_ text: String, file: String, contentType: String = "TEXT") throws(TemplateError) -> MustacheTemplate {
        // Faceoff writes text and JSON, never HTML: no template escapes HTML. Webhook bodies
        // escape `{{value}}` as the inside of a JSON string.
        _ = JSONContentType.registered
        let pragma = "{{% CONTENT_TYPE: \(contentType)}}"
        let prefixed = !text.hasPrefix("{{% CONTENT_TYPE")
        do {
            return try MustacheTemplate(string: prefixed ? pragma + text : text)
        } catch let error as MustacheTemplate.ParserError {
            // The pragma shares line 1 with the user's text: give columns in their terms.
            let line = error.context.lineNumber
            let column = prefixed && line == 1 ? max(1, error.context.columnNumber - pragma.count) : error.context.columnNumber
            return try failure(file: file, line: line, column: column, error.error)
        } catch {
            throw TemplateError(file: file, line: nil, column: nil, message: "\(error)")
        }
    }

    private static func failure(file: String, line: Int, column: Int, _ error: any Error) throws(TemplateError) -> MustacheTemplate {
        // swift-mustache's error names, in words.
        let known = [
            "expectedSectionEnd": "a section opened with {{#name}} or {{^name}} is never closed with {{/name}}",
            "sectionCloseNameIncorrect": "{{/name}} closes a section that isn't the one open",
            "unfinishedName": "a tag is not closed with }}",
            "expectedTag": "a tag is malformed",
        ]
        let name = "\(error)"
        throw TemplateError(file: file, line: line, column: column, message: known[name].map { "\($0) (\(name))" } ?? name)
    }

    public func render(_ name: String, _ context: [String: Any]) -> String {
        templates[name]?.render(TemplateContext(context)) ?? ""
    }

    /// A calendar template with a flat context: the fast renderer when the template allows it,
    /// else swift-mustache.
    package func renderCalendar(_ name: String, _ context: FlatContext) -> String {
        if let template = flat[name] { return template.render(context) }
        return render(name, context.named)
    }

    /// Whether `renderCalendar` uses the fast renderer for this template.
    package func rendersFast(_ name: String) -> Bool { flat[name] != nil }
}

/// Escapes a value for the inside of a JSON string literal.
struct JSONContentType: MustacheContentType {
    static let registered: Bool = {
        MustacheContentTypes.register(JSONContentType(), named: "JSON")
        return true
    }()

    func escapeText(_ text: String) -> String { StringEscaping.quotedBody(text) }
}

/// Template values behind a class with an unconditional `MustacheParent` conformance: the
/// renderer checks that conformance on every lookup, and for a `[String: Any]` (a conditional
/// conformance) the check costs more than the rest of rendering put together.
package final class TemplateContext: MustacheParent {
    let values: [String: Any]
    package init(_ values: [String: Any]) { self.values = values }
    package func child(named name: String) -> Any? { values[name] }
}

public struct TemplateError: ReportedError, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let column: Int?
    public let message: String

    public var description: String {
        let place = [line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
        return "\(file)\(place.isEmpty ? "" : ":\(place)"): template error: \(message)"
    }
}

extension TemplateError {
    public var exitStatus: Int32 { 2 }
}
