import Crypto
import Foundation

/// Standard Webhooks signing (standardwebhooks.com): the receiver checks
/// `v1,base64(HMAC-SHA256(key, "{id}.{timestamp}.{body}"))` with the key behind `whsec_`.
public struct WebhookSigner: Sendable {
    private let key: SymmetricKey

    /// nil unless `secret` is `whsec_` and base64 (the config loader has said so already).
    public init?(secret: String) {
        guard secret.hasPrefix("whsec_"), let bytes = Data(base64Encoded: String(secret.dropFirst("whsec_".count))), !bytes.isEmpty else {
            return nil
        }
        key = SymmetricKey(data: bytes)
    }

    public func signature(id: String, timestamp: Int, body: [UInt8]) -> String {
        var message = Data("\(id).\(timestamp).".utf8)
        message.append(contentsOf: body)
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: key)
        return "v1," + Data(mac).base64EncodedString()
    }

    /// Whether one of the space-separated signatures in a `webhook-signature` header is ours
    /// (what a receiver does; the tests' receiver uses it).
    public func verify(id: String, timestamp: Int, body: [UInt8], header: String) -> Bool {
        let expected = signature(id: id, timestamp: timestamp, body: body)
        return header.split(separator: " ").contains { candidate in
            // Constant time, as receivers should.
            let a = Array(candidate.utf8), b = Array(expected.utf8)
            guard a.count == b.count else { return false }
            return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
        }
    }
}
