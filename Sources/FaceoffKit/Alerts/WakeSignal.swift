import Synchronization

/// Wakes one sleeping worker early: `fire` ends the current (or the next) `wait`. Unlike an
/// AsyncStream, it survives its waiter being cancelled by a timeout.
final class WakeSignal: Sendable {
    private struct State {
        var fired = false
        var waiter: (token: Int, continuation: CheckedContinuation<Void, Never>)?
        var cancelled: Int?
        var nextToken = 0
    }

    private let state = Mutex(State())

    func fire() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.fired = true
                return nil
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }

    /// Returns when fired, when `timeout` passes, or when the task is cancelled.
    func wait(timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask { await self.next() }
            await group.next()
            group.cancelAll()
        }
    }

    private func next() async {
        let token = state.withLock { state -> Int in
            state.nextToken += 1
            return state.nextToken
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.fired {
                        state.fired = false
                        return true
                    }
                    if state.cancelled == token { return true }
                    state.waiter = (token, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let waiter = state.waiter, waiter.token == token else {
                    state.cancelled = token
                    return nil
                }
                state.waiter = nil
                return waiter.continuation
            }
            waiter?.resume()
        }
    }
}
