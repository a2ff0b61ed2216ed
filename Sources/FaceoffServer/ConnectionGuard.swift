import FaceoffKit
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Keeps the feed server answering when clients hold connections without using them: idle
/// keep-alive connections, clients that send their headers a byte at a time, clients that
/// never read the answer.
///
/// Every connection is either waiting (for a request's headers: a new or kept-alive
/// connection) or busy (a request read, its answer not yet written). Each phase has a time
/// limit, after which the connection is closed. At most `maxConnections` are served: a new
/// one past that closes the oldest connection that has been waiting longer than `slowAfter`
/// (a slow or idle client), so those never keep a real request out. When every open
/// connection is newer or busy, the new one is turned away: its request, if it comes within
/// `turnedAwayWait`, is answered 503 with Retry-After rather than reset. Past `turnAwayRoom` such
/// connections (a flood of new ones) the oldest waiting one is closed, so descriptors stay
/// bounded and the newest get in.
/// The numbers are `FeedServer.Settings`'s, in one place.
final class ConnectionGuard: Sendable {
    struct Limits: Sendable {
        /// A new or kept-alive connection must send a request's headers within this.
        var waiting: TimeAmount
        /// A request read must be answered (written out) within this.
        var busy: TimeAmount
        var maxConnections: Int
        /// A connection waiting longer than this for its request's headers is a slow client
        /// (a real one has sent its request and been read well within it).
        var slowAfter: TimeAmount = .milliseconds(250)
        /// How long a turned-away connection has to send the request it is answered 503 to.
        var turnedAwayWait: TimeAmount = .seconds(1)
        /// How many connections past `maxConnections` may wait to be turned away.
        var turnAwayRoom = 32
    }

    /// What happens to a connection just opened.
    enum Admission { case admitted, turnedAway, closed }

    enum Phase { case waiting, busy }

    private struct Entry {
        let channel: any Channel
        /// Opening order: the lowest is the oldest.
        let number: UInt64
        var phase: Phase
        /// When the current phase began.
        var since: NIODeadline
    }

    let limits: Limits
    private let state = Mutex<(next: UInt64, open: [ObjectIdentifier: Entry])>((0, [:]))

    init(limits: Limits) { self.limits = limits }

    var openCount: Int { state.withLock { $0.open.count } }

    /// A new connection: past the cap, the oldest slow waiting connection is closed; with
    /// none, this one is turned away (answered 503).
    func opened(_ channel: any Channel) -> Admission {
        let now = NIODeadline.now()
        let (victim, admission): ((any Channel)?, Admission) = state.withLock { state in
            state.next += 1
            state.open[ObjectIdentifier(channel)] = Entry(channel: channel, number: state.next, phase: .waiting, since: now)
            guard state.open.count > limits.maxConnections else { return (nil, .admitted) }
            let slow = state.open.values.filter { $0.phase == .waiting && now - $0.since >= limits.slowAfter }.min { $0.number < $1.number }
            if let slow {
                state.open[ObjectIdentifier(slow.channel)] = nil
                return (slow.channel, .admitted)
            }
            if state.open.count <= limits.maxConnections + limits.turnAwayRoom { return (nil, .turnedAway) }
            // A flood of new connections: the oldest one waiting goes (this one, with none).
            let oldest = state.open.values.filter { $0.phase == .waiting }.min { $0.number < $1.number }
            let chosen = oldest?.channel ?? channel
            state.open[ObjectIdentifier(chosen)] = nil
            return (chosen, chosen === channel ? .closed : .admitted)
        }
        victim?.close(promise: nil)
        return admission
    }

    func closed(_ channel: any Channel) {
        _ = state.withLock { $0.open.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    func set(_ channel: any Channel, _ phase: Phase) {
        let now = NIODeadline.now()
        state.withLock { state in
            guard state.open[ObjectIdentifier(channel)]?.phase != phase else { return }
            state.open[ObjectIdentifier(channel)]?.phase = phase
            state.open[ObjectIdentifier(channel)]?.since = now
        }
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
    /// Over the cap with no slow client to close: its request is answered 503.
    private var turnedAway = false

    init(guard connections: ConnectionGuard) { self.connections = connections }

    func handlerAdded(context: ChannelHandlerContext) {
        channel = context.channel
        switch connections.opened(context.channel) {
        case .admitted: enter(.waiting, context: context)
        case .closed: channel = nil
        case .turnedAway:
            turnedAway = true
            deadline = context.eventLoop.scheduleTask(in: connections.limits.turnedAwayWait) { [channel = context.channel] in
                channel.close(promise: nil)
            }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) { forget() }

    func channelInactive(context: ChannelHandlerContext) {
        forget()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if turnedAway {
            // Busy: said in HTTP, so the client tries again rather than seeing a reset.
            guard case .end = unwrapInboundIn(data) else { return }
            let busy = HTTPResponse(
                status: .serviceUnavailable, headerFields: [.retryAfter: "2", .contentLength: "0", .connection: "close"])
            context.write(wrapOutboundOut(.head(busy)), promise: nil)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
            return
        }
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
