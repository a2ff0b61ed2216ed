import Foundation
import Synchronization
import Testing

@testable import FaceoffDaemon
@testable import FaceoffDelivery
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL
@testable import FaceoffStore

/// Corrections that edit the goal's first message where the receiver allows it: a Discord
/// webhook and an ntfy server on loopback that behave as their documentation says, and
/// notify-send against a notification daemon on a private session bus.
@Suite(.timeLimit(.minutes(5))) struct CorrectionEditTests {
    static let goal = SampleEvent.make(.goal, team: "TOR")
    static let overturned = SampleEvent.make(.goalOverturned, team: "TOR")
    static let changed = SampleEvent.make(.scoringChange, team: "TOR", key: "sample-2")

    @Test func whichGoalACorrectionIsAbout() {
        #expect(GameEvent.correctedGoal(of: "2025020100:goal_overturned:123") == "2025020100:goal:123")
        #expect(GameEvent.correctedGoal(of: "2025020100:goal_reinstated:123") == "2025020100:goal:123")
        #expect(GameEvent.correctedGoal(of: "2025020100:scoring_change:123-2") == "2025020100:goal:123")
        #expect(GameEvent.correctedGoal(of: "2025020100:goal:123") == nil)
        #expect(GameEvent.correctedGoal(of: "2025020100:final") == nil)
        #expect(GameEvent.correctedGoal(of: Self.overturned.id) == Self.goal.id)
        #expect(GameEvent.correctedGoal(of: Self.changed.id) == Self.goal.id)
    }

    /// Discord's execute (`?wait=true` answers with the message) and edit
    /// (`PATCH /webhooks/{id}/{token}/messages/{message_id}`, 404 for a message it does not
    /// have, 400 for the sender's fields, which only execute takes).
    final class FakeDiscord: Sendable {
        /// Each message's JSON, by id.
        let messages = Mutex<[String: Data]>([:])
        let next = Mutex(0)

        func handle(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply {
            guard var object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any] else {
                return .json(#"{"message": "Cannot send an empty message", "code": 50006}"#, status: 400)
            }
            let base = "/api/webhooks/1/t0ken"
            if request.method == "POST", request.path.hasPrefix(base) {
                let id = next.withLock { count -> String in
                    count += 1
                    return "9000\(count)"
                }
                object["id"] = id
                let json = (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)
                messages.withLock { $0[id] = json }
                guard request.path.contains("wait=true") else { return .response(status: 204) }
                return .json(String(decoding: json, as: UTF8.self))
            }
            if request.method == "PATCH", request.path.hasPrefix(base + "/messages/") {
                let id = String(request.path.dropFirst((base + "/messages/").count).prefix { $0 != "?" })
                if object["username"] != nil || object["avatar_url"] != nil {
                    return .json(#"{"message": "Invalid Form Body", "code": 50035}"#, status: 400)
                }
                object["id"] = id
                let json = (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)
                let known = messages.withLock { messages -> Bool in
                    guard messages[id] != nil else { return false }
                    messages[id] = json
                    return true
                }
                return known ? .json(#"{"id": "\#(id)"}"#) : .json(#"{"message": "Unknown Message", "code": 10008}"#, status: 404)
            }
            return .json(#"{"message": "405: Method Not Allowed", "code": 0}"#, status: 405)
        }

        func description(_ id: String) -> String? {
            guard let json = messages.withLock({ $0[id] }), let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any]
            else { return nil }
            return (object["embeds"] as? [[String: Any]])?.first?["description"] as? String
        }
    }

    static func sink(_ setup: WebhookHarness.Setup, preset: SinkConfig.Preset, path: String, edit: SinkConfig.Edit = .on) -> WebhookSink {
        var options = SinkConfig.Webhook(url: setup.server.baseURL + path)
        options.preset = preset
        options.edit = edit
        return WebhookSink(
            name: "hook", options: options, renderer: Renderer.builtIn, http: CurlHTTPClient(), outbox: Outbox(store: setup.store),
            schedule: WebhookHarness.fast)
    }

    @Test func aDiscordGoalTakenBackIsEditedInPlaceEvenAfterARestart() async throws {
        let discord = FakeDiscord()
        let setup = try WebhookHarness.Setup { discord.handle($0) }
        defer { setup.close() }
        let first = Self.sink(setup, preset: .discord, path: "/api/webhooks/1/t0ken")
        #expect(try await first.enqueue(Self.goal, at: Date()) == .queued)
        #expect(await WebhookHarness.deliver(first))
        let goalText = try #require(discord.description("90001"))
        // A new sink on the same store (a restarted run) edits the message the goal became.
        let second = Self.sink(setup, preset: .discord, path: "/api/webhooks/1/t0ken")
        #expect(try await second.enqueue(Self.overturned, at: Date()) == .queued)
        // A correction of a goal never sent here is a new message.
        let elsewhere = SampleEvent.make(.goalOverturned, team: "TOR", key: "never-sent")
        #expect(try await second.enqueue(elsewhere, at: Date()) == .queued)
        #expect(await WebhookHarness.deliver(second))
        let requests = setup.server.requests
        #expect(requests.map(\.method) == ["POST", "PATCH", "POST"], "\(requests.map(\.path))")
        #expect(requests[0].path == "/api/webhooks/1/t0ken?wait=true")
        #expect(requests[1].path == "/api/webhooks/1/t0ken/messages/90001")
        #expect(requests[2].path == "/api/webhooks/1/t0ken")
        let edited = try #require(discord.description("90001"))
        #expect(edited != goalText && edited.hasPrefix("~~") && edited.hasSuffix("~~"), "\(edited)")
        #expect(discord.messages.withLock { $0.count } == 2)
    }

    @Test func editOffSendsANewMessageAndBothDoesBoth() async throws {
        let discord = FakeDiscord()
        let setup = try WebhookHarness.Setup { discord.handle($0) }
        defer { setup.close() }
        let both = Self.sink(setup, preset: .discord, path: "/api/webhooks/1/t0ken", edit: .both)
        for event in [Self.goal, Self.changed] { #expect(try await both.enqueue(event, at: Date()) == .queued) }
        #expect(await WebhookHarness.deliver(both))
        #expect(setup.server.requests.map(\.method) == ["POST", "PATCH", "POST"])

        let setupOff = try WebhookHarness.Setup { discord.handle($0) }
        defer { setupOff.close() }
        let off = Self.sink(setupOff, preset: .discord, path: "/api/webhooks/1/t0ken", edit: .off)
        for event in [Self.goal, Self.changed] { #expect(try await off.enqueue(event, at: Date()) == .queued) }
        #expect(await WebhookHarness.deliver(off))
        #expect(setupOff.server.requests.map(\.path) == ["/api/webhooks/1/t0ken", "/api/webhooks/1/t0ken"])
    }

    /// ntfy's JSON publishing at its root; a message with the `sequence_id` of an earlier one
    /// replaces it (ntfy 2.16).
    @Test func anNtfyScoringChangeUpdatesTheGoalsNotification() async throws {
        let notifications = Mutex<[(sequence: String?, message: String)]>([])
        let setup = try WebhookHarness.Setup { request in
            guard request.method == "POST", request.path == "/",
                let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
                object["topic"] as? String == "leafs",
                let message = (object["title"] as? String).map({ $0 + " | " })
                    .map({ $0 + (object["message"] as? String ?? "") })
            else { return .json(#"{"code": 40001, "error": "invalid request"}"#, status: 400) }
            let sequence = object["sequence_id"] as? String
            #expect(sequence == request.headers["x-sequence-id"])
            notifications.withLock { list in
                if let sequence, let index = list.firstIndex(where: { $0.sequence == sequence }) {
                    list[index].message = message
                } else {
                    list.append((sequence, message))
                }
            }
            return .json(#"{"id": "abc", "event": "message"}"#)
        }
        defer { setup.close() }
        let sink = Self.sink(setup, preset: .ntfy, path: "/leafs")
        #expect(try await sink.enqueue(Self.goal, at: Date()) == .queued)
        #expect(await WebhookHarness.deliver(sink))
        let before = notifications.withLock { $0.first?.message }
        #expect(try await sink.enqueue(Self.changed, at: Date()) == .queued)
        #expect(await WebhookHarness.deliver(sink))
        let after = notifications.withLock { $0 }
        #expect(after.count == 1, "\(after)")
        #expect(after.first?.sequence == "faceoff-2025029999-sample")
        #expect(after.first?.message != before && after.first?.message.hasPrefix(Renderer.builtIn.text(Self.changed).title) == true)
    }

    /// A restarted process replaces the goal's bubble with its correction: the id is in the store.
    @Test(.enabled(if: NotificationBus.available, "needs dbus, python3-dbus, python3-gi and libnotify-bin (.ci/run installs them)"))
    func aDesktopCorrectionReplacesTheGoalsNotification() async throws {
        let session = try DesktopSession()
        defer { session.close() }
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store(path: directory.appendingPathComponent("faceoff.sqlite").path)
        func sink(_ edit: SinkConfig.Edit) -> NotifySendSink {
            NotifySendSink(
                renderer: Renderer.builtIn, environment: ["DBUS_SESSION_BUS_ADDRESS": session.address, "PATH": "/usr/bin:/bin"],
                logos: nil, edit: edit, sent: SentMessages(store: store))
        }
        #expect(!(await sink(.on).send(Self.goal)).isFailure)
        #expect(!(await sink(.on).send(Self.overturned)).isFailure)
        #expect(!(await sink(.off).send(Self.changed)).isFailure)
        let calls = session.calls
        try #require(calls.count == 3)
        let goalID = try #require(calls[0]["id"] as? Int)
        #expect(calls[0]["replaces"] as? Int == 0)
        #expect(calls[1]["replaces"] as? Int == goalID)
        #expect(calls[1]["summary"] as? String == Renderer.builtIn.text(Self.overturned).title)
        #expect(calls[2]["replaces"] as? Int == 0, "edit = false: a new notification")
    }
}
