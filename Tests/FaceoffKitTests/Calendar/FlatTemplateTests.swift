import Foundation
import Testing

@testable import FaceoffCalendar
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL

/// The calendar's fast renderer must say what swift-mustache says.
@Suite(.timeLimit(.minutes(5))) struct FlatTemplateTests {
    /// Deterministic randomness, so a failure can be replayed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let words = [
        "", "Maple Leafs", "Canadiens", "OT", "SO", "W", "Scotiabank Arena", "Montréal", "TSN4, RDS", "a  b\n c", "{{x}}", "0",
    ]

    static func randomContext(keys: [String], using random: inout SplitMix) -> [String: FlatValue] {
        var context: [String: FlatValue] = [:]
        for key in keys {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: break
            case 1: context[key] = .flag(Bool.random(using: &random))
            case 2: context[key] = .number(Int.random(in: 0...12, using: &random))
            default: context[key] = .text(words.randomElement(using: &random)!)
            }
        }
        return context
    }

    /// Every name a template uses, from its tags.
    static func keys(of template: String) -> [String] {
        var keys: Set<String> = []
        var rest = Substring(template)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            let tag = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: CharacterSet(charactersIn: "#^/&{} "))
            if !tag.hasPrefix("!"), !tag.isEmpty, tag != "." { keys.insert(tag) }
            rest = rest[close.upperBound...]
        }
        return keys.sorted()
    }

    @Test func theShippedCalendarTemplatesRenderAsSwiftMustacheDoes() throws {
        let templates = try TemplateSet(overrides: nil)
        var random = SplitMix(state: 2026)
        for (name, clean) in [
            ("calendar-summary", GameEventBuilder.collapsingWhitespace),
            ("calendar-description", GameEventBuilder.withoutBlankLines),
        ] {
            #expect(templates.rendersFast(name), "\(name) fell back to swift-mustache")
            let keys = Self.keys(of: try #require(TemplateSet.builtIn[name]))
            #expect(keys.count > 8, "\(keys)")
            for _ in 0..<500 {
                let context = Self.randomContext(keys: keys, using: &random)
                let fast = clean(templates.renderCalendar(name, FlatContext(GameEventBuilder.keys, context)))
                let general = clean(templates.render(name, context.mapValues(\.any)))
                #expect(fast == general, "\(name) with \(context)")
                if fast != general { return }
            }
        }
    }

    @Test func inlineTagsRenderExactlyAsSwiftMustacheDoes() throws {
        let sources = [
            "{{#a}}[{{a}}]{{/a}}{{^a}}none{{/a}}",
            "{{{a}}}|{{&b}}|{{ c }}|{{! a comment }}|{{#b}}{{#c}}<{{b}}{{c}}>{{/c}}{{/b}}",
            "x{{#a}}{{#b}}{{d}}{{a}}{{/b}}{{^b}}-{{/b}}{{/a}}y{{^c}}{{^a}}!{{/a}}{{/c}}",
            "{{#c}}{{c}}{{/c}} and {{d}}{{#d}} ({{d}}){{/d}}",
            // A name the context never has.
            "{{e}}{{#e}}x{{/e}}{{^e}}y{{/e}}{{#a}}{{^e}}z{{/e}}{{/a}}",
        ]
        let keys = FlatKeys(["a", "b", "c", "d"])
        var random = SplitMix(state: 7)
        for source in sources {
            let fast = try #require(FlatTemplate(source, keys: keys), "\(source)")
            let general = try TemplateSet.parse(source, file: "test")
            for _ in 0..<300 {
                let context = Self.randomContext(keys: ["a", "b", "c", "d"], using: &random)
                let expected = general.render(TemplateContext(context.mapValues(\.any)))
                #expect(fast.render(FlatContext(keys, context)) == expected, "\(source) with \(context)")
            }
        }
    }

    @Test func anythingElseIsLeftToSwiftMustache() throws {
        for source in [
            "{{> partial}}", "{{#a}}{{.}}{{/a}}", "{{team.name}}", "{{uppercased(us)}}", "{{=<% %>=}}<% us %>",
            "{{% CONTENT_TYPE: TEXT}}{{us}}",
            "{{<parent}}{{/parent}}", "{{$block}}x{{/block}}", "{{#a}}open", "{{#a}}x{{/b}}", "{{/a}}", "{{us", "{{}}",
        ] {
            #expect(FlatTemplate(source, keys: GameEventBuilder.keys) == nil, "\(source)")
        }
        // A user's title template with a transform still works, through swift-mustache.
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "{{uppercased(us)}} v {{them}}".write(
            to: directory.appendingPathComponent("calendar-summary.mustache"), atomically: true, encoding: .utf8)
        let templates = try TemplateSet(overrides: directory.path)
        #expect(!templates.rendersFast("calendar-summary"))
        #expect(templates.rendersFast("calendar-description"))
        let context = FlatContext(GameEventBuilder.keys, ["us": .text("Leafs"), "them": .text("Habs")])
        #expect(templates.renderCalendar("calendar-summary", context) == "LEAFS v Habs")
    }

    @Test func theKeysAreTheDocumentedNames() {
        // The names templates use (Templates/README.md and the templates' own comments).
        #expect(GameEventBuilder.Key.showScore.name == "show_score")
        #expect(GameEventBuilder.Key.tvNational.name == "tv_national")
        #expect(GameEventBuilder.Key.status.name == "status")
        let shipped = Set(
            Self.keys(of: TemplateSet.builtIn["calendar-summary"]!) + Self.keys(of: TemplateSet.builtIn["calendar-description"]!))
        #expect(shipped.isSubset(of: Set(GameEventBuilder.keys.names)), "\(shipped.subtracting(GameEventBuilder.keys.names))")
    }

    @Test func titlesAndDescriptionsAreCleanedUp() {
        #expect(GameEventBuilder.collapsingWhitespace("\n  Leafs \t vs\r\n\nHabs  \n") == "Leafs vs Habs")
        #expect(GameEventBuilder.collapsingWhitespace(" \n\t ") == "")
        #expect(GameEventBuilder.withoutBlankLines("  Leafs @ Habs  \n\n \t\nTV: TSN4\r\n  url") == "Leafs @ Habs\nTV: TSN4\nurl")
        #expect(GameEventBuilder.withoutBlankLines("Montréal – 4\n") == "Montréal – 4")
    }
}
