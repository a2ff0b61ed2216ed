import Foundation

public enum WebhookSecret {
    /// A Standard Webhooks key: `whsec_` and base64 bytes.
    public static func isValid(_ secret: String) -> Bool {
        guard secret.hasPrefix("whsec_") else { return false }
        let key = secret.dropFirst("whsec_".count)
        guard let bytes = Data(base64Encoded: String(key)) else { return false }
        return !bytes.isEmpty
    }
}
