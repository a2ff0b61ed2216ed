import Foundation
import Testing

@testable import FaceoffBase
@testable import FaceoffDaemon
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL

@Suite(.timeLimit(.minutes(5))) struct ConfigEditorTests {
    @Test func addingToASingleLineListKeepsTheRestOfTheFile() {
        let text = """
            # Faceoff
            teams = ["TOR"]   # the Leafs, always
            players = []

            [watch]
            poll = "5s"   # fast
            """
        let updated = ConfigEditor.add(["\"MTL\"", "\"TOR\""], toList: "teams", in: text)
        #expect(updated == text.replacingOccurrences(of: "teams = [\"TOR\"]", with: "teams = [\"TOR\", \"MTL\"]"))
        #expect(ConfigEditor.add(["8479318"], toList: "players", in: updated).contains("players = [8479318]\n"))
    }

    @Test func addingToAMultiLineListFollowsItsStyle() {
        let text = """
            teams = [
              "TOR",  # home
              "MTL"   # rivals
            ]
            """
        let updated = ConfigEditor.add(["\"BOS\""], toList: "teams", in: text)
        #expect(
            updated == """
                teams = [
                  "TOR",  # home
                  "MTL",   # rivals
                  "BOS",
                ]
                """)
        #expect(ConfigEditor.values(ofList: "teams", in: updated) == ["TOR", "MTL", "BOS"])
    }

    @Test func aMissingKeyGoesBeforeTheFirstTableAndItsComments() {
        let text = """
            # My settings
            timezone = "America/Toronto"

            # Calendar feeds
            [calendar]
            scores = false
            """
        let updated = ConfigEditor.add(["\"TOR\""], toList: "teams", in: text)
        #expect(
            updated == """
                # My settings
                timezone = "America/Toronto"

                teams = ["TOR"]

                # Calendar feeds
                [calendar]
                scores = false

                """)
    }

    @Test func aListInsideATableIsNotTheRootList() {
        let text = "[[sink]]\ntype = \"stdout\"\nteams = [\"BOS\"]\n"
        let updated = ConfigEditor.add(["\"TOR\""], toList: "teams", in: text)
        #expect(updated.hasPrefix("teams = [\"TOR\"]\n"))
        #expect(updated.contains("teams = [\"BOS\"]"))
    }

    @Test func removingFromASingleLineList() {
        let text = "teams = [\"TOR\", \"MTL\", \"BOS\"]  # three\n"
        #expect(ConfigEditor.remove(["\"MTL\""], fromList: "teams", in: text) == "teams = [\"TOR\", \"BOS\"]  # three\n")
        #expect(ConfigEditor.remove(["\"XXX\""], fromList: "teams", in: text) == text)
    }

    @Test func removingFromAMultiLineListDropsTheItemsLineOnly() throws {
        let text = """
            # teams I follow
            teams = [
              "TOR",  # home
              "MTL",  # rivals
              "BOS",
            ]
            players = [
              8479318,
            ]
            """
        let updated = ConfigEditor.remove(["\"MTL\""], fromList: "teams", in: text)
        #expect(
            updated == """
                # teams I follow
                teams = [
                  "TOR",  # home
                  "BOS",
                ]
                players = [
                  8479318,
                ]
                """)
        let noPlayers = ConfigEditor.remove(["8479318"], fromList: "players", in: updated)
        #expect(noPlayers.hasSuffix("players = [\n]"))
        #expect(try ConfigLoader.parse(noPlayers, file: "c").players == [])
    }

    @Test func crlfFilesStayCRLFAndEditCorrectly() throws {
        let text = "# mine\r\nteams = [\"TOR\", \"MTL\"]\r\n\r\n[watch]\r\npoll = \"10s\"\r\n"
        let added = ConfigEditor.add(["\"NYR\""], toList: "teams", in: text)
        #expect(added == "# mine\r\nteams = [\"TOR\", \"MTL\", \"NYR\"]\r\n\r\n[watch]\r\npoll = \"10s\"\r\n")
        let removed = ConfigEditor.remove(["\"MTL\""], fromList: "teams", in: text)
        #expect(removed == "# mine\r\nteams = [\"TOR\"]\r\n\r\n[watch]\r\npoll = \"10s\"\r\n")
        #expect(try ConfigLoader.parse(added, file: "c").teams == ["TOR", "MTL", "NYR"])
        // Line numbers count CRLF lines too.
        do {
            _ = try ConfigLoader.parse("# one\r\n# two\r\ntems = []\r\n", file: "c")
            Issue.record("parsed an unknown key")
        } catch {
            #expect(error.errors.first?.line == 3)
        }
    }

    @Test func valuesCompareByMeaningAndQuotedKeysCount() {
        let canonical: (String) -> String = { (try? Teams.resolve($0)) ?? $0.uppercased() }
        let names = "teams = [\"Leafs\", \"canadiens\"]\n"
        #expect(ConfigEditor.add(["\"MTL\""], toList: "teams", in: names, canonical: canonical) == names)
        #expect(ConfigEditor.remove(["\"TOR\""], fromList: "teams", in: names, canonical: canonical) == "teams = [\"canadiens\"]\n")
        let quoted = "\"teams\" = [\"TOR\"]\n"
        #expect(ConfigEditor.add(["\"MTL\""], toList: "teams", in: quoted) == "\"teams\" = [\"TOR\", \"MTL\"]\n")
    }

    @Test func editedFilesStillParse() throws {
        var text = ConfigTemplate.text()
        text = ConfigEditor.add(["\"TOR\"", "\"MTL\""], toList: "teams", in: text)
        text = ConfigEditor.add(["8479318"], toList: "players", in: text)
        text = ConfigEditor.remove(["\"TOR\""], fromList: "teams", in: text)
        let config = try ConfigLoader.parse(text, file: "c")
        #expect(config.teams == ["MTL"])
        #expect(config.players == [8479318])
        #expect(text.contains("# poll = \"5s\""))
    }
}

@Suite(.timeLimit(.minutes(5))) struct AtomicFileTests {
    @Test func replacesContentAndKeepsPermissions() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("config.toml").path
        try AtomicFile.write("one\n", to: path, permissions: 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "one\n")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        try AtomicFile.write("two\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two\n")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["config.toml"])
    }

    @Test func writesThroughASymlinkToItsTarget() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("dotfiles/config.toml")
        try AtomicFile.write("old\n", to: target.path, permissions: 0o600)
        let link = directory.appendingPathComponent("config.toml")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        try AtomicFile.write("new\n", to: link.path)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try String(contentsOf: target, encoding: .utf8) == "new\n")
        #expect(try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? Int == 0o600)
    }

    @Test func aFailedWriteLeavesTheOldFile() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("config.toml").path
        try AtomicFile.write("good\n", to: path)
        // A directory where the temporary file should go makes the write fail (even for root).
        let blocker = directory.appendingPathComponent(".config.toml.\(ProcessInfo.processInfo.processIdentifier).tmp")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: false)
        #expect(throws: (any Error).self) { try AtomicFile.write("bad\n", to: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "good\n")
    }
}
