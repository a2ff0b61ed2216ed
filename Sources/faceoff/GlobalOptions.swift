import ArgumentParser
import FaceoffDaemon
import FaceoffHTTP
import FaceoffKit
import FaceoffMQTT
import Foundation
import Logging

extension Faceoff {
    /// Options every subcommand takes.
    struct GlobalOptions: ParsableArguments {
        @Option(
            name: .long,
            help: ArgumentHelp("Config file (default: $XDG_CONFIG_HOME/faceoff/config.toml; env FACEOFF_CONFIG).", valueName: "path"))
        var config: String?

        @Option(
            name: .customLong("api-base"),
            help: ArgumentHelp("NHL API base URL ending in /v1/; file:///dir/v1/ reads a mirror (env FACEOFF_API_BASE).", valueName: "url"))
        var apiBase: String?

        @Option(
            name: .customLong("espn-base"),
            help: ArgumentHelp(
                "ESPN site API base URL (the NBA); file:///dir/ reads a mirror whose files are the URL paths (env FACEOFF_ESPN_BASE).",
                valueName: "url"))
        var espnBase: String?

        @Flag(name: .long, help: "Answer from the local cache only, and say how old the data is.")
        var offline = false

        @Flag(name: .long, help: "Print JSON instead of text, for scripts.")
        var json = false

        @Flag(name: .customLong("no-color"), help: "No colours (also when NO_COLOR is set or stdout is not a terminal).")
        var noColor = false

        @Flag(name: [.short, .long], help: "Log more (debug) to stderr; LOG_LEVEL=trace|debug|info|warning|error sets it too.")
        var verbose = false

        /// For a command that prints no JSON: `--json` is refused (a usage error), not ignored.
        func refuseJSON(_ command: String, instead: String? = nil) throws {
            guard json else { return }
            throw ValidationError("`faceoff \(command)` has no JSON output" + (instead.map { "; use \($0)" } ?? ""))
        }

        /// Reads the config and sets up logging; config errors become exit status 2.
        func session(defaultsOnly: Bool = false) throws -> Session {
            bootstrapLogging()
            var options = Session.Options(configPath: config, apiBase: apiBase, offline: offline, noColor: noColor)
            options.espnBase = espnBase
            options.defaultsOnly = defaultsOnly
            return try Session(options)
        }

        /// - Parameter standard: the level without `-v` or `LOG_LEVEL` (`run` logs what it does).
        func bootstrapLogging(standard: Logger.Level = .warning) {
            Self.bootstrapLogging(verbose: verbose, standard: standard)
        }

        static func bootstrapLogging(verbose: Bool, standard: Logger.Level = .warning) {
            let environment = ProcessInfo.processInfo.environment
            let level: Logger.Level =
                verbose ? .debug : environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0.lowercased()) } ?? standard
            LoggingBootstrap.once(level: level, journal: environment["JOURNAL_STREAM"].map { !$0.isEmpty } ?? false)
        }

        static let flags: Set<String> = ["--offline", "--json", "--no-color", "-v", "--verbose"]
        static let valued: Set<String> = ["--config", "--api-base", "--espn-base"]

        /// Moves global options written before or between subcommand names (`faceoff --offline
        /// schedule`, `faceoff config --json show`) to after the last one, where ArgumentParser
        /// looks for them.
        static func relocated(_ arguments: [String]) -> [String] {
            // Most command lines have no global option at all: don't build the name set for them
            // (`faceoff status --tmux` runs every few seconds in a status line).
            /// `--config` of `--config=path`.
            func name(_ argument: String) -> String { argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument }
            guard arguments.contains(where: { flags.contains($0) || valued.contains(name($0)) }) else { return arguments }
            var path: [String] = []
            var moved: [String] = []
            var index = 0
            while index < arguments.count {
                let argument = arguments[index]
                if Faceoff.subcommandNames.contains(argument) {
                    path.append(argument)
                } else if flags.contains(argument) {
                    moved.append(argument)
                } else if valued.contains(name(argument)) {
                    moved.append(argument)
                    if !argument.contains("="), index + 1 < arguments.count {
                        moved.append(arguments[index + 1])
                        index += 1
                    }
                } else {
                    break
                }
                index += 1
            }
            guard !moved.isEmpty, !path.isEmpty else { return arguments }
            return path + moved + arguments[index...]
        }
    }
}

extension Faceoff {
    /// The names `faceoff NAME` takes.
    static let topLevelNames: [String] = {
        var names: [String] = []
        for sub in Faceoff.configuration.subcommands { names.append(sub._commandName) }
        return names
    }()

    /// Every subcommand name at any depth, read from the command tree.
    static let subcommandNames: Set<String> = {
        var names: Set<String> = []
        func walk(_ command: any ParsableCommand.Type) {
            for sub in command.configuration.subcommands {
                names.insert(sub._commandName)
                walk(sub)
            }
        }
        walk(Faceoff.self)
        return names
    }()
}
