import ArgumentParser
import FaceoffKit
import FaceoffServer
import Foundation

extension Faceoff {
    struct ServeCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve the feeds over HTTP for calendar apps that subscribe by URL.",
            discussion: """
                Serves /calendars/TEAM.ics for each followed team, /calendars/favourites.ics,
                /calendars/all.ics and an index page at / with webcal:// links. Feeds are
                regenerated from the cache when they are older than a few minutes. The first
                line printed is the base URL. Binds to 127.0.0.1:8765 unless told otherwise;
                port 0 picks a free port.

                Examples:
                  faceoff serve
                  faceoff serve --listen 0.0.0.0:8765     # reachable from other machines
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var flags: CalendarFlags

        @Option(help: ArgumentHelp("host:port to listen on (default: [serve] listen).", valueName: "address"))
        var listen: String?

        func validate() throws {
            try global.refuseJSON("serve")
            if let listen, ListenAddress(listen) == nil {
                throw ValidationError("--listen must be host:port, like 127.0.0.1:8765 or [::1]:0")
            }
        }

        func run() async throws {
            let session = try global.session()
            guard let address = ListenAddress(listen ?? session.config.serve.listen) else {
                throw UsageError(message: "[serve] listen must be host:port")
            }
            let store = try session.openStore()
            let service = CalendarService(
                client: session.nhlClient(store: store), state: CalendarState(store: store), templates: try session.templates(),
                options: try flags.options(session.config.calendar))
            let publisher = CalendarPublisher(
                service: service, directory: session.calendarDirectory, allowEmpty: session.config.calendar.allowEmpty)
            let feeds = FeedPlan(teams: session.config.teams).served
            let server = FeedServer(
                publisher: publisher, feeds: feeds,
                settings: FeedServer.Settings(
                    host: address.host, port: address.port, token: session.config.serve.token,
                    publicURL: session.config.serve.publicURL))
            try await server.run { base in
                // Scripts and tests read the first line: flush it at once.
                FileHandle.standardOutput.write(Data("\(base)\n".utf8))
            }
        }
    }
}
