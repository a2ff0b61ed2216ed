import FaceoffAPI
import FaceoffBase
import Foundation
import Testing

@testable import FaceoffCalendar
@testable import FaceoffDelivery
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL

@Suite struct ThirdLeagueTests {
    let league = CurlingLeague.registered

    func event(_ kind: GameEvent.Kind, team: String? = "ICE", period: Int = 3, score: (Int, Int) = (2, 1)) -> GameEvent {
        var event = GameEvent(
            kind: kind, key: "\(kind.rawValue)-\(period)", gameId: 42, away: "ICE", home: "ROK", team: team, period: period,
            score: .init(away: score.0, home: score.1), details: ["time_remaining": "4:10"])
        event.league = league
        return event
    }

    @Test func itsTeamsAndGamesAreWrittenWithItsCode() throws {
        #expect(League(rawValue: "LCL") == league)
        let key = try #require(TeamKey(written: "lcl:ice"))
        #expect(key.written == "lcl:ICE" && key.team?.shortName == "Icebreakers")
        #expect(TeamKey(written: "lcl:TOR") == nil)
        #expect(GameKey.parse("lcl:42") == GameKey(league: league, id: 42))
        #expect(GameKey.parse("lcl:4242") == nil)
        let lead = event(.leadChange)
        #expect(lead.followKey("ICE") == "lcl:ICE")
        #expect(lead.isGame(of: ["lcl:ROK"]) && !lead.isGame(of: ["ROK", "ICE"]))
        #expect(lead.periodLabel == "End 3")
    }

    /// A followed team of any registered league is taken where a fan writes one (config
    /// `teams`, `follow`), by the league's own abbreviations; an NHL team stays the NHL's.
    @Test func itsTeamsAreFollowedByItsAbbreviations() throws {
        #expect(try TeamInput.followed(" lcl:ice ").written == "lcl:ICE")
        #expect(try TeamInput.followed("TOR").written == "TOR")
        #expect(throws: UnknownTeamError.self) { try TeamInput.followed("lcl:TOR") }
        var config = Config()
        config.teams = ["TOR", "lcl:ICE", "nba:LAL"]
        #expect(config.nhlTeams == ["TOR"])
        #expect(config.nbaTeams.map(\.abbrev) == ["LAL"])
    }

    /// The third league's team has a calendar feed through the door, alone and among the
    /// favourites beside an NHL team, written by libical; nothing of curling's in
    /// FaceoffCalendar. A league that has no calendar says so, and the others' feed is built.
    @Test func aFeedOfTheThirdLeaguesTeam() async throws {
        _ = CurlingLeague.registered
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let hockey = folder.appendingPathComponent("club-schedule-season/TOR/now")
        try FileManager.default.createDirectory(at: hockey.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.mirror.appendingPathComponent("club-schedule-season/TOR/now"), to: hockey)
        let curling = folder.appendingPathComponent("curling/teams/ICE/schedule")
        try FileManager.default.createDirectory(at: curling.deletingLastPathComponent(), withIntermediateDirectories: true)
        let games = [
            CurlingFeed(id: 41, away: "ICE", home: "ROK", start: "2026-01-10T19:00:00Z", state: "final", ends: [.init(away: 6, home: 5)]),
            CurlingFeed(id: 42, away: "BRM", home: "ICE", start: "2026-01-17T19:00:00Z", state: "pre", ends: []),
        ]
        try JSONEncoder().encode(games).write(to: curling)
        let client = APIClient(service: .nhl, base: "file://\(folder.path)/", http: CurlHTTPClient(clock: TestClock()), cache: nil)
        let service = CalendarService(
            clients: [client], state: nil, templates: try TemplateSet(overrides: nil), options: CalendarSettings())

        let (alone, _, none) = try await service.feed(.team("lcl:ICE"))
        #expect(none.isEmpty && alone.name == "lcl-ICE" && alone.title.hasPrefix("Lakeshore Icebreakers "), "\(alone.title)")
        #expect(alone.events.map(\.uid) == ["lcl-game-41@faceoff", "lcl-game-42@faceoff"])
        let final = try #require(alone.events.first)
        #expect(final.categories == ["LCL", "Regular season", "ICE", "ROK"] && final.teams == ["lcl:ICE", "lcl:ROK"])
        #expect(final.description.contains("Final: ICE 6–5 ROK") && final.url == "https://curling.example/games/41", "\(final.description)")
        #expect(final.summary.contains("Icebreakers") && final.location == "Lakeshore Curling Club", "\(final.summary)")
        let text = try CalendarBuilder.serialize(alone)
        #expect(text.contains("UID:lcl-game-42@faceoff") && text.contains("X-WR-CALNAME:Lakeshore Icebreakers"))

        let (both, _, warnings) = try await service.feed(.favourites(["TOR", "lcl:ICE"]))
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(both.events.contains { $0.uid == "lcl-game-41@faceoff" } && both.events.contains { $0.uid.hasPrefix("nhl-game-") })

        // The NBA's calendar needs ESPN's API, which this service was not given.
        let (feed, _, lacking) = try await service.feed(.favourites(["TOR", "nba:LAL"]))
        #expect(!feed.events.isEmpty && lacking.count == 1 && lacking[0].contains("need ESPN's site API"), "\(lacking)")
    }

    /// The words, colours and links of an alert are the league's.
    @Test func anAlertSpeaksItsLeaguesWords() throws {
        let lead = event(.leadChange)
        let values = AlertContext.values(lead, followed: ["lcl:ICE"])
        #expect(values["start_word"] as? String == "First stone")
        #expect(values["sport_emoji"] as? String == "🥌")
        #expect(values["league"] as? String == "lcl" && values["lcl"] as? Bool == true && values["nba"] == nil)
        #expect(values["team_name"] as? String == "Icebreakers")
        #expect(values["team_full_name"] as? String == "Lakeshore Icebreakers")
        #expect(values["team_color"] as? String == "#1B3A6B")
        #expect(values["team_logo"] as? String == "https://curling.example/logos/ICE.svg")
        #expect(values["game_url"] as? String == "https://curling.example/games/42")
        #expect(values["when"] as? String == "End 3 4:10")
        #expect(values["period_name"] as? String == "end 3")
        #expect(values["followed"] as? Bool == true)
        let renderer = Renderer(templates: try TemplateSet(overrides: nil), followed: ["lcl:ICE"])
        #expect(renderer.text(event(.gameStart, team: nil)).title == "🥌 First stone: ICE @ ROK")
        #expect(renderer.isImportant(event(.final)) && !Renderer.builtIn.isImportant(event(.final)))
        let json = EventJSON(lead, text: Renderer.Text(title: "t", body: "b"))
        #expect(json.league == "lcl" && json.teamColors?.secondary == "#D9E4F2")
        // A team with no colours in its facts has none in the JSON.
        #expect(EventJSON(event(.leadChange, team: "ROK"), text: Renderer.Text(title: "t", body: "b")).teamColors == nil)
    }

    /// Its teams' devices declare what its events fire and nothing of hockey's or basketball's.
    @Test func homeAssistantKnowsItsTeamsFromItsDefinition() throws {
        #expect(
            MQTTTrigger.of(league) == [.leadTaken, .leadLost, .gameStart, .periodStart, .periodEnd, .final, .win, .loss, .scheduleChange])
        let discovery = HomeAssistantDiscovery(topics: MQTTTopics(prefix: "faceoff", discoveryPrefix: "homeassistant"), version: "1")
        let messages = discovery.messages(for: "lcl:ICE")
        let sensor = try #require(messages.first { $0.topic.hasSuffix("/state/config") })
        let config = try #require(try JSONSerialization.jsonObject(with: Data(sensor.payload.utf8)) as? [String: Any])
        #expect(config["icon"] as? String == "mdi:curling")
        let device = try #require(config["device"] as? [String: Any])
        #expect(device["name"] as? String == "Lakeshore Icebreakers" && device["model"] as? String == "LCL team")
        let triggers = messages.filter { $0.topic.contains("/device_automation/") }.map { $0.topic.split(separator: "/")[3] }
        #expect(triggers.contains("lead_taken") && !triggers.contains("goal") && !triggers.contains("run"))
        for kind in league.definition.eventKinds {
            let fired = Set(MQTTTrigger.fired(by: event(kind), for: "lcl:ICE") + MQTTTrigger.fired(by: event(kind), for: "lcl:ROK"))
            #expect(fired.isSubset(of: Set(MQTTTrigger.of(league))), "\(kind)")
        }
    }

    /// A team's state: the time left on the clock, no skaters or nets, its colours; the end
    /// of the eighth end with a winner is no break.
    @Test func aTeamsStateFollowsItsLeaguesRules() {
        let state = MQTTTeamState.after(event(.leadChange), team: "lcl:ICE", previous: nil, at: Date())
        #expect(state.clock == "4:10" && state.strength == nil && state.emptyNet == nil)
        #expect(state.colors?.primary == "#1B3A6B")
        #expect(MQTTTeamState.after(event(.periodEnd, period: 3), team: "lcl:ICE", previous: nil, at: Date()).state == "intermission")
        #expect(MQTTTeamState.after(event(.periodEnd, period: 8), team: "lcl:ICE", previous: nil, at: Date()).state == "live")
    }
}
