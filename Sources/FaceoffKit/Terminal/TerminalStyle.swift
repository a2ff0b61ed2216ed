import FaceoffBase
import FaceoffNHL
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How (and whether) to colour output: none when asked, when NO_COLOR is set, or when stdout
/// is not a terminal; 24-bit where COLORTERM says so; 256 colours otherwise.
public struct TerminalStyle: Sendable, Equatable {
    public enum Mode: Sendable, Equatable {
        case none
        case ansi256
        case truecolor
    }

    public let mode: Mode

    public init(mode: Mode) { self.mode = mode }

    public static let plain = TerminalStyle(mode: .none)

    public static func detect(
        noColorFlag: Bool, environment: [String: String] = ProcessInfo.processInfo.environment,
        isTerminal: Bool = isatty(STDOUT_FILENO) == 1
    ) -> TerminalStyle {
        if noColorFlag || !isTerminal { return .plain }
        // no-color.org: set and not empty.
        if let value = environment["NO_COLOR"], !value.isEmpty { return .plain }
        if environment["TERM"] == "dumb" { return .plain }
        let colorterm = environment["COLORTERM"]?.lowercased() ?? ""
        return TerminalStyle(mode: colorterm == "truecolor" || colorterm == "24bit" ? .truecolor : .ansi256)
    }

    public var isEnabled: Bool { mode != .none }

    public func paint(_ text: String, foreground: RGB? = nil, background: RGB? = nil, bold: Bool = false) -> String {
        guard isEnabled, foreground != nil || background != nil || bold else { return text }
        var codes: [String] = []
        if bold { codes.append("1") }
        if let foreground { codes.append(colorCode(foreground, base: 38)) }
        if let background { codes.append(colorCode(background, base: 48)) }
        return "\u{1B}[\(codes.joined(separator: ";"))m\(text)\u{1B}[0m"
    }

    public func bold(_ text: String) -> String { paint(text, bold: true) }
    public func dim(_ text: String) -> String { isEnabled ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
    public func good(_ text: String) -> String { paint(text, foreground: RGB(hex: "#2EA043"), bold: true) }
    public func bad(_ text: String) -> String { paint(text, foreground: RGB(hex: "#E5534B"), bold: true) }

    /// Text on a team colour: white on dark colours, black on light ones.
    public func onColor(_ text: String, _ background: RGB) -> String {
        paint(text, foreground: background.prefersDarkText ? RGB(hex: "#000000") : RGB(hex: "#FFFFFF"), background: background)
    }

    private func colorCode(_ color: RGB, base: Int) -> String {
        switch mode {
        case .truecolor, .none:
            return "\(base);2;\(color.red);\(color.green);\(color.blue)"
        case .ansi256:
            return "\(base);5;\(Self.xterm256(color))"
        }
    }

    /// The nearest entry of xterm's 6×6×6 colour cube or its grey ramp.
    static func xterm256(_ color: RGB) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func nearestLevel(_ value: UInt8) -> Int {
            levels.indices.min { abs(levels[$0] - Int(value)) < abs(levels[$1] - Int(value)) }!
        }
        let (r, g, b) = (nearestLevel(color.red), nearestLevel(color.green), nearestLevel(color.blue))
        let cube = 16 + 36 * r + 6 * g + b
        let cubeError = distance(color, (levels[r], levels[g], levels[b]))
        let average = (Int(color.red) + Int(color.green) + Int(color.blue)) / 3
        let greyIndex = min(23, max(0, (average - 8 + 5) / 10))
        let greyLevel = 8 + 10 * greyIndex
        let greyError = distance(color, (greyLevel, greyLevel, greyLevel))
        return greyError < cubeError ? 232 + greyIndex : cube
    }

    private static func distance(_ color: RGB, _ other: (Int, Int, Int)) -> Int {
        let dr = Int(color.red) - other.0
        let dg = Int(color.green) - other.1
        let db = Int(color.blue) - other.2
        return dr * dr + dg * dg + db * db
    }
}

/// The terminal's width in columns: the tty's size, else COLUMNS, else nil (no limit).
public func terminalWidth(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int? {
    terminalSize(\.ws_col, else: "COLUMNS", environment)
}

/// The terminal's height in rows: the tty's size, else LINES, else nil (unknown).
public func terminalHeight(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int? {
    terminalSize(\.ws_row, else: "LINES", environment)
}

private func terminalSize(_ dimension: KeyPath<winsize, UInt16>, else variable: String, _ environment: [String: String]) -> Int? {
    var size = winsize()
    if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size[keyPath: dimension] > 0 {
        return Int(size[keyPath: dimension])
    }
    if let value = environment[variable].flatMap(Int.init), value > 0 { return value }
    return nil
}
