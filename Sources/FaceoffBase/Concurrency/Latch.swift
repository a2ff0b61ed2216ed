import Synchronization

/// Opens once; any number of tasks wait for it.
public final class Latch: Sendable {
    private struct State {
        var open = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var next = 0
        /// Waiters cancelled before they were registered.
        var cancelled: Set<Int> = []
    }

    private let state = Mutex(State())

    public init() {}

    public func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once open, whatever happens to the waiting task.
    public func wait() async {
        await wait(id: nextID())
    }

    /// Returns once open, or after `limit`, or when the task is cancelled.
    public func wait(atMost limit: Duration) async {
        let id = nextID()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withTaskCancellationHandler {
                    await self.wait(id: id)
                } onCancel: {
                    let waiter = self.state.withLock { state -> CheckedContinuation<Void, Never>? in
                        if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
                        if !state.open { state.cancelled.insert(id) }
                        return nil
                    }
                    waiter?.resume()
                }
            }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }

    private func nextID() -> Int {
        state.withLock { state in
            state.next += 1
            return state.next
        }
    }

    private func wait(id: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.open || state.cancelled.remove(id) != nil { return true }
                state.waiters[id] = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }
}
