import Foundation

/// Tests/tools/webhook_receiver.py, verifying each delivery's Standard Webhooks signature
/// with `secret`; what it was sent, and how it answered.
struct WebhookReceiver {
    /// The signing key the tests' configs give their webhooks.
    static let secret = "whsec_" + Data("faceoff-cli-test-signing-key-01".utf8).base64EncodedString()

    let process: Background
    let url: String
    let log: URL
    let control: URL

    init(directory: URL, secret: String) async throws {
        log = directory.appendingPathComponent("received.jsonl")
        control = directory.appendingPathComponent("status")
        process = try Background(
            Checkers.venvPython,
            [CLI.root.appendingPathComponent("Tests/tools/webhook_receiver.py").path, log.path, secret, "--control", control.path],
            environment: ["PATH": "/usr/bin:/bin"])
        guard await process.wait(timeout: 30, until: { !$0.isEmpty }) else { throw POSIXError(.ETIMEDOUT) }
        url = process.output[0]
    }

    /// The config's `[[sink]]` for a signed webhook named "home" that posts here.
    var homeSink: String {
        """
        [[sink]]
        type = "webhook"
        name = "home"
        url = "\(url)/hook"
        secret = "\(Self.secret)"
        """
    }

    func answer(_ status: Int) throws { try "\(status)".write(to: control, atomically: true, encoding: .utf8) }

    var entries: [[String: Any]] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The ids the receiver accepted (2xx), in order, redeliveries included.
    var accepted: [String] { entries.filter { ($0["status"] as? Int ?? 500) < 300 }.compactMap { $0["id"] as? String } }

    /// Each id the first time it was accepted: what a receiver that deduplicates on
    /// `webhook-id` (as Standard Webhooks asks) acts on.
    var deduplicated: [String] {
        entries.filter { ($0["status"] as? Int ?? 500) < 300 && $0["duplicate"] as? Bool != true }.compactMap { $0["id"] as? String }
    }
}
