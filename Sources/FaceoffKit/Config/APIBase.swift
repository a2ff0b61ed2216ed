import Foundation

/// The API base URL: http(s) or file, always ending in `/v1/`.
public enum APIBase {
    public struct Problem: Error, Sendable, Equatable { public let reason: String }

    public static func normalize(_ text: String) -> Result<String, Problem> {
        var base = text.trimmingCharacters(in: .whitespaces)
        guard isURL(base) else {
            return .failure(
                Problem(reason: "must be an https://, http:// or file:// URL ending in /v1/, like \"\(Config.defaultAPIBase)\""))
        }
        if base.hasSuffix("/v1") { base += "/" }
        guard base.hasSuffix("/v1/") else {
            return .failure(Problem(reason: "must end in /v1/, like \"\(Config.defaultAPIBase)\" or \"file:///path/to/mirror/v1/\""))
        }
        return .success(base)
    }

    /// ESPN's base (`espn_base`): http(s) or file, ending in `/`, under which its paths
    /// (`apis/site/v2/…`) are; a `file://` base is a mirror whose file paths are those paths.
    public static func normalizeESPN(_ text: String) -> Result<String, Problem> {
        var base = text.trimmingCharacters(in: .whitespaces)
        guard isURL(base) else {
            return .failure(Problem(reason: "must be an https://, http:// or file:// URL, like \"\(Config.defaultESPNBase)\""))
        }
        if base.contains("/apis/") {
            return .failure(
                Problem(reason: "is the base the API's paths go under, without their apis/…, like \"\(Config.defaultESPNBase)\""))
        }
        if !base.hasSuffix("/") { base += "/" }
        return .success(base)
    }

    /// The schemes an API base may have.
    private static func isURL(_ base: String) -> Bool {
        ["https://", "http://", "file://"].contains { base.hasPrefix($0) }
    }
}
