import FaceoffHTTP
import FaceoffKit
import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix

/// An HTTP/1.1 server on HummingbirdCore (the HTTP layer of Hummingbird, without its router
/// and application): every request goes to `respond`, which routes on the path itself and
/// answers whole. Each connection is a child task of `run()`; a graceful shutdown of the
/// service group lets requests in flight finish, cancelling `run()` ends them.
public struct HTTPServer: Sendable {
    public var host: String
    public var port: Int
    /// The `Server` header of every answer.
    public var name: String
    /// More channel handlers for each connection, after the HTTP decoding (the feed server's
    /// connection guard).
    let channelHandlers: @Sendable () -> [any RemovableChannelHandler]
    let respond: @Sendable (Request) async throws -> Response

    public init(
        host: String, port: Int, name: String, channelHandlers: @escaping @Sendable () -> [any RemovableChannelHandler] = { [] },
        respond: @escaping @Sendable (Request) async throws -> Response
    ) {
        self.host = host
        self.port = port
        self.name = name
        self.channelHandlers = channelHandlers
        self.respond = respond
    }

    /// Runs until cancelled. `onReady` gets "host:port" as a URL writes it (an IPv6 host in
    /// brackets) once the socket is bound, with the real port when `port` is 0.
    public func run(logger: Logger, onReady: @escaping @Sendable (String) -> Void) async throws {
        let name = name
        let respond = respond
        let channel = HTTP1Channel(
            responder: { request, writer, _ in
                var response: Response
                do {
                    response = try await respond(request)
                } catch {
                    logger.warning("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
                    response = Response(status: .internalServerError)
                }
                response.headers[.date] = HTTPDate.format(Date())
                response.headers[.server] = name
                try await writer.write(response: response.head, body: response.body)
            },
            configuration: .init(additionalChannelHandlers: channelHandlers()))
        let server = Server(
            childChannelSetup: channel,
            configuration: ServerConfiguration(address: .hostname(host, port: port), serverName: name),
            onServerRunning: { [host, port] channel in
                onReady("\(host.contains(":") ? "[\(host)]" : host):\(channel.localAddress?.port ?? port)")
            },
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton, logger: Self.serverLogger(logger))
        try await server.run()
    }

    /// The server's own log: a stop (a reload, SIGTERM) cancels the connections it waits on,
    /// which HummingbirdCore logs at error level ("Waiting on child channel:
    /// CancellationError()"); that is no error, so it is logged at debug. All else as it is.
    static func serverLogger(_ logger: Logger) -> Logger {
        var quieter = Logger(label: logger.label) { _ in StopIsNoError(wrapped: logger.handler) }
        quieter.logLevel = logger.logLevel
        return quieter
    }

    struct StopIsNoError: LogHandler {
        var wrapped: any LogHandler
        var logLevel: Logger.Level {
            get { wrapped.logLevel }
            set { wrapped.logLevel = newValue }
        }
        var metadata: Logger.Metadata {
            get { wrapped.metadata }
            set { wrapped.metadata = newValue }
        }
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { wrapped[metadataKey: key] }
            set { wrapped[metadataKey: key] = newValue }
        }

        func log(event: LogEvent) {
            var event = event
            if event.level >= .error, "\(event.message)".contains("CancellationError") {
                guard wrapped.logLevel <= .debug else { return }
                event.level = .debug
            }
            wrapped.log(event: event)
        }
    }

    /// The path's components after `prefix` ("/v1/score/now" with prefix ["v1"]: ["score",
    /// "now"]); nil when the path does not start with it.
    public static func components(_ request: Request, after prefix: [String] = []) -> [String]? {
        let parts = request.uri.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.starts(with: prefix) else { return nil }
        return Array(parts.dropFirst(prefix.count))
    }
}
