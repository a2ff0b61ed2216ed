// swift-tools-version:6.1
import PackageDescription

#if canImport(Glibc)
import Glibc

/// glibc 2.36 and later load packed relative relocations (DT_RELR); older ones refuse the binary.
let glibcLoadsPackedRelocations: Bool = {
    var text = [UInt8](repeating: 0, count: 64)  // "glibc 2.36"
    let length = text.withUnsafeMutableBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { confstr(Int32(_CS_GNU_LIBC_VERSION), $0.baseAddress, $0.count) }
    }
    guard length > 1, length <= text.count else { return false }
    let name = String(decoding: text[..<(length - 1)], as: UTF8.self)
    let version = name.split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
    return version.count >= 2 && (version[0], version[1]) >= (2, 36)
}()
#else
let glibcLoadsPackedRelocations = false
#endif

/// How a release build links the faceoff binary, for a small resident set and a quick start.
/// Release builds only; bench/BENCHMARKS.md has the measurements.
/// - `-static-stdlib`: the binary carries the Swift runtime and Foundation, so it keeps working
///   after the toolchain is upgraded or removed (Swift on Linux has no stable ABI), and it
///   starts faster (no 15 Swift libraries to load and bind).
/// - lld (shipped with the Swift toolchain) instead of gold, for the ordering and the packing.
/// - `--no-export-dynamic`: no 40,000-symbol dynamic table for every loaded library to search.
/// - `--symbol-ordering-file`: the code `faceoff run` and `faceoff status` execute is laid out
///   together (Sources/faceoff/faceoff.order, written by bench/order.sh), so the pages the
///   kernel maps around each page touched hold hot code instead of cold. SwiftPM does not
///   relink when only that file changes.
/// - `-z pack-relative-relocs`: the 123,000 relative relocations of Swift's metadata take 24 KB
///   instead of 3 MB, where the C library can load them.
let releaseLinking: [String] = [
    "-static-stdlib", "-use-ld=lld",
    "-Xlinker", "--no-export-dynamic",
    "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/faceoff/faceoff.order",
    "-Xlinker", "--no-warn-symbol-ordering",
] + (glibcLoadsPackedRelocations ? ["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"] : [])

let package = Package(
    name: "Faceoff",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "faceoff", targets: ["faceoff"]),
        .library(name: "FaceoffKit", targets: ["FaceoffKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        // Hummingbird's own; named for the feed server's connection guard (a NIO channel handler).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // libcurl's header (libcurl4-openssl-dev) at build time; the library itself is loaded
        // on the first request (Sources/CCurl/curl.c says why).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(
            name: "CLibical",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"])]
        ),
        .target(
            name: "FaceoffKit",
            dependencies: [
                "CCurl",
                "CLibical",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            plugins: ["EmbedTemplates"]
        ),
        // Templates ship inside the binary: the plugin turns Templates/*.mustache into Swift
        // string constants at build time, so a copied binary never looks for resource bundles.
        .executableTarget(name: "EmbedTemplatesTool"),
        .plugin(name: "EmbedTemplates", capability: .buildTool(), dependencies: ["EmbedTemplatesTool"]),
        .executableTarget(
            name: "faceoff",
            dependencies: [
                "FaceoffKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            exclude: ["faceoff.order"],
            swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))],
            linkerSettings: [.unsafeFlags(releaseLinking, .when(platforms: [.linux], configuration: .release))]
        ),
        // bench/run.sh runs this in a release build; CI only compiles it.
        .executableTarget(name: "CalendarBench", dependencies: ["FaceoffKit"], path: "bench/CalendarBench"),
        .executableTarget(name: "LiveBench", dependencies: ["FaceoffKit"], path: "bench/LiveBench"),
        .executableTarget(
            name: "AlertBench", dependencies: ["FaceoffKit", .product(name: "Hummingbird", package: "hummingbird")], path: "bench/AlertBench"),
        .testTarget(
            name: "FaceoffKitTests",
            dependencies: ["FaceoffKit", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "FaceoffCLITests",
            dependencies: ["FaceoffKit"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
