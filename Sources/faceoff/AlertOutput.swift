import ArgumentParser
import FaceoffDaemon
import FaceoffESPN
import FaceoffKit
import FaceoffMQTT
import FaceoffStore
import Foundation

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, jsonl
}

extension OutputFormat {
    /// The format a terminal sink is given.
    var sinkFormat: SinkConfig.Format { self == .jsonl ? .jsonl : .text }
}
