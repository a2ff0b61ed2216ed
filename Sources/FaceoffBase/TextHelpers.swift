import Foundation

/// "1 game", "3 games": a count and its noun, singular for one.
public func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
