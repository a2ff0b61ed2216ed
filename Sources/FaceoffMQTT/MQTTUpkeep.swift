/// What the MQTT sink's upkeep does at each look at its connection, without I/O: on each
/// (re)connect, say so and publish every retained topic again; on a new reason for being
/// disconnected, say it once; for `run`'s sink, look at the next games (and finals become
/// `idle`) when a game starts or ends and every `lookEvery` besides.
struct MQTTUpkeep {
    enum Step: Equatable {
        case connected
        case lost(String)
        case look
    }

    let owner: Bool
    var lookEvery: Duration = .seconds(600)
    private var generation = 0
    private var lastProblem: String?
    /// When the last look was, on the loop's own time; nil: none since the last connect.
    private var lastLook: Duration?

    init(owner: Bool) { self.owner = owner }

    /// - Parameters:
    ///   - generation: the connection's count of connects (a new one: connected again).
    ///   - problem: why it is not connected, when known.
    ///   - poked: a game started or ended since the last look.
    ///   - now: time since the loop began.
    mutating func look(connected: Bool, generation: Int, problem: String?, poked: Bool, at now: Duration) -> [Step] {
        var steps: [Step] = []
        if connected, generation != self.generation {
            self.generation = generation
            lastProblem = nil
            lastLook = nil
            steps.append(.connected)
        } else if !connected, let problem, problem != lastProblem {
            lastProblem = problem
            steps.append(.lost(problem))
        }
        if owner, connected, poked || lastLook.map({ now - $0 >= lookEvery }) ?? true {
            lastLook = now
            steps.append(.look)
        }
        return steps
    }
}
