import CQREncode
import FaceoffKit

/// A QR code of a short text (a subscription link), drawn as SVG on the feed server's index
/// page and as text in the terminal (`serve --qr`), so a phone on the same network subscribes
/// by pointing its camera at it. Encoded by
/// libqrencode: byte mode, error correction M (a code on a screen is rarely damaged; M keeps
/// a 120-character link at version 7, easy to read).
public enum QRCode {
    /// An inline `<svg>` of the code with its four-module quiet zone, each module one unit;
    /// nil if the text can't be encoded (too long, or holding a NUL).
    static func svg(_ text: String, size: Int = 160, label: String) -> String? {
        guard let dark = modules(text) else { return nil }
        let width = dark.count
        var path = ""
        for row in 0..<width {
            for column in 0..<width where dark[row][column] {
                path += "M\(column + quiet) \(row + quiet)h1v1h-1z"
            }
        }
        let side = width + 2 * quiet
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"\(label)\" width=\"\(size)\" height=\"\(size)\" "
            + "viewBox=\"0 0 \(side) \(side)\" shape-rendering=\"crispEdges\"><rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/>"
            + "<path fill=\"#000\" d=\"\(path)\"/></svg>"
    }

    /// The code for a terminal: two rows of modules a line, in half blocks, its quiet zone
    /// included. The light modules are the drawn ones, for a terminal's light text on a dark
    /// background (phones read it either way round).
    public static func text(_ text: String) -> String? {
        guard let dark = modules(text) else { return nil }
        let side = dark.count + 2 * quiet
        func light(_ row: Int, _ column: Int) -> Bool {
            let (r, c) = (row - quiet, column - quiet)
            guard dark.indices.contains(r), dark.indices.contains(c) else { return true }
            return !dark[r][c]
        }
        var lines: [String] = []
        for row in stride(from: 0, to: side, by: 2) {
            var line = ""
            for column in 0..<side {
                switch (light(row, column), row + 1 < side ? light(row + 1, column) : false) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The modules, dark or not, row by row; nil if the text can't be encoded (too long, or
    /// holding a NUL).
    static func modules(_ text: String) -> [[Bool]]? {
        guard !text.utf8.contains(0), let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        return (0..<width).map { row in (0..<width).map { code.pointee.data[row * width + $0] & 1 == 1 } }
    }

    /// The light border a reader needs around the code, in modules.
    static let quiet = 4
}
