import FaceoffKit
import Logging

/// Each alert as a log line: what `faceoff run` keeps in the journal, whatever else it does.
public struct LogSink: Sink {
    public let name: String
    let renderer: Renderer
    let logger: Logger

    public init(name: String = "log", renderer: Renderer, logger: Logger = Logger(label: "faceoff.alert")) {
        self.name = name
        self.renderer = renderer
        self.logger = logger
    }

    public func send(_ event: GameEvent) async -> Delivery {
        logger.notice("alert", metadata: ["event": "\(event.id)", "text": "\(renderer.line(event))"])
        return .delivered("")
    }
}
