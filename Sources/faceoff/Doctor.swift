import ArgumentParser
import FaceoffDaemon
import FaceoffKit

extension Faceoff {
    struct DoctorCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "doctor",
            abstract: "Check the setup and say how to fix it. Exit 1 if anything is wrong.",
            discussion: """
                Checks the config and templates, the time zone data, the store and the
                calendar directory, the NHL API (and its latency; ESPN's too when an NBA
                team is followed), notify-send and a
                notification daemon, each webhook (reachable; a signed test alert only with
                --send), each exec sink's program, each MQTT broker (connects and logs in; a
                sample on the test topic only with --send) and the systemd user unit.
                """)

        @Flag(help: "Send a test alert through each webhook, exec and MQTT sink.")
        var send = false

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            try global.refuseJSON("doctor")
        }

        func run() async throws {
            let session: Session
            let configLoaded: Bool
            do {
                session = try global.session()
                configLoaded = true
            } catch {
                // Said once; what doesn't depend on the config (the store, the API, time
                // zones, notifications) is still checked, with the defaults.
                print(Doctor.Finding(.fail, "config", "\(error)"))
                guard let defaults = try? global.session(defaultsOnly: true) else { throw ExitCode(1) }
                session = defaults
                configLoaded = false
            }
            let healthy = await Doctor(session: session, configLoaded: configLoaded, send: send).run { print($0) }
            if !healthy || !configLoaded { throw ExitCode(1) }
        }
    }
}
