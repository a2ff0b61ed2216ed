/// What went wrong with a broker, in words a user can act on.
public struct MQTTProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
