import Foundation

/// Where Faceoff keeps its files, following the XDG Base Directory specification.
public struct Paths: Sendable, Equatable {
    public var configHome: String
    public var stateHome: String
    public var dataHome: String
    public var cacheHome: String

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        func xdg(_ name: String, _ fallback: String) -> String {
            // The spec says relative values are invalid and must be ignored.
            if let value = environment[name], value.hasPrefix("/") { return value }
            return home + "/" + fallback
        }
        configHome = xdg("XDG_CONFIG_HOME", ".config") + "/faceoff"
        stateHome = xdg("XDG_STATE_HOME", ".local/state") + "/faceoff"
        dataHome = xdg("XDG_DATA_HOME", ".local/share") + "/faceoff"
        cacheHome = xdg("XDG_CACHE_HOME", ".cache") + "/faceoff"
        self.home = home
    }

    public var home: String

    public var configFile: String { configHome + "/config.toml" }
    public var storeFile: String { stateHome + "/faceoff.sqlite" }
    public var calendarDirectory: String { dataHome + "/calendars" }
    public var templatesDirectory: String { configHome + "/templates" }

    /// Expands a leading `~/` the way a shell would.
    public func expand(_ path: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst() }
        return path
    }
}
