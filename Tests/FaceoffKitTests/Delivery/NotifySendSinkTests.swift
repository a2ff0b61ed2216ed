import Foundation
import Testing

@testable import FaceoffBase
@testable import FaceoffDelivery
@testable import FaceoffHTTP
@testable import FaceoffKit

/// notify-send against a real D-Bus session bus, with the tests' notification daemon
/// (Tests/tools/notification_daemon.py) recording each Notify call.
@Suite(.timeLimit(.minutes(5)), .serialized) struct NotifySendSinkTests {

    @Test(.enabled(if: NotificationBus.available, "needs dbus, python3-dbus, python3-gi and libnotify-bin (.ci/run installs them)"))
    func notificationsReachTheSessionBusWithUrgencyIconAndOneRunningScore() async throws {
        let session = try DesktopSession()
        defer { session.close() }
        let logos = session.directory.appendingPathComponent("assets")
        try FileManager.default.createDirectory(at: logos, withIntermediateDirectories: true)
        try "<svg xmlns=\"http://www.w3.org/2000/svg\"/>".write(
            to: logos.appendingPathComponent("TOR_light.svg"), atomically: true, encoding: .utf8)
        let cache = session.directory.appendingPathComponent("cache/logos").path
        let sink = NotifySendSink(
            renderer: Renderer.builtIn, environment: ["DBUS_SESSION_BUS_ADDRESS": session.address, "PATH": "/usr/bin:/bin"],
            logos: LogoCache(directory: cache, base: "file://\(logos.path)/", http: CurlHTTPClient()))
        #expect(sink.disabledReason == nil)
        let goal = SampleEvent.make(.goal, team: "TOR")
        let penalty = SampleEvent.make(.penalty, team: "TOR")  // a Canadiens penalty
        let periodEnd = SampleEvent.make(.periodEnd, team: "TOR")
        // The Raptors' lead: TOR in the NBA, whose logo is not the Maple Leafs'.
        var raptors = SampleEvent.make(.leadChange, team: "LAL")
        raptors.away = "TOR"
        raptors.team = "TOR"
        for event in [goal, penalty, periodEnd, raptors] {
            let delivery = await sink.send(event)
            #expect(!delivery.isFailure, "\(delivery)")
        }
        let calls = session.calls
        try #require(calls.count == 4)
        #expect(calls[3]["icon"] as? String == "")
        #expect(calls.allSatisfy { $0["app"] as? String == "Faceoff" })
        let goalText = Renderer.builtIn.text(goal)
        #expect(calls[0]["summary"] as? String == goalText.title)
        #expect(calls[0]["body"] as? String == goalText.body)
        #expect(calls[0]["urgency"] as? Int == 2)  // critical: a followed team's goal
        #expect(calls[0]["icon"] as? String == cache + "/TOR.svg")
        #expect(calls[0]["category"] as? String == "x-faceoff.goal")
        #expect(calls[1]["urgency"] as? Int == 1)
        #expect(calls[1]["icon"] as? String == "")  // no MTL logo to be had: no icon
        // The penalty started the game's running notification; the period's end replaced it.
        #expect(calls[1]["replaces"] as? Int == 0)
        #expect(calls[2]["replaces"] as? Int == calls[1]["id"] as? Int)
        #expect(FileManager.default.fileExists(atPath: cache + "/TOR.svg"))
    }

    /// A logo is the league's wherever it serves one: an NHL club no longer in the facts
    /// table (ARI, in replays of older games) has its icon as a current club does; an NBA
    /// team (ESPN's logos are PNGs) and a name that is no abbreviation have none.
    @Test func logosAreTheLeaguesForAnyOfItsAbbreviations() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let assets = directory.appendingPathComponent("assets")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        for team in ["ARI", "LAL"] {
            try "<svg xmlns=\"http://www.w3.org/2000/svg\"/>".write(
                to: assets.appendingPathComponent("\(team)_light.svg"), atomically: true, encoding: .utf8)
        }
        let cache = directory.appendingPathComponent("logos").path
        let logos = LogoCache(directory: cache, base: "file://\(assets.path)/", http: CurlHTTPClient())
        #expect(await logos.path(for: TeamKey(league: .nhl, abbrev: "ARI")) == cache + "/ARI.svg")
        #expect(await logos.path(for: TeamKey(league: .nba, abbrev: "LAL")) == nil)
        #expect(await logos.path(for: TeamKey(league: .nhl, abbrev: "T-R")) == nil)
    }

    /// Markup in what the API wrote (a scorer's name) is shown as text by the notification
    /// server, never interpreted: bold, a link, an image from a local file, a bare &.
    @Test(.enabled(if: NotificationBus.available, "needs dbus, python3-dbus, python3-gi and libnotify-bin (.ci/run installs them)"))
    func markupInAPITextReachesTheServerEscaped() async throws {
        let session = try DesktopSession()
        defer { session.close() }
        let sink = NotifySendSink(
            renderer: Renderer.builtIn, environment: ["DBUS_SESSION_BUS_ADDRESS": session.address, "PATH": "/usr/bin:/bin"], logos: nil)
        var goal = SampleEvent.make(.goal, team: "TOR")
        let name = "<b>Big</b> <a href=\"https://example.invalid\">Mo</a> & <img src=\"file:///etc/passwd\">"
        goal.players = [GameEvent.Player(role: "scorer", id: 1, name: name, team: "TOR", seasonTotal: 3)]
        #expect(!(await sink.send(goal)).isFailure)
        let body = try #require(session.calls.first?["body"] as? String)
        #expect(
            body.contains(
                "&lt;b&gt;Big&lt;/b&gt; &lt;a href=\"https://example.invalid\"&gt;Mo&lt;/a&gt; &amp; &lt;img src=\"file:///etc/passwd\"&gt;"
            ), "\(body)")
        #expect(!body.contains("<"))
    }

    @Test func noSessionBusMeansOneClearReasonAndNoAttempt() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sink = NotifySendSink(
            renderer: Renderer.builtIn, environment: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": directory.path], logos: nil)
        #expect(sink.disabledReason?.contains("no D-Bus session bus") == true)
        if case .skipped = await sink.send(SampleEvent.make(.goal, team: "TOR")) {} else { Issue.record("expected a skip") }
        let missing = NotifySendSink(
            renderer: Renderer.builtIn, environment: ["PATH": directory.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"], logos: nil)
        #expect(missing.disabledReason?.contains("libnotify-bin") == true)
    }

    @Test func aHungNotifySendIsKilled() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fake = directory.appendingPathComponent("notify-send")
        // Written close-on-exec (AtomicFile): a program another test starts at that moment must
        // not inherit the file open for writing, or running it fails with "Text file busy".
        try AtomicFile.write("#!/bin/sh\nsleep 30\n", to: fake.path, permissions: 0o755)
        let sink = NotifySendSink(
            renderer: Renderer.builtIn,
            environment: ["PATH": directory.path + ":/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"],
            logos: nil,
            timeout: .seconds(1))
        let clock = ContinuousClock()
        let started = clock.now
        let delivery = await sink.send(SampleEvent.make(.goal, team: "TOR"))
        #expect(delivery.description.contains("killed"))
        #expect(clock.now - started < .seconds(5))
    }
}
