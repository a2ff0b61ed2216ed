import Foundation
import Testing

@testable import FaceoffDaemon
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL

/// What an MQTT sink publishes, without a broker: the team state an event moves on, the
/// triggers it fires from each side, the next game, the discovery entries and the config.
@Suite(.timeLimit(.minutes(5))) struct MQTTMessagesTests {
    static let date = Date(timeIntervalSince1970: 1_764_000_000)

    static func event(
        _ kind: GameEvent.Kind, team: String? = nil, period: Int = 1, away: Int = 0, home: Int = 0, strength: String? = nil,
        details: [String: String] = [:], game: Int = 2025020100
    ) -> GameEvent {
        GameEvent(
            kind: kind, key: "\(kind.rawValue)-\(period)-\(away)-\(home)", gameId: game, away: "BOS", home: "TOR", team: team,
            period: period, periodType: "REG", clock: "10:00", score: .init(away: away, home: home), strength: strength, details: details)
    }

    /// A game as TOR's state walks it, and as BOS's: each side sees its own score, strength
    /// and empty net; each event applied twice is applied once.
    @Test func theStateWalksAGameFromEachSide() {
        let game: [GameEvent] = [
            Self.event(.pregame, period: 0),
            Self.event(.gameStart),
            Self.event(.powerPlayStart, team: "TOR", strength: "5v4"),
            Self.event(.powerPlayChange, team: "TOR", strength: "5v3"),
            Self.event(.goal, team: "TOR", home: 1),
            Self.event(.powerPlayEnd, team: "TOR", home: 1),
            Self.event(.periodEnd, period: 1, home: 1),
            Self.event(.periodStart, period: 2, home: 1),
            Self.event(.periodEnd, period: 2, home: 1),
            Self.event(.periodStart, period: 3, home: 1),
            Self.event(.goaliePulled, team: "BOS", period: 3, home: 1),
            Self.event(.goal, team: "TOR", period: 3, home: 2),
            Self.event(.goalieReturned, team: "BOS", period: 3, home: 2),
            Self.event(.periodEnd, period: 3, home: 2),
            Self.event(.final, period: 3, home: 2),
        ]
        var tor: MQTTTeamState?
        var bos: MQTTTeamState?
        var torWalk: [String] = []
        var shapes: [String] = []
        for event in game {
            tor = MQTTTeamState.after(event, team: "TOR", previous: tor, at: Self.date)
            bos = MQTTTeamState.after(event, team: "BOS", previous: bos, at: Self.date)
            if torWalk.last != tor!.state { torWalk.append(tor!.state) }
            // Applied again (an attempt after one the lost connection cut off, which finds its
            // own state recorded), an event changes nothing but the time.
            for (state, team) in [(tor!, "TOR"), (bos!, "BOS")] {
                var again = MQTTTeamState.after(event, team: team, previous: state, at: Self.date.addingTimeInterval(60))
                #expect(again.updated != state.updated)
                again.updated = state.updated
                #expect(again == state, "\(event.kind) applied twice for \(team)")
            }
            shapes.append(
                "\(tor!.strength!)/\(tor!.manpower ?? "-") \(bos!.strength!)/\(bos!.manpower ?? "-") \(bos!.emptyNet! ? "EN" : "")")
        }
        // The third period ends with a winner: the final follows, no intermission.
        #expect(torWalk == ["pregame", "live", "intermission", "live", "intermission", "live", "final"])
        #expect(shapes[2] == "PP/5v4 PK/4v5 ")
        #expect(shapes[3] == "PP/5v3 PK/3v5 ")
        #expect(shapes[5] == "EV/- EV/- ")
        #expect(shapes[10] == "EV/- EV/- EN")
        #expect(shapes[12] == "EV/- EV/- ")
        #expect(
            tor?.score == "2–0" && tor?.teamScore == 2 && tor?.opponentScore == 0 && tor?.homeOrAway == "home" && tor?.opponent == "BOS")
        #expect(bos?.score == "0–2" && bos?.homeOrAway == "away" && bos?.opponent == "TOR")
        #expect(tor?.lastEvent == game.last?.id && tor?.period == "3rd")
    }

    /// A tied third period goes to an intermission; a new game starts from nothing.
    @Test func aTiedThirdIsAnIntermissionAndANewGameForgetsTheOld() {
        let tied = MQTTTeamState.after(Self.event(.periodEnd, period: 3, away: 2, home: 2), team: "TOR", previous: nil, at: Self.date)
        #expect(tied.state == "intermission")
        let pulled = MQTTTeamState.after(Self.event(.goaliePulled, team: "TOR", period: 3), team: "TOR", previous: nil, at: Self.date)
        #expect(pulled.emptyNet == true)
        let next = MQTTTeamState.after(Self.event(.pregame, period: 0, game: 2025020200), team: "TOR", previous: pulled, at: Self.date)
        #expect(next.emptyNet == false && next.gameId == 2025020200 && next.state == "pregame")
        // A highlight after the final leaves the final alone.
        let final = MQTTTeamState.after(Self.event(.final, period: 3, home: 1), team: "TOR", previous: nil, at: Self.date)
        #expect(
            MQTTTeamState.after(Self.event(.goalHighlight, team: "TOR", period: 3, home: 1), team: "TOR", previous: final, at: Self.date)
                .state == "final")
    }

    /// A schedule change about a game to come leaves the team's state as it was, even mid-game;
    /// with nothing before, the team is idle.
    @Test func aScheduleChangeLeavesTheStateAlone() {
        let now = Date(timeIntervalSince1970: 1_764_000_000)
        let live = MQTTTeamState.after(Self.event(.goal, team: "TOR", home: 1), team: "TOR", previous: nil, at: now)
        let change = Self.event(.scheduleChange, team: "TOR", details: ["change": "moved"], game: 2025020200)
        #expect(MQTTTeamState.after(change, team: "TOR", previous: live, at: now.addingTimeInterval(60)) == live)
        #expect(MQTTTeamState.after(change, team: "TOR", previous: nil, at: now).state == "idle")
    }

    @Test func triggersFromEachSide() {
        func fired(_ event: GameEvent) -> [String] {
            ["TOR", "BOS"].map { team in MQTTTrigger.fired(by: event, for: team).map(\.rawValue).joined(separator: "+") }
        }
        #expect(fired(Self.event(.goal, team: "TOR", home: 1)) == ["goal", "goal_against"])
        #expect(fired(Self.event(.powerPlayStart, team: "BOS", strength: "5v4")) == ["penalty_kill", "power_play"])
        #expect(fired(Self.event(.goaliePulled, team: "BOS")) == ["", "empty_net"])
        #expect(fired(Self.event(.goalReinstated, team: "TOR", home: 1)) == ["goal_reinstated", ""])
        #expect(fired(Self.event(.final, period: 3, away: 1, home: 3)) == ["final+win", "final+loss"])
        #expect(fired(Self.event(.periodStart, period: 2)) == ["period_start", "period_start"])
        #expect(fired(Self.event(.penalty, team: "TOR")) == ["", ""])
        #expect(fired(Self.event(.scheduleChange, team: "TOR")) == ["schedule_change", "schedule_change"])
        // Every trigger type is fired by some kind.
        var all: Set<MQTTTrigger> = []
        for kind in GameEvent.Kind.allCases {
            for team in ["TOR", "BOS"] {
                all.formUnion(MQTTTrigger.fired(by: Self.event(kind, team: "TOR", period: 3, away: 1, home: 2), for: team))
            }
        }
        #expect(all == Set(MQTTTrigger.allCases))
    }

    /// Each league's device triggers, in the order discovery declares them: its own (those
    /// its event kinds fire), then what every league's games share.
    @Test func eachLeaguesTriggersAreItsOwnThenTheShared() {
        let shared: [MQTTTrigger] = [.gameStart, .periodStart, .periodEnd, .final, .win, .loss, .scheduleChange]
        #expect(
            MQTTTrigger.of(.nhl) == [
                .goal, .goalAgainst, .goalReinstated, .goalOverturned, .powerPlay, .penaltyKill, .powerPlayChange, .powerPlayEnd, .emptyNet,
            ] + shared)
        #expect(MQTTTrigger.of(.nba) == [.leadTaken, .leadLost, .run, .runAgainst, .closeGame, .milestone] + shared)
    }

    /// What the daemon sends for a game of any league (its schedule's change, the start and
    /// end the watcher gives every league) fires only triggers each league's device declares:
    /// an NBA team's `schedule_change` was published and once never declared. The events of
    /// each league's own recordings are checked by `LeagueConformanceTests`.
    @Test func eachLeaguesDeviceDeclaresTheTriggersEveryLeagueFires() {
        for league in Leagues.all.map(\.league) {
            let declared = Set(MQTTTrigger.of(league))
            for kind in [GameEvent.Kind.scheduleChange, .gameStart, .periodStart, .periodEnd, .final] {
                var event = Self.event(kind, team: "TOR", period: 3, away: 1, home: 2)
                if league != .nhl { event.league = league }
                for side in [event.away, event.home] {
                    let fired = Set(MQTTTrigger.fired(by: event, for: event.followKey(side)))
                    #expect(!fired.isEmpty && fired.isSubset(of: declared), "\(league) \(kind): \(fired.subtracting(declared))")
                }
            }
        }
    }

    /// An NBA team's device: its own topics and object ids (`nba-BOS`, never the Bruins'
    /// `BOS`), basketball's triggers, and a state moved on only by its own games.
    @Test func anNBATeamHasADeviceOfItsOwn() {
        let topics = MQTTTopics(prefix: "rink", discoveryPrefix: "ha")
        let discovery = HomeAssistantDiscovery(topics: topics, version: "1")
        let messages = discovery.messages(for: "nba:BOS")
        #expect(messages.count == 3 + MQTTTrigger.of(.nba).count)
        #expect(messages.map(\.topic).contains("ha/sensor/faceoff_nba-BOS/state/config"))
        #expect(messages.map(\.topic).contains("ha/device_automation/faceoff_nba-BOS/lead_taken/config"))
        #expect(!messages.map(\.topic).contains { $0.hasSuffix("/power_play/config") })
        #expect(messages.allSatisfy { $0.payload.contains("\"name\":\"Boston Celtics\"") && $0.payload.contains("NBA team") })
        #expect(topics.state("nba:BOS") == "rink/team/nba-BOS/state")
        var lead = SampleEvent.make(.leadChange, team: "LAL")
        lead.team = "BOS"
        #expect(MQTTTrigger.fired(by: lead, for: "nba:BOS") == [.leadTaken])
        #expect(MQTTTrigger.fired(by: lead, for: "nba:LAL") == [.leadLost])
        var final = SampleEvent.make(.final, team: "LAL")
        final.league = .nba
        final.away = "BOS"
        final.home = "LAL"
        final.score = GameEvent.Score(away: 101, home: 99)
        #expect(MQTTTrigger.fired(by: final, for: "nba:BOS") == [.final, .win])
        let state = MQTTTeamState.after(final, team: "nba:BOS", previous: nil, at: Date())
        #expect(state.homeOrAway == "away" && state.score == "101–99" && state.opponent == "LAL" && state.state == "final")
        // Basketball's clock is the time left; it has no manpower.
        let live = MQTTTeamState.after(SampleEvent.make(.leadChange, team: "LAL"), team: "nba:LAL", previous: nil, at: Date())
        #expect(live.clock == "3:12" && live.period == "Q4" && live.strength == nil && live.emptyNet == nil)
    }

    @Test func theNextGameSkipsWhatIsOver() throws {
        let schedule = try JSONDecoder().decode(
            ClubSchedule.self, from: Data(contentsOf: TestPaths.mirror.appendingPathComponent("club-schedule-season/TOR/now")))
        let games = (schedule.games ?? []).compactMap {
            GameSummary($0, team: "TOR", time: LocalTime(timeZone: TimeZone(identifier: "America/Toronto")!))
        }
        let scheduled = games.filter { $0.status == "scheduled" }.sorted { $0.startDate! < $1.startDate! }
        try #require(scheduled.count >= 2)
        let first = scheduled[0]
        let before = first.startDate!.addingTimeInterval(-3600)
        #expect(MQTTNextGame.pick(games, now: before, over: [])?.id == first.id)
        // On now (an hour in), still the one; over, the next.
        #expect(MQTTNextGame.pick(games, now: first.startDate!.addingTimeInterval(3600), over: [])?.id == first.id)
        #expect(MQTTNextGame.pick(games, now: first.startDate!.addingTimeInterval(3600), over: [first.id])?.id == scheduled[1].id)
        let next = MQTTNextGame(team: "TOR", game: first)
        #expect(
            next.start == first.start && next.startLocal == first.startLocal && next.opponent == first.opponent && next.venue == first.venue
        )
        #expect(MQTTNextGame(team: "TOR", game: nil).start == nil)
    }

    @Test func discoveryTopicsAndTheirOwner() {
        let discovery = HomeAssistantDiscovery(topics: MQTTTopics(prefix: "rink", discoveryPrefix: "ha"), version: "1")
        let messages = discovery.messages(for: "MTL")
        #expect(messages.count == 3 + MQTTTrigger.of(.nhl).count)
        #expect(messages.allSatisfy { $0.retain && discovery.owns($0.topic) })
        #expect(messages.map(\.topic).contains("ha/sensor/faceoff_MTL/next_game/config"))
        #expect(messages.map(\.topic).contains("ha/device_automation/faceoff_MTL/goal_against/config"))
        #expect(messages.allSatisfy { $0.payload.contains("\"name\":\"Montréal Canadiens\"") })
        #expect(
            messages.filter { $0.topic.contains("/sensor/") }.allSatisfy { $0.payload.contains("\"availability_topic\":\"rink/status\"") })
        #expect(!discovery.owns("rink/team/MTL/state") && !discovery.owns("ha/sensor/other_MTL/x/config"))
    }

    @Test func theConfigTakesAnMQTTSinkAndRefusesMistakes() throws {
        let config = try ConfigLoader.parse(
            """
            teams = ["TOR"]
            [[sink]]
            type = "mqtt"
            url = "mqtts://broker.lan"
            username = "fan"
            password = "goal-horn"
            ca_file = "/etc/ssl/my-ca.pem"
            client_id = "faceoff-den"
            topic_prefix = "hockey/faceoff"
            discovery = false
            discovery_prefix = "ha"
            events = ["goal"]
            """, file: "config.toml")
        let sink = try #require(config.sinks.first)
        guard case .mqtt(let mqtt) = sink.options else {
            Issue.record("an mqtt sink loaded as \(sink.type)")
            return
        }
        #expect(mqtt.username == "fan" && mqtt.password == "goal-horn" && mqtt.caFile == "/etc/ssl/my-ca.pem")
        #expect(mqtt.clientID == "faceoff-den" && mqtt.topicPrefix == "hockey/faceoff" && !mqtt.discovery && mqtt.discoveryPrefix == "ha")
        let broker = mqtt.broker
        #expect(broker.port == 8883 && broker.tls && broker.host == "broker.lan")
        #expect(broker.username == "fan" && broker.password == "goal-horn" && broker.caFile == "/etc/ssl/my-ca.pem")
        #expect(MQTTBroker(url: "mqtt://u:p%40ss@h")?.password == "p@ss" && MQTTBroker(url: "mqtt://h")?.port == 1883)
        // The password is a secret; the broker's address is not.
        let shown = ConfigRenderer.render(config, paths: Paths(environment: ["HOME": "/home/fan"]))
        #expect(
            shown.contains("password = \"<redacted>\"") && !shown.contains("goal-horn") && shown.contains("url = \"mqtts://broker.lan\""))

        let found = ConfigLoader.errors(
            in:
                """
                [[sink]]
                type = "mqtt"
                url = "https://broker.lan"
                topic_prefix = "faceoff/#"
                command = ["x"]

                [[sink]]
                type = "mqtt"
                """)
        #expect(found.count == 5, "\(found.map(\.message))")
        #expect(found.contains { $0.message.contains("'url' must be mqtt://host[:port] or mqtts://host[:port]") })
        #expect(found.contains { $0.message.contains("without wildcards") })
        #expect(found.contains { $0.message.contains("'command' applies to exec sinks only") })
        #expect(found.contains { $0.message.contains("this mqtt sink has no `url`") })
        #expect(found.contains { $0.message.contains("two sinks are named 'mqtt'") })
    }

    /// An MQTT sink that writes only its url takes the documented defaults for the keys it
    /// leaves out.
    @Test func anMQTTSinkWithOnlyAURLTakesTheDefaults() throws {
        let config = try ConfigLoader.parse("[[sink]]\ntype = \"mqtt\"\nurl = \"mqtt://broker.lan\"\n", file: "config.toml")
        guard case .mqtt(let mqtt) = try #require(config.sinks.first).options else {
            Issue.record("an mqtt sink loaded as another kind")
            return
        }
        #expect(mqtt.topicPrefix == "faceoff" && mqtt.discovery && mqtt.discoveryPrefix == "homeassistant")
        #expect(mqtt.expiry == .seconds(3600) && mqtt.clientID == nil && mqtt.username == nil)
    }

    /// An MQTT sink's options can't be made without a broker's address: there is no default
    /// broker to dial in its place (a config's url is refused at load, with its line).
    @Test func anMQTTSinkNeedsABrokersAddress() {
        #expect(SinkConfig.MQTT(url: "http://example.invalid/hook") == nil)
        #expect(SinkConfig.MQTT(url: "") == nil)
        #expect(SinkConfig.MQTT(url: "mqtt://") == nil)
        let login = SinkConfig.MQTT(url: "mqtt://fan:horn@broker.lan", username: "other")
        #expect(login?.broker.address == "broker.lan:1883" && login?.broker.username == "other" && login?.broker.password == "horn")
        #expect(login?.username == "other" && login?.password == nil, "the keys as written, for config show")
    }
}
