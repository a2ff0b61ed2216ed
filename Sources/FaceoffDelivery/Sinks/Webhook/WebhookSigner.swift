import CLibcrypto
import FaceoffHTTP
import FaceoffKit
import Foundation

/// Standard Webhooks signing (standardwebhooks.com): the receiver checks
/// `v1,base64(HMAC-SHA256(key, "{id}.{timestamp}.{body}"))` with the key behind `whsec_`.
public struct WebhookSigner: Sendable {
    private let key: [UInt8]

    /// nil unless `secret` is `whsec_` and base64 (the config loader has said so already).
    public init?(secret: String) {
        guard secret.hasPrefix("whsec_"), let bytes = Data(base64Encoded: String(secret.dropFirst("whsec_".count))), !bytes.isEmpty else {
            return nil
        }
        key = Array(bytes)
    }

    /// Throws only when libcrypto can't be loaded (libssl3, which libcurl needs too, is missing).
    public func signature(id: String, timestamp: Int, body: [UInt8]) throws(SigningError) -> String {
        let message = Array("\(id).\(timestamp).".utf8) + body
        var digest = [UInt8](repeating: 0, count: 32)
        var reason = [CChar](repeating: 0, count: 256)
        let status = faceoff_hmac_sha256(key, key.count, message, message.count, &digest, &reason, reason.count)
        guard status == 0 else {
            throw SigningError(reason: String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return "v1," + Data(digest).base64EncodedString()
    }

    /// Whether one of the space-separated signatures in a `webhook-signature` header is ours
    /// (what a receiver does; the tests' receiver uses it).
    public func verify(id: String, timestamp: Int, body: [UInt8], header: String) -> Bool {
        guard let expected = try? signature(id: id, timestamp: timestamp, body: body) else { return false }
        return header.split(separator: " ").contains { candidate in
            // Constant time, as receivers should.
            let a = Array(candidate.utf8)
            let b = Array(expected.utf8)
            guard a.count == b.count else { return false }
            return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
        }
    }
}

public struct SigningError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String {
        "cannot sign the webhook: \(reason); install libssl3 (sudo apt-get install libssl3)"
    }
}
