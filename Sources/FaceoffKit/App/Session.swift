import FaceoffAPI
import FaceoffBase
import FaceoffESPN
import FaceoffHTTP
import FaceoffNHL
import FaceoffStore
import Foundation
import Logging

/// What every command starts from: the config (with command-line and environment overrides
/// applied), where files live, and how to reach the API.
public struct Session: Sendable {
    public struct Options: Sendable {
        public var configPath: String?
        public var apiBase: String?
        /// `--espn-base`.
        public var espnBase: String?
        public var offline = false
        /// `--no-color`.
        public var noColor = false
        public var environment: [String: String]
        /// The config file is not read: defaults, with the overrides (`doctor` checking what it
        /// can when the config is broken).
        public var defaultsOnly = false

        public init(
            configPath: String? = nil, apiBase: String? = nil, offline: Bool = false, noColor: Bool = false,
            environment: [String: String] = ProcessInfo.processInfo.environment
        ) {
            self.configPath = configPath
            self.apiBase = apiBase
            self.offline = offline
            self.noColor = noColor
            self.environment = environment
        }
    }

    public let paths: Paths
    /// The process environment (or a test's).
    public let environment: [String: String]
    public let configPath: String
    /// True when the user named the file (flag or FACEOFF_CONFIG): then it must exist.
    public let configNamed: Bool
    public let config: Config
    public let mode: FetchMode
    /// `--no-color` was given.
    public let noColor: Bool
    /// The current time; `FACEOFF_NOW` (ISO 8601) pins it, for tests and demos.
    public let now: Date
    private let pinnedNow: Bool

    public init(_ options: Options) throws(ConfigErrors) {
        paths = Paths(environment: options.environment)
        environment = options.environment
        (configPath, configNamed) = Self.configPath(flag: options.configPath, environment: options.environment, paths: paths)
        var config = options.defaultsOnly ? Config() : try ConfigLoader.load(path: configPath, mustExist: configNamed, paths: paths)
        if let base = try Self.base(options.apiBase, flag: "--api-base", variable: "FACEOFF_API_BASE", options, APIBase.normalize) {
            config.apiBase = base
        }
        if let base = try Self.base(options.espnBase, flag: "--espn-base", variable: "FACEOFF_ESPN_BASE", options, APIBase.normalizeESPN) {
            config.espnBase = base
        }
        self.config = config
        mode = options.offline ? .offline : .normal
        noColor = options.noColor
        if let pinned = options.environment["FACEOFF_NOW"], !pinned.isEmpty {
            guard let date = try? Date(pinned, strategy: .iso8601) else {
                throw ConfigErrors([
                    ConfigError(file: "FACEOFF_NOW", line: nil, message: "'\(pinned)' is not an ISO 8601 time like 2025-10-25T18:00:00Z")
                ])
            }
            now = date
            pinnedNow = true
        } else {
            now = Date()
            pinnedNow = false
        }
    }

    /// The config file: `--config`, else a non-empty FACEOFF_CONFIG, else the XDG default; and
    /// whether the user named it.
    public static func configPath(flag: String?, environment: [String: String], paths: Paths) -> (path: String, named: Bool) {
        let named = flag ?? environment["FACEOFF_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        // Absolute once, here: a relative `[calendar] dir` and a symlinked config are read
        // from the file's folder, which `config.toml` alone would not have.
        let path = named.map(paths.expand).map { $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0 }
        return (path ?? paths.configFile, named != nil)
    }

    /// The templates in effect: built in, or the user's copies in the template directory.
    public func templates() throws(TemplateError) -> TemplateSet {
        try TemplateSet(overrides: paths.templatesDirectory)
    }

    /// Where feeds are written: `[calendar] dir`, else `$XDG_DATA_HOME/faceoff/calendars`. A
    /// relative dir is read from the config file's folder, never from wherever a command
    /// happens to be run.
    public var calendarDirectory: String {
        guard let dir = config.calendar.dir.map(paths.expand) else { return paths.calendarDirectory }
        if dir.hasPrefix("/") { return dir }
        let folder = (AtomicFile.destination(of: configPath) as NSString).deletingLastPathComponent
        return folder + "/" + dir
    }

    /// How text for stdout is styled: `--no-color`, NO_COLOR, TERM=dumb and a stdout that is
    /// not a terminal all turn colour off. Every command's terminal text asks here.
    public var terminalStyle: TerminalStyle {
        TerminalStyle.detect(noColorFlag: noColor, environment: environment)
    }

    public var displayConfigPath: String { ConfigLoader.displayPath(configPath, paths: paths) }

    /// - Parameter usingReserve: for `mute` and `unmute`, which must work on a full disk.
    public func openStore(usingReserve: Bool = false) throws(StoreError) -> Store {
        try Store(path: paths.storeFile, usingReserve: usingReserve)
    }

    /// The store read-only, for `faceoff status`: nil when none exists yet (see `Store.reader`).
    public func readStore() throws(StoreError) -> Store? {
        try Store.reader(path: paths.storeFile)
    }

    /// The NHL client of the commands a person waits for: `RetryPolicy.interactive` (the
    /// daemon builds its own, with more patience).
    public func nhlClient(store: Store?, http: any HTTPClient = CurlHTTPClient()) -> APIClient {
        client(.nhl, base: config.apiBase, store: store, http: http)
    }

    /// ESPN's client (the NBA), as `nhlClient` for the NHL.
    public func espnClient(store: Store?, http: any HTTPClient = CurlHTTPClient()) -> APIClient {
        client(.espn, base: config.espnBase, store: store, http: http)
    }

    private func client(_ service: APIService, base: String, store: Store?, http: any HTTPClient) -> APIClient {
        let pinned = pinnedNow ? now : nil
        return APIClient(
            service: service, base: base, http: http, cache: store.map(ResponseCache.init), mode: mode, now: { pinned ?? Date() }
        ).retrying(.interactive)
    }

    /// An API base given on the command line (`flag`), else in the environment (`variable`,
    /// when not empty), normalised; nil when neither is given.
    private static func base(
        _ flagValue: String?, flag: String, variable: String, _ options: Options,
        _ normalize: (String) -> Result<String, APIBase.Problem>
    ) throws(ConfigErrors) -> String? {
        let given = flagValue.map { (flag, $0) } ?? options.environment[variable].flatMap { $0.isEmpty ? nil : (variable, $0) }
        guard let (source, value) = given else { return nil }
        switch normalize(value) {
        case .success(let base): return base
        case .failure(let problem): throw ConfigErrors([ConfigError(file: source, line: nil, message: "'\(value)' \(problem.reason)")])
        }
    }
}

extension Session {
    /// The config read again for a reload (SIGHUP): the new session, or the reason the
    /// running one stays (the file is gone, or the config is wrong).
    public func reloaded(load: () throws -> Session) -> Result<Session, ReloadRefused> {
        // A config that was there and is gone (deleted, a link whose target is not mounted)
        // is no reason to drop every team and sink.
        if let absence = ConfigLoader.absence(configPath, paths: paths) { return .failure(ReloadRefused(reason: absence)) }
        do {
            return .success(try load())
        } catch {
            return .failure(ReloadRefused(reason: "\(error)"))
        }
    }
}

/// Why a reload kept the running config.
public struct ReloadRefused: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}
