import ArgumentParser
import FaceoffBase
import FaceoffDaemon
import FaceoffDelivery
import FaceoffKit
import FaceoffMQTT
import Foundation

extension GameEvent.Kind: ExpressibleByArgument {}

extension Faceoff {
    struct TestAlertCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "test-alert",
            abstract: "Send a sample alert through each sink, and report what happened.",
            discussion: """
                The sample goes through the real path (templates, notify-send, a signed
                webhook POST) but not through the sinks' filters or delays, and nothing is
                recorded: each run sends a new event id, so receivers that deduplicate show
                every try. With no [[sink]] in the config, the defaults are tried: stdout and
                desktop notifications. Exits 1 when any sink failed.

                Examples:
                  faceoff test-alert
                  faceoff test-alert --sink discord --kind final
                """)

        func validate() throws {
            try global.refuseJSON("test-alert")
        }

        @Option(help: "Only the sink with this name (or type, for an unnamed sink).")
        var sink: String?

        @Option(help: ArgumentHelp("The kind of event to send.", valueName: "kind"))
        var kind: GameEvent.Kind = .goal

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try global.session()
            let renderer = try session.renderer()
            if let warning = ConfigLoader.permissionWarning(path: session.configPath, config: session.config) {
                printError("warning: \(warning)")
            }
            var configs =
                session.config.sinks.isEmpty ? [SinkConfig(.stdout(.init())), SinkConfig(.notify(.init()))] : session.config.sinks
            if let sink {
                let names = configs.map(\.displayName)
                guard let chosen = configs.first(where: { $0.displayName == sink }) else {
                    throw UsageError(
                        message:
                            "no sink named '\(sink)'\(Suggest.phrase(sink, in: names)); the sinks are: \(names.joined(separator: ", "))")
                }
                configs = [chosen]
            }
            let setup = AlertSetup(session: session, renderer: renderer, store: nil)
            var event = SampleEvent.make(
                kind, team: session.config.nhlTeams.first ?? "TOR", key: "test-\(Int(Date().timeIntervalSince1970 * 1000))")
            event.seenAt = Date()
            var failed = false
            for config in configs {
                let sink = setup.sink(config)
                let delivery: Delivery
                if let mqtt = sink as? MQTTSink { delivery = await mqtt.sendTest(event) } else { delivery = await sink.send(event) }
                failed = failed || delivery.isFailure
                let mark = delivery.isFailure ? "✗" : "✓"
                printError("\(mark) \(config.displayName) (\(config.type.rawValue)): \(delivery)")
            }
            if failed { throw ExitCode(1) }
        }
    }
}
