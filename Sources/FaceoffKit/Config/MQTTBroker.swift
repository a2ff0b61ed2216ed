import Foundation

/// A broker's address and how to log in, from an MQTT sink's config.
public struct MQTTBroker: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var tls: Bool
    /// nil with `tls`: the system's CA store.
    public var caFile: String?
    public var username: String?
    public var password: String?

    /// `mqtt://host[:1883]` or `mqtts://host[:8883]`; nil for anything else.
    public init?(url: String, caFile: String? = nil, username: String? = nil, password: String? = nil) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "mqtt" || scheme == "mqtts", let host = components.host, !host.isEmpty,
            components.path.isEmpty || components.path == "/", components.query == nil
        else { return nil }
        tls = scheme == "mqtts"
        self.host = host
        port = components.port ?? (tls ? 8883 : 1883)
        self.caFile = caFile
        // Credentials in the URL are allowed; the config's keys win.
        self.username = username ?? components.user?.removingPercentEncoding
        self.password = password ?? components.password?.removingPercentEncoding
    }

    package init(host: String, port: Int) {
        self.host = host
        self.port = port
        tls = false
    }

    /// "host:port", for messages.
    public var address: String { "\(host):\(port)" }
}

/// A sink's name as one MQTT topic level and id (its mute switch's): lower case, anything but
/// a-z, 0-9, _ and - made `_`. The config refuses two sinks with one slug.
public enum MQTTSlug {
    public static func of(_ name: String) -> String {
        String(name.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : "_" })
    }
}
