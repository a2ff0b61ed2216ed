import Foundation
import Testing

@testable import FaceoffDaemon
@testable import FaceoffDelivery
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL

@Suite(.timeLimit(.minutes(5))) struct RendererTests {

    @Test func theIssueExampleGoal() {
        var event = SampleEvent.make(.goal, team: "TOR")
        event.away = "TOR"
        event.home = "MTL"
        event.score = .init(away: 2, home: 1)
        event.players = [
            .init(role: "scorer", id: 1, name: "Matthews", team: "TOR", seasonTotal: 34),
            .init(role: "assist", id: 2, name: "Marner", team: "TOR"),
            .init(role: "assist", id: 3, name: "Rielly", team: "TOR"),
        ]
        let text = Renderer.builtIn.text(event)
        #expect(text.title == "🚨 Maple Leafs goal!")
        #expect(text.body == "Matthews (34) from Marner, Rielly · PP · TOR 2–1 MTL · 2nd 12:34")
    }

    /// One golden title and body per kind: what a template change must change on purpose.
    @Test func everyKindHasItsText() throws {
        let expected: [GameEvent.Kind: String] = [
            .pregame: "MTL @ TOR soon  starts in 30 min",
            .gameStart: "🏒 Puck drop: MTL @ TOR  MTL 0–0 TOR",
            .gameJoined: "Joined MTL @ TOR in progress  MTL 1–2 TOR · 2nd 07:26 left · TOR: Player One · MTL: Player Two",
            .goal: "🚨 Maple Leafs goal!  A. Matthews (34) from M. Marner, M. Rielly · PP · MTL 1–2 TOR · 2nd 12:34",
            .goalOverturned: "❌ Maple Leafs goal overturned  A. Matthews (34) · MTL 1–2 TOR · 2nd 12:34",
            .goalReinstated: "✅ Maple Leafs goal reinstated  A. Matthews (34) · MTL 1–2 TOR · 2nd 12:34",
            .goalHighlight:
                "🎬 Maple Leafs goal highlight  A. Matthews (34) · https://www.nhl.com/video/sample-goal-6362000000112 · 2nd 12:34",
            .scoringChange: "✏️ Scoring change, Maple Leafs goal  A. Matthews (34) from M. Marner, M. Rielly · PP · MTL 1–2 TOR · 2nd 12:34",
            .penalty: "⚠️ Canadiens penalty  N. Suzuki, hooking (2 min) · drawn by A. Matthews · 2nd 12:34",
            .penaltyShotMissed: "🧤 Maple Leafs penalty shot stopped  A. Matthews stopped by N. Suzuki · MTL 1–2 TOR · 2nd 12:34",
            .powerPlayStart: "⚡ Maple Leafs power play  5v4, 2:00 · MTL 1–2 TOR · 2nd 12:34",
            .powerPlayChange: "⚡ Maple Leafs power play now 5v3  from 5v4 (penalty) · MTL 1–2 TOR · 2nd 12:34",
            .powerPlayEnd: "🔚 Maple Leafs power play over  expired · MTL 1–2 TOR · 2nd 12:34",
            .goaliePulled: "🥅 Canadiens pull the goalie  6v5 · MTL 1–2 TOR · 3rd 18:02",
            .goalieReturned: "🥅 Canadiens goalie back in net  6v5 · MTL 1–2 TOR · 3rd 18:02",
            .periodStart: "▶ 2nd period  MTL 1–2 TOR",
            .periodEnd: "⏸ End of 2nd  MTL 1–2 TOR · shots 18–24",
            .final: "🏁 Final  MTL 2–3 TOR · Maple Leafs win · shots 27–33",
            .scheduleChange: "📅 MTL @ TOR moved  from Sat Nov 28 19:00 to Sun Nov 29 15:00",
            .digest: "🌙 While you were away  MTL 1–2 TOR, final (A. Matthews ×2)",
            // Basketball's: the samples are an NBA game, the Celtics at the Lakers.
            .score: "🏀 Lakers +3  LeBron James from Austin Reaves · BOS 98–101 LAL · Q4 3:12",
            .leadChange: "🔄 Lakers take the lead  LeBron James · BOS 98–101 LAL · Q4 3:12",
            .run: "🔥 Lakers on a 10-0 run  BOS 98–101 LAL · Q4 3:12",
            .closeGame: "⏱ Close game: BOS @ LAL  BOS 98–101 LAL · Q4 3:12",
            .milestone: "⭐ LeBron James: triple-double  31 pts, 11 reb, 10 ast · BOS 98–101 LAL · Q4 3:12",
        ]
        for kind in GameEvent.Kind.allCases {
            #expect(Renderer.builtIn.line(SampleEvent.make(kind, team: "TOR")) == expected[kind], "\(kind)")
        }
        // An NBA game's start, quarters and halftime in basketball's words.
        func nba(_ kind: GameEvent.Kind, period: Int, _ details: [String: String] = [:]) -> String {
            var event = SampleEvent.make(kind, team: "TOR")
            event.league = .nba
            event.period = period
            event.details.merge(details) { $1 }
            return Renderer.builtIn.text(event).title
        }
        #expect(nba(.gameStart, period: 1) == "🏀 Tip-off: MTL @ TOR")
        #expect(nba(.periodStart, period: 2, ["period_name": "2nd quarter"]) == "▶ 2nd quarter")
        #expect(nba(.periodEnd, period: 2, ["halftime": "true"]) == "⏸ Halftime")
        #expect(nba(.periodEnd, period: 3) == "⏸ End of Q3")
        var overtime = SampleEvent.make(.periodStart, team: "TOR")
        overtime.period = 4
        overtime.periodType = "OT"
        #expect(Renderer.builtIn.text(overtime).title == "▶ Overtime")
        var shootout = SampleEvent.make(.final, team: "TOR")
        shootout.details["ended_in"] = "SO"
        #expect(Renderer.builtIn.text(shootout).title == "🏁 Final/SO")
    }

    /// The scoring team's colours and logo ride along in the JSON line and webhook body, the
    /// MQTT team state and the template keys, for lights that flash them; a team the table
    /// doesn't know has none rather than wrong ones.
    @Test func payloadsCarryTheTeamsColoursAndLogo() throws {
        let goal = SampleEvent.make(.goal, team: "TOR")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(EventJSON(goal, text: Renderer.builtIn.text(goal)).encoded().utf8))
                as? [String: Any])
        let colors = try #require(json["teamColors"] as? [String: String])
        #expect(colors == ["primary": "#00205B", "secondary": "#FFFFFF", "logo": "https://assets.nhle.com/logos/nhl/svg/TOR_light.svg"])
        let state = MQTTTeamState.after(goal, team: "MTL", previous: nil, at: Date())
        #expect(state.colors?.primary == "#AF1E2D" && state.colors?.logo.hasSuffix("/MTL_light.svg") == true)
        #expect(MQTTTeamState.idle("TOR", at: Date()).colors?.secondary == "#FFFFFF")
        let values = AlertContext.values(goal, followed: ["TOR"])
        #expect(values["team_color_secondary"] as? String == "#FFFFFF")
        #expect(values["team_logo"] as? String == "https://assets.nhle.com/logos/nhl/svg/TOR_light.svg")
        let stranger = SampleEvent.make(.goal, team: "XYZ")
        #expect(EventJSON(stranger, text: Renderer.builtIn.text(stranger)).teamColors == nil)
    }

    @Test func importanceFollowsTheFollowedTeams() {
        #expect(Renderer.builtIn.isImportant(SampleEvent.make(.goal, team: "TOR")))
        #expect(!Renderer.builtIn.isImportant(SampleEvent.make(.goal, team: "MTL")))
        #expect(Renderer.builtIn.isImportant(SampleEvent.make(.final, team: "MTL")))
        #expect(!Renderer.builtIn.isImportant(SampleEvent.make(.penalty, team: "TOR")))
    }

    /// A highlight's push opens the clip; any other alert's, the game centre.
    @Test func aHighlightLinksToItsClip() throws {
        let clip = "https://www.nhl.com/video/sample-goal-6362000000112"
        for (kind, link) in [(GameEvent.Kind.goalHighlight, clip), (.goal, "https://www.nhl.com/gamecenter/2025029999")] {
            let event = SampleEvent.make(kind, team: "TOR")
            let discord = try #require(
                try JSONSerialization.jsonObject(with: Data(Renderer.builtIn.webhookBody(event, preset: .discord))) as? [String: Any])
            #expect((discord["embeds"] as? [[String: Any]])?.first?["url"] as? String == link)
            let ntfy = try #require(
                try JSONSerialization.jsonObject(with: Data(Renderer.builtIn.webhookBody(event, preset: .ntfy, url: "https://ntfy.sh/t")))
                    as? [String: Any])
            #expect(ntfy["click"] as? String == link)
        }
    }

    /// Quotes, backslashes, newlines and control characters in names stay inside their JSON
    /// strings in every preset; nothing is HTML-escaped.
    @Test func webhookBodiesAreJSONWhateverTheNames() throws {
        var event = SampleEvent.make(.goal, team: "TOR")
        event.players[0].name = "Jean \"Le Gros\" Béliveau\\\n<b>&\u{7}"
        for preset in SinkConfig.Preset.allCases {
            let body = try Renderer.builtIn.webhookBody(event, preset: preset, url: "https://ntfy.sh/leafs")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any], "\(preset)")
            let text = String(decoding: body, as: UTF8.self)
            // Text bodies are one line: the newline in the name becomes a space there.
            let shown = "Jean \"Le Gros\" Béliveau\\ <b>&\u{7}"
            #expect(!text.contains("&quot;") && !text.contains("&lt;"), "\(preset) escaped HTML")
            switch preset {
            case .generic: #expect((object["players"] as? [[String: Any]])?.first?["name"] as? String == event.players[0].name)
            case .discord: #expect(((object["embeds"] as? [[String: Any]])?.first?["description"] as? String)?.contains(shown) == true)
            case .slack: #expect((object["text"] as? String)?.contains(shown) == true)
            case .ntfy:
                #expect(object["topic"] as? String == "leafs")
                #expect(object["priority"] as? Int == 5)
            case .gotify: #expect(object["priority"] as? Int == 8)
            case .homeassistant:
                #expect(object["goal_light"] as? Bool == true)
                #expect((object["event"] as? [String: Any])?["id"] as? String == event.id)
            }
        }
        #expect(WebhookTarget.postURL("https://ntfy.sh/leafs", preset: .ntfy) == "https://ntfy.sh/")
        #expect(WebhookTarget.postURL("https://ntfy.example/base/leafs", preset: .ntfy) == "https://ntfy.example/base")
        #expect(WebhookTarget.postURL("https://x.example/hook", preset: .discord) == "https://x.example/hook")
    }

    /// A template speaks of the league through its variables; one written with the `nba`
    /// flag before them still renders as it did.
    @Test func aTemplateNamesTheLeagueByVariablesAndTheOldFlagStillWorks() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        {{#game_start}}{{#nba}}B{{/nba}}{{^nba}}H{{/nba}} {{sport_emoji}} {{start_word}}{{/game_start}}\
        {{#period_start}}{{period_name}}{{/period_start}}
        """.write(to: directory.appendingPathComponent("alert-title.mustache"), atomically: true, encoding: .utf8)
        let renderer = Renderer(templates: try TemplateSet(overrides: directory.path), followed: [])
        var start = SampleEvent.make(.gameStart, team: "TOR")
        #expect(renderer.text(start).title == "H 🏒 Puck drop")
        start.league = .nba
        #expect(renderer.text(start).title == "B 🏀 Tip-off")
        var period = SampleEvent.make(.periodStart, team: "TOR")
        period.period = 3
        #expect(renderer.text(period).title == "3rd period")
        period.periodType = "SO"
        period.period = 5
        #expect(renderer.text(period).title == "Shootout")
    }

    @Test func aUserTemplateReplacesTheBuiltInOneAndItsMistakesAreFound() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "{{#goal}}GOAL {{team}}{{/goal}}{{^goal}}{{kind}}{{/goal}}".write(
            to: directory.appendingPathComponent("alert-title.mustache"), atomically: true, encoding: .utf8)
        let renderer = Renderer(templates: try TemplateSet(overrides: directory.path), followed: [])
        #expect(renderer.text(SampleEvent.make(.goal, team: "TOR")).title == "GOAL TOR")
        #expect(renderer.check().isEmpty)

        // A syntax error: named with file, line and column when the templates load.
        try "{\n  \"text\": \"{{title}\"\n}".write(
            to: directory.appendingPathComponent("webhook-slack.mustache"), atomically: true, encoding: .utf8)
        #expect(throws: TemplateError.self) { try TemplateSet(overrides: directory.path) }
        do {
            _ = try TemplateSet(overrides: directory.path)
        } catch {
            #expect(error.file.hasSuffix("webhook-slack.mustache"))
            #expect(error.line == 2)
        }
        // Valid Mustache that makes broken JSON: found by check(), never sent.
        try "{\"text\": {{title}}}".write(to: directory.appendingPathComponent("webhook-slack.mustache"), atomically: true, encoding: .utf8)
        let broken = Renderer(templates: try TemplateSet(overrides: directory.path), followed: [])
        #expect(broken.check().map(\.template) == ["webhook-slack"])
        #expect(throws: RenderError.self) { try broken.webhookBody(SampleEvent.make(.goal, team: "TOR"), preset: .slack) }
    }

    @Test func filtersTakeKindsTeamsAndPlayers() {
        var config = SinkConfig(.webhook(.init(url: "https://example.org/hook")))
        config.events = [.goal, .final]
        config.players = [8479318]
        let filter = SinkFilter(config, defaultTeams: ["BOS"])
        var goal = SampleEvent.make(.goal, team: "TOR")
        #expect(filter.matches(goal))  // a followed player's goal in a game of unfollowed teams
        goal.players = []
        #expect(!filter.matches(goal))
        goal.home = "BOS"
        #expect(filter.matches(goal))
        #expect(!filter.matches(SampleEvent.make(.penalty, team: "BOS")))
        config.teams = []
        #expect(!SinkFilter(config, defaultTeams: ["BOS"]).matches(SampleEvent.make(.final, team: "BOS")))
    }

    /// A test alert for Pittsburgh has Penguins scoring, not Leafs.
    @Test func sampleEventsUseTheTeamsOwnPlayers() {
        #expect(SampleEvent.make(.goal, team: "PIT").players.map(\.name) == ["S. Crosby", "E. Malkin", "E. Karlsson"])
        #expect(SampleEvent.make(.goal, team: "BUF").players.first?.name == "BUF Scorer")
        #expect(SampleEvent.make(.penalty, team: "PIT").players.first?.name == "N. Suzuki")
    }
}
