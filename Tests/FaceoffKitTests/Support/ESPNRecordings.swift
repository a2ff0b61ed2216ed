import Foundation
import Testing
@testable import FaceoffAPI
@testable import FaceoffESPN
@testable import FaceoffFan
@testable import FaceoffKit
@testable import FaceoffNHL

/// ESPN's recorded NBA answers (../shared/espn-api/fixtures).
enum ESPNRecordings {
    /// The Lakers' 2026 postseason: finals (one in overtime), games to come, "if necessary" ones.
    static let lakersPostseason = "schedule_nba_13_lal_2026_postseason_with_ot_and_tbd.json"

    static let directory = TestPaths.shared.appendingPathComponent("espn-api/fixtures")

    static var available: Bool {
        ProcessInfo.processInfo.environment["FACEOFF_TEST_ALL"] == "1" || FileManager.default.fileExists(atPath: directory.path)
    }

    /// The trait of a test that reads them: skipped, with its reason, when they are absent.
    static var needed: ConditionTrait { .enabled(if: available, "../shared/espn-api/fixtures not present") }

    static func decode<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
        try APIText.decode(T.self, from: Array(Data(contentsOf: directory.appendingPathComponent(name))))
    }

    static func json(_ name: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent(name)))
    }
}
