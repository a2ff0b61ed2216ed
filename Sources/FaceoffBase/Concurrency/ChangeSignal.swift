import Foundation
import Synchronization

/// A change any number of tasks wait for: `fire` ends every wait begun before it.
public final class ChangeSignal: Sendable {
    private struct State {
        var version = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var next = 0
        var cancelled: Set<Int> = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Counts the changes so far: a wait from this version ends at the next one.
    public var version: Int { state.withLock { $0.version } }

    public func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.version += 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns at the first change after `version`, at `deadline` on `clock`, or when the task
    /// is cancelled, whichever is first.
    public func wait<C: Clock>(after version: Int, until deadline: C.Instant, on clock: C) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(until: deadline, tolerance: nil) }
            group.addTask { await self.next(after: version) }
            await group.next()
            group.cancelAll()
        }
    }

    private func next(after version: Int) async {
        let id = state.withLock { state -> Int in
            state.next += 1
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.version != version || state.cancelled.remove(id) != nil { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
                state.cancelled.insert(id)
                return nil
            }
            waiter?.resume()
        }
    }
}
