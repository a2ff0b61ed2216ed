import Foundation
import PropertyBased
import Testing

@testable import FaceoffAPI
@testable import FaceoffDaemon
@testable import FaceoffDelivery
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffNHL

/// The parsers on mutated copies of the project's own fixtures: bytes replaced by JSON's (or
/// TOML's, or Mustache's) structural characters, ranges cut or doubled, bodies truncated. Every
/// input either parses or is refused with an error that names what was wrong, in the words a
/// user sees; none crashes.
///
/// CI runs a few hundred inputs per decoder. The long run, 10,000 or more each:
///
///     FACEOFF_FUZZ_COUNT=10000 swift test --filter MutationFuzzTests
///
/// toml++ (under TOMLKit) crashed on three shapes of config this found; `TOMLGuard` now
/// refuses them before it sees the text. Every built-in template is fuzzed through the
/// template parser and renderer: a trap in swift-mustache's `Parser.read(count:)` seen when
/// this fuzzer was first written (commit 9a7aa55) did not come back in 90,000 inputs over all
/// templates on 2026-11-24, so it runs in CI like the others.
@Suite(.timeLimit(.minutes(5))) struct MutationFuzzTests {
    static let count: Int = ProcessInfo.processInfo.environment["FACEOFF_FUZZ_COUNT"].flatMap { Int($0) } ?? 300

    /// One mutation per number: which (the number mod 5), where and how much (the rest).
    static func mutate(_ input: [UInt8], _ seeds: [Int]) -> [UInt8] {
        var bytes = input
        let tokens: [[UInt8]] = [
            "{", "}", "[", "]", "\"", ":", ",", "null", "-1", "1e999", "\\u0000", "\u{FFFD}", "=", "\n", "{{", "}}", "#", "/", "[[", "]]",
            "true", "\"\"",
        ].map { Array($0.utf8) }
        for seed in seeds where !bytes.isEmpty {
            let at = (seed / 5) % bytes.count
            let length = min(bytes.count - at, 1 + (seed / 7) % 64)
            switch seed % 5 {
            case 0: bytes.replaceSubrange(at..<(at + 1), with: tokens[(seed / 11) % tokens.count])
            case 1: bytes.removeSubrange(at..<(at + length))
            case 2: bytes.insert(contentsOf: bytes[at..<(at + length)], at: at)
            case 3: bytes.removeSubrange(at...)
            default: bytes[at] = UInt8(truncatingIfNeeded: seed / 13)
            }
        }
        return bytes
    }

    static let seeds = Gen.int(in: 0...Int(Int32.max)).array(of: 1...6)

    static func fixture(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: TestPaths.mirror.appendingPathComponent(path)))
    }

    /// What a user reads must be plain: no Swift type dumps, no Foundation domains.
    static func isPlain(_ message: String) -> Bool {
        !message.isEmpty && !message.contains("NSCocoaErrorDomain") && !message.contains("Swift.DecodingError")
            && !message.contains("CodingKeys(")
    }

    /// Decodes through the client's own decoding step, as a fetched body is.
    static func decodes<T: Decodable>(_ type: T.Type, fixture path: String) async throws {
        let client = APIClient(service: .nhl, base: "file:///nowhere/v1/", http: CurlHTTPClient(), cache: nil)
        let original = try fixture(path)
        #expect((try? client.decode(T.self, original, url: path)) != nil, "the unmutated fixture decodes")
        await withTaskExecutorPreference(OffPoolExecutor.shared) {
            await propertyCheck(count: count, input: seeds) { seeds in
                let body = mutate(original, seeds)
                do {
                    _ = try client.decode(T.self, body, url: path)
                } catch let error as APIError {
                    #expect(isPlain(error.description), "\(error.description)")
                    #expect(error.description.contains(path))
                } catch {
                    Issue.record("not an APIError: \(error)")
                }
            }
        }
    }

    @Test func playByPlay() async throws { try await Self.decodes(PlayByPlay.self, fixture: "gamecenter/2025020100/play-by-play") }
    @Test func schedule() async throws { try await Self.decodes(ClubSchedule.self, fixture: "club-schedule-season/TOR/now") }
    @Test func landing() async throws { try await Self.decodes(PlayerLanding.self, fixture: "player/8479318/landing") }
    @Test func standings() async throws { try await Self.decodes(Standings.self, fixture: "standings/now") }

    @Test func configParser() async throws {
        let original = Array(
            """
            teams = ["TOR", "MTL"]
            players = [8479318]
            timezone = "America/Toronto"
            [calendar]
            reminders = ["1h", "15m"]
            refresh = "6h"
            [watch]
            poll = "5s"
            delay = "30s"
            [serve]
            listen = "127.0.0.1:8765"
            [[sink]]
            type = "webhook"
            name = "chat"
            preset = "discord"
            url = "https://example.invalid/hook"
            events = ["goal", "final"]
            [[sink]]
            type = "stdout"
            format = "jsonl"

            """.utf8)
        #expect((try? ConfigLoader.parse(String(decoding: original, as: UTF8.self), file: "config.toml")) != nil)
        await withTaskExecutorPreference(OffPoolExecutor.shared) {
            await propertyCheck(count: Self.count, input: Self.seeds) { seeds in
                let text = String(decoding: Self.mutate(original, seeds), as: UTF8.self)
                do {
                    _ = try ConfigLoader.parse(text, file: "config.toml")
                } catch let error as ConfigErrors {
                    #expect(!error.errors.isEmpty)
                    for problem in error.errors {
                        #expect(Self.isPlain(problem.description), "\(problem.description)")
                        #expect(problem.description.contains("config.toml"), "\(problem.description)")
                    }
                } catch {
                    Issue.record("not a ConfigErrors: \(error)")
                }
            }
        }
    }

    static let templates =
        ((try? FileManager.default.contentsOfDirectory(atPath: TestPaths.repositoryRoot.appendingPathComponent("Templates").path)) ?? [])
        .filter { $0.hasSuffix(".mustache") }.sorted()

    @Test(arguments: templates)
    func templateRenderer(_ name: String) async throws {
        try #require(Self.templates.count >= 10, "the built-in templates are found")
        let original = Array(
            try String(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("Templates/\(name)"), encoding: .utf8).utf8)
        let event = SampleEvent.make(.goal, team: "TOR", key: "fuzz")
        nonisolated(unsafe) let context = AlertContext.values(event, followed: ["TOR"])
        await withTaskExecutorPreference(OffPoolExecutor.shared) {
            await propertyCheck(count: Self.count, input: Self.seeds) { seeds in
                let text = String(decoding: Self.mutate(original, seeds), as: UTF8.self)
                do {
                    let template = try TemplateSet.parse(text, file: name)
                    _ = template.render(context)
                } catch let error as TemplateError {
                    #expect(Self.isPlain(error.description), "\(error.description)")
                    #expect(error.description.contains(name), "\(error.description)")
                } catch {
                    Issue.record("not a TemplateError: \(error)")
                }
            }
        }
    }
}
