import FaceoffBase
import FaceoffKit

/// A change to the sinks' delays as `faceoff delay` takes it: `45s` sets, `+5s` and `-10s`
/// move, `sync` matches a stream to the last goal, `reset` goes back to the config's.
public enum DelayChange: Equatable, Sendable {
    case set(Duration)
    case move(Duration)
    case sync, reset

    /// nil for anything else.
    public init?(_ text: String) {
        switch text {
        case "sync": self = .sync
        case "reset": self = .reset
        default:
            if let sign = text.first, sign == "+" || sign == "-" {
                guard let step = DurationText.parse(String(text.dropFirst())) else { return nil }
                self = .move(sign == "-" ? .zero - step : step)
            } else {
                guard let delay = DurationText.parse(text) else { return nil }
                self = .set(delay)
            }
        }
    }
}
