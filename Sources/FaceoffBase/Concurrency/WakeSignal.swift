import Synchronization

/// Wakes one sleeping worker early: `fire` ends the current (or the next) `wait`. Unlike an
/// AsyncStream, it survives its waiter being cancelled by a timeout.
package final class WakeSignal: Sendable {
    private struct State {
        var fired = false
        var waiter: (token: Int, continuation: CheckedContinuation<Bool, Never>)?
        var cancelled: Int?
        var nextToken = 0
    }

    private let state = Mutex(State())

    package init() {}

    package func fire() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let waiter = state.waiter else {
                state.fired = true
                return nil
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: true)
    }

    /// Forgets a fire no wait has seen yet: what it announced is known now.
    package func clear() {
        state.withLock { $0.fired = false }
    }

    /// Returns when fired (true), when `timeout` passes on `clock` or the task is cancelled
    /// (false).
    @discardableResult
    package func wait(timeout: Duration, on clock: any Clock<Duration> = ContinuousClock()) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                try? await clock.sleep(for: timeout)
                return false
            }
            group.addTask { await self.next() }
            let fired = await group.next() ?? false
            group.cancelAll()
            return fired
        }
    }

    /// True when it was fired, false when cancelled.
    private func next() async -> Bool {
        let token = state.withLock { state -> Int in
            state.nextToken += 1
            return state.nextToken
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now = state.withLock { state -> Bool? in
                    if state.fired {
                        state.fired = false
                        return true
                    }
                    if state.cancelled == token { return false }
                    state.waiter = (token, continuation)
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard let waiter = state.waiter, waiter.token == token else {
                    state.cancelled = token
                    return nil
                }
                state.waiter = nil
                return waiter.continuation
            }
            waiter?.resume(returning: false)
        }
    }
}
