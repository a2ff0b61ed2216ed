import ArgumentParser
import FaceoffBase
import FaceoffDaemon
import FaceoffESPN
import FaceoffFan
import FaceoffKit
import FaceoffMQTT
import FaceoffNHL
import FaceoffStore
import Foundation

extension Faceoff.GlobalOptions {
    /// What every fan command sets up, from the global options.
    func fanContext() throws -> FanContext {
        let session = try session()
        return FanContext(session: session, store: try openCacheStore(session), json: json, width: terminalWidth())
    }
}

extension FanContext {
    /// Prints a report: its notes on stderr, then the report as JSON or as `render` says.
    func emit<Report: Encodable & Sendable>(_ output: FanService.Output<Report>, render: (Report) -> String) {
        for note in output.notes { printError("note: \(note)") }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: (try? encoder.encode(output.report)) ?? Data("{}".utf8), as: UTF8.self))
        } else {
            print(render(output.report))
        }
    }
}

/// A calendar day argument, YYYY-MM-DD, that exists.
func checkDay(_ value: String?, _ name: String) throws {
    guard let value, CalendarDay(iso: value) == nil else { return }
    throw ValidationError("\(name) must be a real date like 2025-10-25, not '\(value)'")
}

/// The store for the response cache. Without it a command still works online (slower), so a
/// broken store is a warning, except offline, where the cache is all there is.
func openCacheStore(_ session: Session) throws -> Store? {
    do {
        return try session.openStore()
    } catch {
        if session.mode == .offline { throw error }
        let said = "\(error)"
        printError("warning: \(said)\(said.hasSuffix(".") ? " Continuing" : "; continuing") without the cache.")
        return nil
    }
}
