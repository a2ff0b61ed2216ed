import FaceoffKit
import Foundation
import HummingbirdCore
import Logging
import NIOCore

/// `replay --serve`: finished games served as if they were being played now, each league's
/// as its own API would answer (`ReplayAPI`: the NHL's under `/v1/`, ESPN's under its league
/// path), all from one address. Tests, benchmarks and curious users point Faceoff's API
/// bases at it.
public struct ReplayServer: Sendable {
    let apis: [any ReplayAPI]
    let logger: Logger
    /// The time the served games follow (the wall clock, unless a test drives it).
    let now: @Sendable () -> Date

    public init(
        apis: [any ReplayAPI], now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "faceoff.replay")
    ) {
        self.apis = apis
        self.now = now
        self.logger = logger
    }

    /// Runs until cancelled; `onReady` gets each API's base (the NHL's ends in /v1/), in the
    /// order of `apis`, once bound.
    public func run(host: String, port: Int, onReady: @escaping @Sendable ([String]) -> Void) async throws {
        let server = HTTPServer(host: host, port: port, name: "Faceoff replay") { request in respond(request) }
        try await server.run(logger: logger) { address in onReady(apis.map { $0.base(root: "http://\(address)/") }) }
    }

    func respond(_ request: Request) -> Response {
        guard request.method == .get else { return Response(status: .notFound) }
        for api in apis {
            guard let path = HTTPServer.components(request, after: api.prefix) else { continue }
            let query = Dictionary(request.uri.queryParameters.map { (String($0.key), String($0.value)) }) { first, _ in first }
            guard let (data, name) = api.answer(path, query: query, at: now()) else { return Response(status: .notFound) }
            // Benchmarks count requests and bytes from these lines (LOG_LEVEL=debug).
            logger.debug("served", metadata: ["path": "\(name)", "bytes": "\(data.count)"])
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
        return Response(status: .notFound)
    }
}
