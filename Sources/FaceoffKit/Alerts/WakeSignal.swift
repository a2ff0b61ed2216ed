import Synchronization

/// Wakes one sleeping worker early: `fire` ends the current (or the next) `wait`. Unlike an
/// AsyncStream, it survives its waiter being cancelled by a timeout.
final class WakeSignal: Sendable {
    private struct State {
        var fired = false
        var waiter: (token: Int, continuation: CheckedContinuation<Bool, Never>)?
        var cancelled: Int?
        var nextToken = 0
    }

    private let state = Mutex(State())

    func fire() {
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
    func clear() {
        state.withLock { $0.fired = false }
    }

    /// Returns when fired (true), when `timeout` passes or the task is cancelled (false).
    @discardableResult
    func wait(timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                try? await Task.sleep(for: timeout)
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

/// Lets one body run at a time, in the order they asked (an async mutex). A waiter waits its
/// turn even when cancelled: the bodies it guards end soon once cancelled.
final class Turns: Sendable {
    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func run<T, E: Error>(_ body: () async throws(E) -> T) async throws(E) -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.busy else {
                    state.busy = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
        defer {
            let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard !state.waiting.isEmpty else {
                    state.busy = false
                    return nil
                }
                return state.waiting.removeFirst()
            }
            next?.resume()
        }
        return try await body()
    }
}
