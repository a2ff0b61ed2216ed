import FaceoffBase
import FaceoffHTTP
import FaceoffKit
import Foundation

/// `faceoff doctor`'s checks, in the order it prints them: the config and templates, time zone
/// data, the store, the calendar directory, the APIs, desktop notifications, each sink, the
/// systemd unit. Each check says what it found and, when something is wrong, how to fix it.
public struct Doctor: Sendable {
    public enum Mark: String, Sendable {
        case ok = "✓"
        case warn = "!"
        case fail = "✗"
    }

    /// One line of the report.
    public struct Finding: Sendable, Equatable, CustomStringConvertible {
        public let mark: Mark
        public let what: String
        public let detail: String

        public init(_ mark: Mark, _ what: String, _ detail: String) {
            self.mark = mark
            self.what = what
            self.detail = detail
        }

        public var description: String { "\(mark.rawValue) \(what): \(detail)" }
    }

    let session: Session
    /// Whether `session` holds the user's config (false: it was broken, and these are the defaults).
    let configLoaded: Bool
    /// `--send`: a sample alert through each webhook, exec and MQTT sink.
    let send: Bool
    /// The one client the APIs' and the webhooks' checks share.
    let http = CurlHTTPClient<ContinuousClock>()

    public init(session: Session, configLoaded: Bool, send: Bool) {
        self.session = session
        self.configLoaded = configLoaded
        self.send = send
    }

    /// Runs every check, handing each finding to `report` as soon as it is known; true when
    /// none failed.
    public func run(report: (Finding) -> Void) async -> Bool {
        var failed = false
        func emit(_ findings: [Finding]) {
            for finding in findings {
                if finding.mark == .fail { failed = true }
                report(finding)
            }
        }
        if configLoaded { emit([config()]) }
        let (renderer, templates) = self.templates()
        emit([templates])
        emit(permissions())
        emit([timeZones()])
        emit(await store())
        emit([calendarDirectory()])
        emit(await apis())
        // The desktop only matters to a notify sink, or to a config without sinks (run's
        // fallback is the desktop).
        if session.config.sinks.isEmpty || session.config.sinks.contains(where: { $0.type == .notify }) {
            emit([await desktopNotifications()])
        }
        if let renderer {
            emit(await webhooks(renderer))
            emit(await execs(renderer))
            emit(await mqtt(renderer))
        }
        emit([await systemdUnit()])
        return !failed
    }

    var sample: GameEvent {
        SampleEvent.make(.goal, team: session.config.nhlTeams.first ?? "TOR", key: "doctor-\(Int(Date().timeIntervalSince1970))")
    }
}
