/// A value several tests check parts of, made once by whichever asks first (in that test's
/// own task) while the others wait for it: a whole-game scenario run once, each behaviour its
/// own test. A failure to make it is every asker's failure.
actor Shared<Value: Sendable> {
    private enum State {
        case idle
        case making([CheckedContinuation<Result<Value, any Error>, Never>])
        case made(Result<Value, any Error>)
    }

    private var state = State.idle
    private let make: @Sendable () async throws -> Value

    init(_ make: @escaping @Sendable () async throws -> Value) { self.make = make }

    var value: Value {
        get async throws {
            switch state {
            case .made(let result):
                return try result.get()
            case .making:
                let result = await withCheckedContinuation { waiter in
                    if case .making(let waiters) = state { state = .making(waiters + [waiter]) }
                }
                return try result.get()
            case .idle:
                state = .making([])
                let result: Result<Value, any Error>
                do { result = .success(try await make()) } catch { result = .failure(error) }
                if case .making(let waiters) = state { for waiter in waiters { waiter.resume(returning: result) } }
                state = .made(result)
                return try result.get()
            }
        }
    }
}
