import FaceoffBase
import FaceoffKit
import Foundation

/// Reads a QR code drawn as the feed server's SVG (unit squares in one path) with zxing-cpp
/// in the test venv: an independent decoder, never a runtime dependency.
enum QRReader {
    /// The venv's Python (FACEOFF_TEST_PYTHON, else the repository's `.venv`) when it has
    /// zxing-cpp, or under FACEOFF_TEST_ALL (CI), where a missing one must fail.
    static let python: String? = {
        let named = ProcessInfo.processInfo.environment["FACEOFF_TEST_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
        let python = named ?? TestPaths.repositoryRoot.appendingPathComponent(".venv/bin/python").path
        if ProcessInfo.processInfo.environment["FACEOFF_TEST_ALL"] == "1" { return python }
        guard FileManager.default.isExecutableFile(atPath: python) else { return nil }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: python)
        probe.arguments = ["-c", "import zxingcpp, numpy"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return nil }
        probe.waitUntilExit()
        return probe.terminationStatus == 0 ? python : nil
    }()

    static let script = """
        import re, sys, numpy, zxingcpp
        svg = sys.stdin.read()
        side = int(re.search(r'viewBox="0 0 (\\d+) \\d+"', svg).group(1))
        image = numpy.full((side * 8, side * 8), 255, dtype=numpy.uint8)
        for x, y in re.findall(r'M(\\d+) (\\d+)h1v1h-1z', svg):
            x, y = int(x), int(y)
            image[y * 8:(y + 1) * 8, x * 8:(x + 1) * 8] = 0
        found = zxingcpp.read_barcodes(image)
        print(found[0].text if found else "", end="")
        """

    /// The terminal's form (`QRCode.text`): half blocks, two rows of modules a line, the
    /// drawn ones light.
    static let textScript = """
        import sys, numpy, zxingcpp
        lines = sys.stdin.read().split("\\n")
        rows = []
        for line in lines:
            top = [c in "█▀" for c in line]
            bottom = [c in "█▄" for c in line]
            rows += [top, bottom]
        image = numpy.array([[255 if light else 0 for light in row] for row in rows], dtype=numpy.uint8)
        image = numpy.kron(image, numpy.ones((8, 8), dtype=numpy.uint8))
        found = zxingcpp.read_barcodes(image)
        print(found[0].text if found else "", end="")
        """

    static func readText(_ text: String) async throws -> String {
        try await ProcessRunner.run(
            python ?? "python3", ["-c", textScript], environment: ProcessInfo.processInfo.environment, timeout: .seconds(60),
            input: Array(text.utf8)
        ).stdout
    }

    static func read(_ svg: String) async throws -> String {
        try await ProcessRunner.run(
            python ?? "python3", ["-c", script], environment: ProcessInfo.processInfo.environment, timeout: .seconds(60),
            input: Array(svg.utf8)
        ).stdout
    }
}
