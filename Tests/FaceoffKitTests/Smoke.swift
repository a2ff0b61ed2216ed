import Testing
@testable import FaceoffKit
@Test func version() { #expect(!FaceoffInfo.version.isEmpty) }
