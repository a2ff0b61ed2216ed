import ArgumentParser
import FaceoffDaemon
import FaceoffKit
import FaceoffMQTT
import FaceoffServer
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

extension Faceoff {
    struct ServeCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve the feeds over HTTP for calendar apps that subscribe by URL.",
            discussion: """
                Serves /calendars/TEAM.ics for each followed team, /calendars/favourites.ics,
                /calendars/all.ics and an index page at / with webcal:// links. Feeds are
                regenerated from the cache when they are older than a few minutes. The first
                line printed is the base URL; stderr says the link to open (on a wildcard
                address, this machine's address on the network, with the token) and whether
                another device can open it, and --qr draws it as a QR code. Binds to
                127.0.0.1:8765 unless told otherwise; port 0 picks a free port. SIGHUP reloads
                the config (a changed [serve] token, teams or listen address replaces the
                server); SIGTERM lets requests finish.

                Examples:
                  faceoff serve
                  faceoff serve --listen 0.0.0.0:8765     # reachable from other machines
                """)

        @OptionGroup var flags: CalendarFlags

        @Option(help: ArgumentHelp("host:port to listen on (default: [serve] listen).", valueName: "address"))
        var listen: String?

        @Flag(help: "Also draw the link as a QR code in the terminal, for a phone's camera.")
        var qr = false

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            try global.refuseJSON("serve")
            if let listen, ListenAddress(listen) == nil {
                throw ValidationError("--listen must be host:port, like 127.0.0.1:8765 or [::1]:0")
            }
        }

        func run() async throws {
            global.bootstrapLogging(standard: .notice)
            let session = try global.session()
            let logger = Logger(label: "faceoff.serve")
            let store = try session.openStore()
            let (flags, listen, qr) = (flags, listen, qr)
            let global = global
            let reloads = SessionReloads(first: session, logger: logger) { try global.session() }
            let feeds = try FeedService(first: session, sessions: reloads.sessions, logger: logger) { session in
                try FeedService.server(
                    session: session, store: store, options: try flags.options(session.config.calendar),
                    listen: listen ?? session.config.serve.listen)
            } onReady: { served in
                // Scripts and tests read the first line, the base URL: flush it at once.
                FileHandle.standardOutput.write(Data("\(served.base)\n".utf8))
                // What a person opens (with the token), and whether a phone can.
                let reach =
                    served.thisMachineOnly
                    ? "on this machine only: a phone cannot open it (--listen 0.0.0.0:PORT serves your network)"
                    : "from this network"
                var said = "calendars at \(served.link) (\(reach))\n"
                if qr { said += (QRCode.text(served.link).map { $0 + "\n" } ?? "(the link is too long for a QR code)\n") }
                FileHandle.standardError.write(Data(said.utf8))
            }
            // Trapped before anything is served, so a SIGHUP never kills the process.
            let hangups = HangupService(signals: await UnixSignalsSequence(trapping: .sighup)) { reloads.reload() }
            var configuration = ServiceGroupConfiguration(
                services: [.init(service: feeds), .init(service: hangups)], gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger)
            configuration.maximumGracefulShutdownDuration = .seconds(4)
            configuration.maximumCancellationDuration = .seconds(1)
            try await ServiceGroup(configuration: configuration).run()
        }
    }
}
