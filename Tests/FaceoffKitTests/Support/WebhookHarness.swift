import Foundation
import Synchronization
import Testing

@testable import FaceoffBase
@testable import FaceoffDaemon
@testable import FaceoffDelivery
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL
@testable import FaceoffStore

/// A webhook sink against a loopback receiver, with a real store for its outbox: what the
/// webhook, correction, outbox, exec and full-disk tests share.
enum WebhookHarness {
    static let secret = "whsec_" + Data("faceoff-test-signing-key-32-byte".utf8).base64EncodedString()
    static let fast = RetrySchedule(
        early: .milliseconds(50), earlyFor: .milliseconds(120), delays: [.milliseconds(100)], jitter: 0, idleCheck: .milliseconds(100))

    struct Setup {
        let server: LoopbackHTTPServer
        let directory: URL
        let store: Store

        init(_ handler: @escaping @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply) throws {
            server = try LoopbackHTTPServer(handler: handler)
            directory = try TestPaths.temporaryDirectory()
            store = try Store(path: directory.appendingPathComponent("faceoff.sqlite").path)
        }

        func sink(
            path: String = "/hook", expiry: Duration = .seconds(3600), owner: String = ProcessOwner.current,
            schedule: RetrySchedule = WebhookHarness.fast
        ) -> WebhookSink {
            var options = SinkConfig.Webhook(url: server.baseURL + path)
            options.secret = WebhookHarness.secret
            options.headers = ["Authorization": "Bearer t0ken"]
            options.expiry = expiry
            return WebhookSink(
                name: "hook", options: options, renderer: Renderer.builtIn, http: CurlHTTPClient(),
                outbox: Outbox(store: store, owner: owner),
                schedule: schedule)
        }

        func close() {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    static func events(_ count: Int) -> [GameEvent] {
        (0..<count).map { SampleEvent.make(.goal, team: "TOR", key: "\(100 + $0)") }
    }

    /// Runs the sink's outbox worker until nothing is owed (or a deadline passes). The deadline
    /// only catches a worker that stopped: the whole suite on two cores can hold a worker's
    /// tasks back for many seconds, so it is far beyond what a delivery needs.
    static func deliver(_ sink: WebhookSink, within timeout: Duration = .seconds(90)) async -> Bool {
        let worker = Task { await sink.run() }
        let settled = await sink.settle(timeout: timeout)
        worker.cancel()
        await worker.value
        return settled
    }
}

extension Renderer {
    /// The built-in templates, TOR followed.
    static let builtIn = Renderer(templates: try! TemplateSet(overrides: nil), followed: ["TOR"])
}
