import Foundation
import Testing

@testable import FaceoffBase
@testable import FaceoffDaemon
@testable import FaceoffKit
@testable import FaceoffNHL

@Suite(.timeLimit(.minutes(5))) struct ConfigLoaderTests {
    /// The configuration reference (docs/CONFIGURATION.md), every key set.
    static let fullReference = """
        teams = ["TOR", "MTL"]           # followed teams
        players = [8479318]
        timezone = "America/Toronto"
        api_base = "https://api-web.nhle.com/v1/"

        [calendar]
        dir = "~/.local/share/faceoff/calendars"
        season = "current"
        game_types = ["regular", "playoffs"]
        reminders = ["1h", "15m"]
        duration = "3h"
        refresh = "6h"
        scores = true

        [watch]
        poll = "5s"
        pregame = "30m"
        delay = "0s"

        [serve]
        enabled = false
        listen = "127.0.0.1:8765"
        token = ""
        public_url = ""

        [[sink]]
        type = "webhook"
        name = "discord"
        events = ["goal", "final"]
        teams = ["TOR"]
        players = []
        delay = "30s"
        url = "https://example.invalid/hook"
        preset = "discord"
        secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
        headers = { Authorization = "Bearer abc" }
        expiry = "1h"

        [[sink]]
        type = "stdout"
        format = "jsonl"

        [[sink]]
        type = "notify"
        urgency = "low"
        """

    @Test func parsesTheWholeReference() throws {
        let config = try ConfigLoader.parse(Self.fullReference, file: "config.toml")
        #expect(config.teams == ["TOR", "MTL"])
        #expect(config.players == [8479318])
        #expect(config.timezone == "America/Toronto")
        #expect(config.calendar.reminders == [.seconds(3600), .seconds(900)])
        #expect(config.calendar.gameTypes == [.regular, .playoffs])
        #expect(config.watch.poll == .seconds(5))
        #expect(config.watch.pregame == .seconds(1800))
        #expect(config.serve.listen == "127.0.0.1:8765")
        #expect(config.sinks.count == 3)
        let webhook = config.sinks[0]
        #expect(webhook.type == .webhook)
        #expect(webhook.name == "discord")
        #expect(webhook.events == [.goal, .final])
        #expect(webhook.teams == ["TOR"])
        #expect(webhook.delay == .seconds(30))
        guard case .webhook(let options) = webhook.options else {
            Issue.record("the first sink loaded as \(webhook.type)")
            return
        }
        #expect(options.preset == .discord)
        #expect(options.headers == ["Authorization": "Bearer abc"])
        #expect(options.expiry == .seconds(3600))
        #expect(config.sinks[1].options == .stdout(.init(format: .jsonl)))
        #expect(config.sinks[2].options == .notify(.init(urgency: .low)))
    }

    @Test func anEmptyFileIsAllDefaults() throws {
        #expect(try ConfigLoader.parse("", file: "config.toml") == Config())
        #expect(try ConfigLoader.parse("# just a comment\n", file: "config.toml").apiBase == "https://api-web.nhle.com/v1/")
    }

    @Test func unknownKeysAreErrorsWithLineAndSuggestion() {
        let found = ConfigLoader.errors(in: "# my teams\ntems = [\"TOR\"]\n")
        #expect(found.map(\.description) == ["config.toml:2: unknown key 'tems' (did you mean 'teams'?)"])

        let nested = ConfigLoader.errors(in: "teams = []\n\n[watch]\npoll = \"5s\"\npol = \"10s\"\n")
        #expect(nested.first?.line == 5)
        #expect(nested.first?.message.contains("did you mean 'poll'") == true)
    }

    @Test func durationsAreCheckedWithTheirLine() {
        let bad = ConfigLoader.errors(in: "[watch]\npoll = \"5 seconds\"\n")
        #expect(bad.first?.description == "config.toml:2: 'poll' must be a duration like \"5s\", \"30m\" or \"6h\", not \"5 seconds\"")
        let tooFast = ConfigLoader.errors(in: "[watch]\n\npoll = \"1s\"\n")
        #expect(tooFast.first?.line == 3)
        #expect(tooFast.first?.message.contains("at least 2s") == true)
        let number = ConfigLoader.errors(in: "[calendar]\nduration = 3\n")
        #expect(number.first?.line == 2)
        #expect(number.first?.message.contains("not an integer") == true)
    }

    /// `pregame` as one value (as before) or a list of reminders: longest first, watching
    /// from the longest; a list is the calendars' alarms too unless `[calendar] reminders`
    /// says otherwise (even `[]`).
    @Test func pregameTakesOneValueOrAListOfReminders() throws {
        let one = try ConfigLoader.parse("[watch]\npregame = \"45m\"\n", file: "c")
        #expect(one.watch.reminders == [.seconds(2700)] && one.watch.pregame == .seconds(2700))
        #expect(one.calendar.reminders.isEmpty)
        let two = try ConfigLoader.parse("[watch]\npregame = [\"10m\", \"1h\"]\n", file: "c")
        #expect(two.watch.reminders == [.seconds(3600), .seconds(600)] && two.watch.pregame == .seconds(3600))
        #expect(two.calendar.reminders == [.seconds(3600), .seconds(600)])
        let own = try ConfigLoader.parse("[calendar]\nreminders = []\n[watch]\npregame = [\"10m\", \"1h\"]\n", file: "c")
        #expect(own.calendar.reminders.isEmpty)
        #expect(Config().watch.reminders == [.seconds(1800)])
        let empty = ConfigLoader.errors(in: "[watch]\npregame = []\n")
        #expect(empty.first?.line == 2 && empty.first?.message.contains("lists no reminder") == true, "\(empty)")
        // A reminder at the start is none; 300 are an alarm storm on every game of a feed.
        let zero = ConfigLoader.errors(in: "[watch]\npregame = [\"1h\", \"0m\"]\n")
        #expect(zero.count == 1 && zero.first?.description.contains("must be at least 1m") == true, "\(zero)")
        // A calendar alarm at the start is one.
        #expect(try ConfigLoader.parse("[calendar]\nreminders = [\"0m\", \"1h\"]\n", file: "c").calendar.reminders.count == 2)
        let many = (1...300).map { "\"\($0)m\"" }.joined(separator: ", ")
        for table in ["[watch]\npregame", "[calendar]\nreminders"] {
            let storm = ConfigLoader.errors(in: "\(table) = [\(many)]\n")
            #expect(storm.first?.description.contains("lists 300 reminders; give at most 10") == true, "\(storm)")
        }
        let bad = ConfigLoader.errors(in: "[watch]\npregame = [\"1h\", \"soon\"]\n")
        #expect(bad.first?.line == 2 && bad.first?.message.contains("soon") == true, "\(bad)")
    }

    @Test func teamsAreValidatedWithSuggestions() throws {
        let found = ConfigLoader.errors(in: "teams = [\"TOR\", \"TRO\"]\n")
        #expect(found.first?.description == "config.toml:1: unknown team 'TRO' (did you mean TOR?)")
        // Case and names are accepted and normalised.
        #expect(try ConfigLoader.parse("teams = [\"tor\", \"Canadiens\"]", file: "c").teams == ["TOR", "MTL"])
    }

    @Test func everyProblemIsReportedInFileOrder() {
        let found = ConfigLoader.errors(
            in: """
                teams = ["XXX"]
                timezone = "Mars/Olympus"

                [serve]
                listen = "localhost"
                """)
        #expect(found.map(\.line) == [1, 2, 5])
    }

    @Test func syntaxErrorsCarryTOMLKitsLine() {
        let found = ConfigLoader.errors(in: "teams = [\"TOR\"]\n\n[watch\npoll = \"5s\"\n")
        #expect(found.count == 1)
        #expect(found.first?.line == 3)
        #expect(found.first?.message.hasPrefix("not valid TOML") == true)
    }

    /// toml++ crashed the process on these (found by fuzzing); now they are plain errors with
    /// their line. Strings, comments and inline tables holding the same characters still parse.
    @Test(arguments: [
        ("teams = [}]\n", 1), ("teams = [\"TOR\"]\nplayers = [}}479318]\n", 2), ("teams = [\"TOR\", }]\n", 1),
        ("# a comment\n\nteams = [\n  \"TOR\",\n}\n", 5),
    ])
    func aBraceInsideAnArrayIsAnErrorNotACrash(text: String, line: Int) {
        let found = ConfigLoader.errors(in: text)
        #expect(found.count == 1)
        #expect(found.first?.line == line)
        #expect(found.first?.message == "not valid TOML: '}' inside an array, where a value or the closing ']' should be")
    }

    @Test func aControlCharacterIsAnErrorNotACrash() {
        let found = ConfigLoader.errors(in: "teams = [\"TOR\"]\n[\u{3}alendar]\n")
        #expect(found.count == 1)
        #expect(found.first?.line == 2)
        #expect(found.first?.message.contains("a control character (U+0003)") == true)
        #expect(ConfigLoader.errors(in: "teams = [\"TOR\"]\t# tab\r\n").isEmpty)
    }

    @Test(arguments: ["teams = [\"TOR\"]\n[[\n[watch]\n", "teams = [\"TOR\"]\n[\u{FFFD}atch]\n", "teams = [\"TOR\"]\n  [ ]\n"])
    func aTableHeaderWithoutANameIsAnErrorNotACrash(text: String) {
        let found = ConfigLoader.errors(in: text)
        #expect(found.count == 1)
        #expect(found.first?.line == 2)
        #expect(found.first?.message == "not valid TOML: a table header needs a name after '[', as in [calendar] or [[sink]]")
        #expect(
            ConfigLoader.errors(in: "teams = [\"TOR\"]\n [ watch ]\npoll = \"5s\"\n[[ sink ]]\ntype = \"stdout\"\n[\"serve\"]\n").isEmpty)
    }

    @Test func bracesInStringsCommentsAndInlineTablesAreFine() throws {
        let text = """
            teams = ["TOR"]  # [}
            [[sink]]
            type = "webhook"
            url = "https://example.invalid/h?[}]"
            headers = { "X-A" = "[}", 'X-B' = '}]' }
            body = \"\"\"
            {"a": [}] }
            \"\"\"

            """
        #expect(TOMLGuard.check(text) == nil)
    }

    @Test func sinkKeysMustSuitTheSinkType() {
        let found = ConfigLoader.errors(
            in: """
                [[sink]]
                type = "stdout"
                url = "https://example.invalid/"

                [[sink]]
                type = "webhook"
                secret = "not-a-key"

                [[sink]]
                type = "pager"
                """)
        #expect(found.count == 4)
        #expect(found[0].line == 3)
        #expect(found[0].message.contains("'url' applies to webhook and mqtt sinks only"))
        #expect(found[1].line == 5)
        #expect(found[1].message.contains("no `url`"))
        #expect(found[2].line == 7)
        #expect(found[2].message.contains("whsec_"))
        #expect(found[3].line == 10)
        #expect(found[3].message.contains("unknown sink type 'pager'"))
    }

    @Test func aSingleBracketSinkIsExplained() {
        let found = ConfigLoader.errors(in: "[sink]\ntype = \"stdout\"\n")
        #expect(found.first?.line == 1)
        #expect(found.first?.message.contains("[[sink]]") == true)
    }

    @Test func hugeDurationsAreErrorsNotCrashes() {
        let found = ConfigLoader.errors(in: "[watch]\npoll = \"9999999999999999d\"\n[calendar]\nreminders = [\"106751991167301d\"]\n")
        #expect(found.map(\.line) == [2, 4])
    }

    @Test func unknownEventKindsAreErrors() {
        let found = ConfigLoader.errors(in: "[[sink]]\ntype = \"stdout\"\nevents = [\"goals\"]\n")
        #expect(found.first?.line == 3)
        #expect(found.first?.message.contains("did you mean 'goal'") == true)
    }

    @Test func apiBaseAlwaysEndsInV1() throws {
        #expect(try ConfigLoader.parse("api_base = \"file:///m/v1\"", file: "c").apiBase == "file:///m/v1/")
        #expect(ConfigLoader.errors(in: "api_base = \"https://api-web.nhle.com/\"").first?.message.contains("must end in /v1/") == true)
        #expect(ConfigLoader.errors(in: "api_base = \"ftp://x/v1/\"").first?.line == 1)
    }

    @Test func seasonsAndPlayers() throws {
        #expect(try ConfigLoader.parse("[calendar]\nseason = 20252026", file: "c").calendar.season == "20252026")
        #expect(ConfigLoader.errors(in: "[calendar]\nseason = \"20252027\"").first?.line == 2)
        #expect(ConfigLoader.errors(in: "players = [\"McDavid\"]").first?.message.contains("faceoff follow --player") == true)
    }

    @Test func aMissingDefaultFileMeansDefaultsButANamedOneMustExist() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("config.toml").path
        #expect(try ConfigLoader.load(path: path, mustExist: false) == Config())
        #expect(throws: ConfigErrors.self) { try ConfigLoader.load(path: path, mustExist: true) }
    }
}

@Suite(.timeLimit(.minutes(5))) struct DurationTextTests {
    @Test func parsesTheConfigSpellings() {
        #expect(DurationText.parse("30s") == .seconds(30))
        #expect(DurationText.parse("5m") == .seconds(300))
        #expect(DurationText.parse("6h") == .seconds(21600))
        #expect(DurationText.parse("1h30m") == .seconds(5400))
        #expect(DurationText.parse("2d") == .seconds(172_800))
        #expect(DurationText.parse("PT1H") == .seconds(3600))
        #expect(DurationText.parse("PT1H30M") == .seconds(5400))
        #expect(DurationText.parse("P1DT2H") == .seconds(93600))
        #expect(DurationText.parse("0") == .zero)
        for bad in ["", "5", "5 s", "s", "1y", "PT", "P1H", "-5s", "5s5", "9999999999999999d", "P99999999999999W", "106751991167301d"] {
            #expect(DurationText.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func formatsBack() {
        #expect(DurationText.format(.seconds(5400)) == "1h30m")
        #expect(DurationText.format(.zero) == "0s")
        #expect(DurationText.format(.seconds(45)) == "45s")
    }
}

@Suite(.timeLimit(.minutes(5))) struct TeamsTests {
    @Test func resolvesAbbreviationsAndNames() throws {
        #expect(Teams.all.count == 32)
        #expect(Set(Teams.abbreviations).count == 32)
        #expect(try Teams.resolve("tor") == "TOR")
        #expect(try Teams.resolve("Maple Leafs") == "TOR")
        #expect(try Teams.resolve("montreal") == "MTL")
        #expect(try Teams.resolve("Mammoth") == "UTA")
    }

    @Test func unknownTeamsSuggest() {
        #expect(throws: UnknownTeamError(input: "TRO", hint: "did you mean TOR?")) { try Teams.resolve("TRO") }
        #expect((try? Teams.resolve("ARI")) == nil)
        do {
            _ = try Teams.resolve("New York")
            Issue.record("an ambiguous name resolved")
        } catch {
            #expect(error.description.contains("NYI, NYR"))
        }
    }

    /// A password in an MQTT url and the feed server's token are secrets like a webhook's:
    /// a config others can read that holds one gets the warning.
    @Test func secretsInURLsAndTheServeTokenWantAPrivateConfig() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("config.toml").path
        for (text, warned) in [
            ("[[sink]]\ntype = \"mqtt\"\nurl = \"mqtt://faceoff:hunter2@broker\"\n", true), ("[serve]\ntoken = \"s3cret\"\n", true),
            ("[[sink]]\ntype = \"mqtt\"\nurl = \"mqtt://broker\"\n", false), ("teams = [\"TOR\"]\n", false),
        ] {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o644)
            let config = try ConfigLoader.load(path: path, mustExist: true)
            #expect((ConfigLoader.permissionWarning(path: path, config: config) != nil) == warned, "\(text)")
            chmod(path, 0o600)
            #expect(ConfigLoader.permissionWarning(path: path, config: config) == nil)
        }
    }

    /// Fans' names for the clubs are taken wherever a team is.
    @Test func nicknamesAreTeams() throws {
        for (name, abbrev) in [
            ("Habs", "MTL"), ("Pens", "PIT"), ("sens", "OTT"), ("Caps", "WSH"), ("Canes", "CAR"), ("Bolts", "TBL"),
            ("Leafs", "TOR"), ("Hawks", "CHI"), ("Wings", "DET"), ("Jackets", "CBJ"), ("Avs", "COL"), ("Preds", "NSH"),
            ("Nucks", "VAN"), ("Oil", "EDM"), ("Knights", "VGK"), ("Isles", "NYI"), ("Maple Leafs", "TOR"), ("Montréal", "MTL"),
        ] {
            #expect(try Teams.resolve(name) == abbrev, "\(name)")
        }
        #expect(Set(Teams.nicknames.values).isSubset(of: Set(Teams.abbreviations)))
        #expect(throws: UnknownTeamError.self) { try Teams.resolve("Coyotes") }
    }
}
