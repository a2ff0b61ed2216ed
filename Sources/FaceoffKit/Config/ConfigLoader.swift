import FaceoffBase
import Foundation
import TOMLKit

/// Reads config.toml into a `Config`, reporting every problem with its line.
public enum ConfigLoader {
    /// Loads the file at `path`. A missing file means defaults when `mustExist` is false (the
    /// default location); a path the user named must exist.
    public static func load(path: String, mustExist: Bool, paths: Paths = Paths()) throws(ConfigErrors) -> Config {
        let display = displayPath(path, paths: paths)
        guard FileManager.default.fileExists(atPath: path) else {
            if mustExist {
                throw ConfigErrors([
                    ConfigError(file: display, line: nil, message: "no such file; create it with `faceoff config init` or check the path")
                ])
            }
            return Config()
        }
        let text: String
        do {
            text = try FileError.readText(path)
        } catch {
            throw ConfigErrors([ConfigError(file: display, line: nil, message: "cannot read it: \(error.reason)")])
        }
        return try parse(text, file: display)
    }

    /// Why there is no config file at `path`, in words, or nil when there is one: a link
    /// whose target is missing (a dotfiles folder not mounted) or a link loop is named as such.
    public static func absence(_ path: String, paths: Paths = Paths()) -> String? {
        let display = displayPath(path, paths: paths)
        var info = stat()
        if stat(path, &info) == 0 { return nil }
        let failure = errno
        if failure == ELOOP { return "\(display) is a loop of symbolic links" }
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            return "\(display) is a link to \(target), which does not exist (a folder not mounted?)"
        }
        return failure == ENOENT ? "\(display) does not exist" : "\(display) cannot be read: \(FileError.reason(failure))"
    }

    public static func parse(_ text: String, file: String) throws(ConfigErrors) -> Config {
        if let problem = TOMLGuard.check(text) {
            throw ConfigErrors([ConfigError(file: file, line: problem.line, message: "not valid TOML: \(problem.message)")])
        }
        let root: [(String, Node)]
        do {
            root = Node.entries(of: try TOMLTable(string: text))
        } catch let error as TOMLParseError {
            throw ConfigErrors([ConfigError(file: file, line: error.source.begin.line, message: "not valid TOML: \(error.description)")])
        } catch {
            throw ConfigErrors([ConfigError(file: file, line: nil, message: "not valid TOML: \(error)")])
        }
        var validator = ConfigValidator(file: file, index: KeyLineIndex(text: text))
        let config = validator.config(from: root)
        if !validator.errors.isEmpty {
            throw ConfigErrors(validator.errors.sorted { ($0.line ?? 0) < ($1.line ?? 0) })
        }
        return config
    }

    /// `~/...` for paths in the home directory, as a user would write them.
    public static func displayPath(_ path: String, paths: Paths = Paths()) -> String {
        let home = paths.home.hasSuffix("/") ? paths.home : paths.home + "/"
        return path.hasPrefix(home) ? "~/" + path.dropFirst(home.count) : path
    }
}

/// A TOML value copied out of TOMLKit's classes into plain Swift values.
indirect enum Node {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case array([Node])
    case table([(String, Node)])
    case other(String)

    init(_ value: TOMLValueConvertible) {
        switch value.type {
        case .string: self = .string(value.string ?? "")
        case .int: self = .int(value.int ?? 0)
        case .double: self = .double(value.double ?? 0)
        case .bool: self = .bool(value.bool ?? false)
        case .array: self = .array((value.array.map { Array($0) } ?? []).map(Node.init))
        case .table: self = .table(value.table.map(Node.entries) ?? [])
        default: self = .other("\(value.type)")
        }
    }

    static func entries(of table: TOMLTable) -> [(String, Node)] {
        table.keys.compactMap { key in table[key].map { (key, Node($0)) } }
    }

    var typeName: String {
        switch self {
        case .string: "a string"
        case .int: "an integer"
        case .double: "a number"
        case .bool: "true or false"
        case .array: "a list"
        case .table: "a table"
        case .other(let name): "a \(name)"
        }
    }
}

extension ConfigLoader {
    /// A warning when the config holds a credential (a webhook secret, URL or header, an MQTT
    /// password) and other users can read the file.
    public static func permissionWarning(path: String, config: Config) -> String? {
        // A login in an MQTT url (mqtt://user:pass@host) and the feed server's token are secrets too.
        let secrets = config.sinks.contains { sink in
            switch sink.options {
            case .webhook: true
            case .mqtt(let mqtt): mqtt.password != nil || !(mqtt.broker.password ?? "").isEmpty
            case .stdout, .notify, .exec: false
            }
        }
        guard secrets || !config.serve.token.isEmpty else { return nil }
        guard let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int, mode & 0o077 != 0 else {
            return nil
        }
        return
            "\(displayPath(path)) holds secrets (sink credentials, the [serve] token) and other users can read it (mode \(String(mode & 0o777, radix: 8))); run: chmod 600 \(displayPath(path))"
    }
}
