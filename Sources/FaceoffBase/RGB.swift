import Foundation

/// An sRGB colour with 8 bits per channel.
public struct RGB: Sendable, Hashable {
    public let red: UInt8
    public let green: UInt8
    public let blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `"#RRGGBB"` (the `#` is optional, hex digits are case-insensitive, surrounding
    /// whitespace is ignored). Returns nil for anything else, so use this for untrusted input.
    public init?(parsing text: String) {
        var bytes = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        if bytes.first == UInt8(ascii: "#") { bytes.removeFirst() }
        guard bytes.count == 6 else { return nil }
        var channels: [UInt8] = []
        channels.reserveCapacity(3)
        for index in stride(from: 0, to: 6, by: 2) {
            guard let high = RGB.nibble(bytes[index]), let low = RGB.nibble(bytes[index + 1]) else {
                return nil
            }
            channels.append(high << 4 | low)
        }
        self.init(red: channels[0], green: channels[1], blue: channels[2])
    }

    /// Builds a colour from a `"#RRGGBB"` literal.
    ///
    /// Meant for colour constants written in source, where a malformed literal is a programming
    /// error, so it traps instead of returning an optional. Use ``init(parsing:)`` for input
    /// that comes from users or the network.
    public init(hex: String) {
        guard let parsed = RGB(parsing: hex) else {
            preconditionFailure("RGB(hex:) expects \"#RRGGBB\", got \"\(hex)\"")
        }
        self = parsed
    }

    public static let black = RGB(red: 0, green: 0, blue: 0)
    public static let white = RGB(red: 255, green: 255, blue: 255)

    /// The colour as `"#RRGGBB"` with uppercase hex digits.
    public var hex: String {
        let digits = Array("0123456789ABCDEF")
        var text = "#"
        for channel in [red, green, blue] {
            text.append(digits[Int(channel >> 4)])
            text.append(digits[Int(channel & 0x0F)])
        }
        return text
    }

    /// WCAG 2.x relative luminance: 0 for black, 1 for white.
    ///
    /// Each channel is first converted from gamma-encoded sRGB to linear light, because the
    /// eye's brightness response is what matters for contrast, not the stored code value.
    /// The 0.04045 threshold is the sRGB standard's; WCAG's older 0.03928 gives the same result
    /// for every 8-bit value (none lies between the two).
    public var relativeLuminance: Double {
        0.2126 * RGB.linearised(red) + 0.7152 * RGB.linearised(green) + 0.0722 * RGB.linearised(blue)
    }

    /// WCAG contrast ratio between two colours, from 1 (identical luminance) to 21 (black on white).
    public func contrastRatio(with other: RGB) -> Double {
        let a = relativeLuminance
        let b = other.relativeLuminance
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// True when black text on this colour has a higher WCAG contrast ratio than white text.
    ///
    /// The crossover sits at a luminance of about 0.179, which is darker than most people
    /// guess: saturated mid-tones such as pure red (#FF0000, luminance 0.2126) read better
    /// with black text by this measure.
    public var prefersDarkText: Bool {
        contrastRatio(with: .black) > contrastRatio(with: .white)
    }

    private static func linearised(_ channel: UInt8) -> Double {
        let value = Double(channel) / 255
        return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
