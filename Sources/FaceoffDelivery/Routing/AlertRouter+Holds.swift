import FaceoffBase
import FaceoffKit
import Foundation
import Logging
import Synchronization

/// A router's holds: whether a sink holds alerts now, what a held alert becomes, the digest.
extension AlertRouter {
    /// Why `route`'s sink holds alerts now (muted, quiet), if it does. A store that can't be
    /// read mutes nothing: better a goal too many than a missed one.
    func holdReason(_ route: SinkRoute, at date: Date) -> HoldReason? {
        guard let holds else { return nil }
        let mute = (try? holds.mutes(at: date))?.first { $0.sink == route.sink.name }
        return route.hold.reason(mute: mute, at: date)
    }

    /// A held alert: claimed for the sink as handled (so an unmute never replays it), kept for
    /// the digest when the sink wants one, and a sink's state (MQTT's) still moved on.
    func holdBack(_ event: GameEvent, _ route: SinkRoute, _ reason: HoldReason, holds: Holds) async -> Delivery {
        let sink = route.sink
        let keeper = sink as? any StateKeepingSink
        let keep = route.hold.held == .digest && (keeper?.isAlert(event) ?? true)
        do {
            guard try await holds.hold(event, sink: sink.name, keep: keep, at: now()) else { return .duplicate }
        } catch {
            // Not in the store (a full disk): this process keeps it for the digest instead.
            let first = unrecorded.withLock { memory -> Bool in
                defer { if keep { memory[sink.name, default: []].append(event) } }
                return memory[sink.name]?.isEmpty ?? true
            }
            let message: Logger.Message =
                keep
                ? "cannot record a held alert in the store; this process keeps it for the digest"
                : "cannot record a held alert in the store"
            if first { logger.warning(message, metadata: ["sink": "\(sink.name)", "error": "\(error)"]) }
        }
        await keeper?.keepState(event, at: now())
        return .held(reason.text(in: route.hold.zone) + (keep ? ", in the digest" : ""))
    }

    /// Every 2 s, for each sink with alerts held: its digest, if the hold is over, in its
    /// lane's turn (the first alert after a hold sends it too, just before itself).
    func sendDigests() async {
        guard let holds else { return }
        while !Task.isCancelled {
            let waiting = ((try? holds.heldCounts()) ?? [:]).merging(unrecorded.withLock { $0.mapValues(\.count) }) { $0 + $1 }
            for lane in lanes where waiting[lane.route.sink.name, default: 0] > 0 {
                await lane.turns.run { await sendDigest(of: lane.route, waiting: true) }
            }
            // A poll of what other processes and the wall clock did, as `followDelayChanges`,
            // not a wait in the game's time (`clock`, which a test may end at once, would spin).
            try? await poll.sleep(for: .seconds(2))
        }
    }

    /// What `route`'s sink held, if it holds alerts no longer: taken from the store (one
    /// process takes it) and sent as one message, or dropped if the sink no longer wants
    /// digests. `waiting`: the caller knows alerts are held (else the store is asked).
    func sendDigest(of route: SinkRoute, waiting: Bool = false) async {
        let name = route.sink.name
        guard let holds, holdReason(route, at: now()) == nil else { return }
        let remembered = unrecorded.withLock { !($0[name]?.isEmpty ?? true) }
        guard waiting || remembered || (try? holds.heldCounts())?[name, default: 0] ?? 0 > 0 else { return }
        // What the store holds, then what it could not record, oldest first either way.
        let stored = (try? await holds.take(sink: name)) ?? []
        let held = stored + unrecorded.withLock { $0.removeValue(forKey: name) ?? [] }
        guard !held.isEmpty else { return }
        // Kept for a digest the sink no longer wants (`held = "drop"` since): gone.
        guard route.hold.held == .digest, let digest = Digest.event(held, sink: name, at: now()) else { return }
        logger.notice("sending the digest of held alerts", metadata: ["sink": "\(name)", "alerts": "\(held.count)"])
        await deliver(digest, via: route)
    }
}
