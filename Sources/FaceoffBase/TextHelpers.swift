import Foundation

/// "1 game", "3 games": a count and its noun, singular for one.
public func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}

/// "TOR", "TOR and MTL", "TOR, MTL and BOS".
public func spokenList(_ items: [String]) -> String {
    items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "")
}
