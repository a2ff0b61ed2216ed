import FaceoffKit
import Foundation
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Keeps the feed server answering when clients hold connections without using them: idle
/// keep-alive connections, clients that send their headers a byte at a time, clients that
/// never read the answer.
///
/// Every connection is either waiting (for a request's headers: a new or kept-alive
/// connection) or busy (a request read, its answer not yet written). Each phase has a time
/// limit, after which the connection is closed. At most `maxConnections` are open: a new one
/// past that closes the oldest waiting connection, so slow clients never keep a real request
/// out. The numbers are `FeedServer.Settings`'s, in one place.
final class ConnectionGuard: Sendable {
    struct Limits: Sendable {
        /// A new or kept-alive connection must send a request's headers within this.
        var waiting: TimeAmount
        /// A request read must be answered (written out) within this.
        var busy: TimeAmount
        var maxConnections: Int
    }

    enum Phase { case waiting, busy }

    private struct Entry {
        let channel: any Channel
        /// Opening order: the lowest is the oldest.
        let number: UInt64
        var phase: Phase
    }

    let limits: Limits
    private let state = Mutex<(next: UInt64, open: [ObjectIdentifier: Entry])>((0, [:]))

    init(limits: Limits) { self.limits = limits }

    var openCount: Int { state.withLock { $0.open.count } }

    /// A new connection: past the cap, the oldest waiting connection (or, with none, this one)
    /// is closed.
    func opened(_ channel: any Channel) {
        let victim: (any Channel)? = state.withLock { state in
            state.next += 1
            state.open[ObjectIdentifier(channel)] = Entry(channel: channel, number: state.next, phase: .waiting)
            guard state.open.count > limits.maxConnections else { return nil }
            let oldest = state.open.values.filter { $0.phase == .waiting }.min { $0.number < $1.number }
            let chosen = oldest?.channel ?? channel
            state.open[ObjectIdentifier(chosen)] = nil
            return chosen
        }
        victim?.close(promise: nil)
    }

    func closed(_ channel: any Channel) {
        _ = state.withLock { $0.open.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    func set(_ channel: any Channel, _ phase: Phase) {
        state.withLock { $0.open[ObjectIdentifier(channel)]?.phase = phase }
    }

    func makeHandler() -> ConnectionGuardHandler { ConnectionGuardHandler(guard: self) }
}

/// One connection's side of `ConnectionGuard`: sees each request's head come in and each
/// answer's end go out, and closes the connection when a phase outlasts its limit.
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let connections: ConnectionGuard
    private var deadline: Scheduled<Void>?
    private var channel: (any Channel)?
    /// Requests read and not yet answered (a client may pipeline several).
    private var unanswered = 0

    init(guard connections: ConnectionGuard) { self.connections = connections }

    func handlerAdded(context: ChannelHandlerContext) {
        channel = context.channel
        connections.opened(context.channel)
        enter(.waiting, context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) { forget() }

    func channelInactive(context: ChannelHandlerContext) {
        forget()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            unanswered += 1
            enter(.busy, context: context)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else { return context.write(data, promise: promise) }
        // The answer is out once its end is written: then, with no other request pipelined
        // behind it, the connection waits again.
        let written = promise ?? context.eventLoop.makePromise()
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let contextBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        written.futureResult.whenSuccess { loopBound.value.answered(context: contextBound.value) }
        context.write(data, promise: written)
    }

    private func answered(context: ChannelHandlerContext) {
        unanswered = max(0, unanswered - 1)
        if unanswered == 0 { enter(.waiting, context: context) }
    }

    private func enter(_ phase: ConnectionGuard.Phase, context: ChannelHandlerContext) {
        deadline?.cancel()
        guard let channel else { return }
        connections.set(channel, phase)
        let limit = phase == .waiting ? connections.limits.waiting : connections.limits.busy
        deadline = context.eventLoop.scheduleTask(in: limit) { channel.close(promise: nil) }
    }

    private func forget() {
        deadline?.cancel()
        deadline = nil
        if let channel { connections.closed(channel) }
        channel = nil
    }
}
