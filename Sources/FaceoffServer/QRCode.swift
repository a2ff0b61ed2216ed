import CQREncode
import FaceoffKit

/// A QR code of a short text (a subscription link), drawn as SVG, so a phone on the same
/// network subscribes by pointing its camera at the feed server's index page. Encoded by
/// libqrencode: byte mode, error correction M (a code on a screen is rarely damaged; M keeps
/// a 120-character link at version 7, easy to read).
enum QRCode {
    /// An inline `<svg>` of the code with its four-module quiet zone, each module one unit;
    /// nil if the text can't be encoded (too long, or holding a NUL).
    static func svg(_ text: String, size: Int = 160, label: String) -> String? {
        guard !text.utf8.contains(0), let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let quiet = 4
        var path = ""
        for row in 0..<width {
            for column in 0..<width where code.pointee.data[row * width + column] & 1 == 1 {
                path += "M\(column + quiet) \(row + quiet)h1v1h-1z"
            }
        }
        let side = width + 2 * quiet
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"\(label)\" width=\"\(size)\" height=\"\(size)\" "
            + "viewBox=\"0 0 \(side) \(side)\" shape-rendering=\"crispEdges\"><rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/>"
            + "<path fill=\"#000\" d=\"\(path)\"/></svg>"
    }
}
