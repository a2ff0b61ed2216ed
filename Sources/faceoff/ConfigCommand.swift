import ArgumentParser
import FaceoffBase
import FaceoffDaemon
import FaceoffDelivery
import FaceoffKit
import FaceoffMQTT
import FaceoffNHL
import Foundation

extension Faceoff {
    struct ConfigCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "config",
            abstract: "Create, locate, show and check the config file.",
            subcommands: [Init.self, Path.self, Show.self, Validate.self]
        )

        struct Init: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "init",
                abstract: "Write a commented config file, following the teams given.",
                discussion: "Example: faceoff config init TOR MTL")

            @OptionGroup var global: GlobalOptions

            func validate() throws {
                try global.refuseJSON("config init")
            }

            @Argument(help: "Teams to follow, as abbreviations (TOR) or names (Leafs).")
            var teams: [String] = []

            @Flag(help: "Replace an existing file.")
            var force = false

            func run() async throws {
                global.bootstrapLogging()
                let paths = Paths()
                let path = Session.configPath(flag: global.config, environment: ProcessInfo.processInfo.environment, paths: paths).path
                let display = ConfigLoader.displayPath(path, paths: paths)
                var abbreviations: [String] = []
                for team in teams { abbreviations.append(try TeamInput.nhl(team)) }
                try ConfigFile.locked(path) {
                    if FileManager.default.fileExists(atPath: path) {
                        guard force else { throw UsageError(message: "\(display) already exists; edit it, or add --force to start over") }
                        // --force over a config: the old one is kept beside it.
                        try AtomicFile.write(try FileError.readText(path), to: path + ".bak", permissions: 0o600)
                        print("Kept the old one as \(display).bak")
                    }
                    try ConfigFile.write(ConfigTemplate.text(teams: abbreviations), to: path)
                }
                print("Wrote \(display)")
            }
        }

        struct Path: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "path", abstract: "Print where the config file is (whether or not it exists).")

            @OptionGroup var global: GlobalOptions

            func validate() throws {
                try global.refuseJSON("config path")
            }

            func run() async throws {
                global.bootstrapLogging()
                print(Session.configPath(flag: global.config, environment: ProcessInfo.processInfo.environment, paths: Paths()).path)
            }
        }

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "show",
                abstract: "Print the settings in effect, defaults included, secrets redacted.")

            @Flag(help: "Show secrets (tokens, webhook URLs and keys) instead of <redacted>.")
            var showSecrets = false

            @OptionGroup var global: GlobalOptions

            func run() async throws {
                let session = try global.session()
                let text = ConfigRenderer.render(session.config, paths: session.paths, redactSecrets: !showSecrets)
                if global.json {
                    print(ConfigRenderer.json(session.config, paths: session.paths, redactSecrets: !showSecrets))
                } else {
                    let origin =
                        FileManager.default.fileExists(atPath: session.configPath)
                        ? session.displayConfigPath : "defaults (no file at \(session.displayConfigPath))"
                    print("# from \(origin)")
                    print(text, terminator: "")
                }
            }
        }

        struct Validate: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "validate",
                abstract: "Check the config file: every problem with its line. Exit 2 if any.")

            @OptionGroup var global: GlobalOptions

            func validate() throws {
                try global.refuseJSON("config validate")
            }

            func run() async throws {
                let session = try global.session()
                let templates = try session.templates()
                // A user's webhook template must still make JSON: rendered here for every kind.
                let problems = Renderer(templates: templates, followed: Set(session.config.teams)).check()
                if !problems.isEmpty {
                    for problem in problems {
                        printError("\(ConfigLoader.displayPath(session.paths.templatesDirectory, paths: session.paths))/\(problem)")
                    }
                    throw ExitCode(2)
                }
                if let warning = ConfigLoader.permissionWarning(path: session.configPath, config: session.config) {
                    printError("warning: \(warning)")
                }
                if !templates.overridden.isEmpty {
                    print(
                        "templates: \(templates.overridden.sorted().joined(separator: ", ")) from \(ConfigLoader.displayPath(session.paths.templatesDirectory, paths: session.paths)): OK"
                    )
                }
                if FileManager.default.fileExists(atPath: session.configPath) {
                    print(
                        "\(session.displayConfigPath): OK (\(counted(session.config.teams.count, "team")), \(counted(session.config.sinks.count, "sink")))"
                    )
                } else {
                    print("\(session.displayConfigPath) does not exist; Faceoff runs on defaults (`faceoff config init` writes one)")
                }
            }
        }
    }
}
