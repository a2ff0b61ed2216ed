// swift-tools-version:6.1
import PackageDescription

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
        // Only its HTTP layer, HummingbirdCore (FaceoffServer routes itself); without the
        // default swift-configuration support, which Faceoff doesn't use.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        // Hummingbird's own; named for the feed server's connection guard (a NIO channel handler).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // libcurl's header (libcurl4-openssl-dev) at build time; the library itself is loaded
        // on the first request (Sources/CCurl/curl.c says why).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // HMAC-SHA256 for webhook signatures from OpenSSL's libcrypto, loaded on first use.
        .target(name: "CLibcrypto", linkerSettings: [.linkedLibrary("dl")]),
        // libmosquitto's header (libmosquitto-dev) at build time; the library is loaded when an
        // MQTT sink is first used (Sources/CMosquitto/include/CMosquitto.h says why).
        .target(name: "CMosquitto", linkerSettings: [.linkedLibrary("dl")]),
        // The commit `faceoff --version` names, written into the binary by contrib/Makefile.
        .target(name: "CBuildInfo"),
        // What glibc has for starting a program that Swift's Glibc module does not show.
        .target(name: "CSpawn"),
        .systemLibrary(
            name: "CLibical",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"])]
        ),
        // libqrencode (libqrencode-dev): the QR code of each subscription link on the feed
        // server's index page.
        .systemLibrary(
            name: "CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        // The library is a stack of targets, each allowed to import only those below it
        // (docs/ARCHITECTURE.md draws the graph; .ci/check-targets refuses any other edge).
        // What every layer needs: errors in plain words, files written whole, the waiting
        // primitives, durations, the build's facts.
        .target(name: "FaceoffBase", dependencies: ["CBuildInfo", "CSpawn"]),
        // HTTP over libcurl: https and file://, conditional GET, gzip, retries.
        .target(
            name: "FaceoffHTTP",
            dependencies: ["FaceoffBase", "CCurl", .product(name: "Logging", package: "swift-log")]
        ),
        // The SQLite store (GRDB): its schema and migrations, and the tables no layer above owns.
        .target(
            name: "FaceoffStore",
            dependencies: ["FaceoffBase", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // A JSON API through the response cache: endpoints with their sanity checks, the client
        // (conditional GET, retries, a good copy kept over a worse answer), its errors.
        .target(
            name: "FaceoffAPI",
            dependencies: [
                "FaceoffBase", "FaceoffHTTP", "FaceoffStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The NHL web API: its endpoints, models and team facts.
        .target(
            name: "FaceoffNHL",
            dependencies: ["FaceoffBase", "FaceoffHTTP", "FaceoffStore", "FaceoffAPI"]
        ),
        // ESPN's site API for the NBA: its endpoints, models and the NBA's team facts.
        .target(name: "FaceoffESPN", dependencies: ["FaceoffAPI"]),
        // Config, the games, the live engine, the terminal style and the tables of the store
        // they own.
        .target(
            name: "FaceoffKit",
            dependencies: [
                "FaceoffBase",
                "FaceoffHTTP",
                "FaceoffStore",
                "FaceoffAPI", "FaceoffNHL", "FaceoffESPN",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            plugins: ["EmbedTemplates"]
        ),
        // Alert delivery: routing, delays and holds, the outbox, and the sinks that need no
        // library of their own (terminal, desktop, webhook, exec).
        .target(
            name: "FaceoffDelivery",
            dependencies: [
                "FaceoffBase", "FaceoffHTTP", "FaceoffStore", "FaceoffKit", "CLibcrypto",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        // The calendar feeds (libical): events from schedules, their stored state, the files.
        .target(
            name: "FaceoffCalendar",
            dependencies: [
                "FaceoffBase", "FaceoffStore", "FaceoffAPI", "FaceoffKit", "CLibical",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The fan commands' reports (teams, schedules, scores, box scores, standings, rosters,
        // players, playoffs) from either league's answers, and their words for the terminal.
        .target(name: "FaceoffFan", dependencies: ["FaceoffBase", "FaceoffStore", "FaceoffAPI", "FaceoffNHL", "FaceoffESPN", "FaceoffKit"]),
        // The MQTT sink (libmosquitto): team states, Home Assistant discovery, mute switches.
        .target(
            name: "FaceoffMQTT",
            dependencies: [
                "FaceoffBase", "FaceoffStore", "FaceoffAPI", "FaceoffKit", "FaceoffDelivery", "CMosquitto",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `faceoff run`'s daemon and the routes of a config (every sink kind, MQTT's too).
        .target(
            name: "FaceoffDaemon",
            dependencies: [
                "FaceoffBase", "FaceoffHTTP", "FaceoffStore", "FaceoffAPI", "FaceoffNHL", "FaceoffESPN", "FaceoffKit", "FaceoffDelivery", "FaceoffCalendar", "FaceoffMQTT",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // The HTTP servers (the feed server and its service, the replay server) on HummingbirdCore. A module of
        // their own, so FaceoffKit compiles beside swift-nio and Hummingbird rather than after.
        .target(
            name: "FaceoffServer",
            dependencies: [
                "FaceoffBase", "FaceoffHTTP", "FaceoffStore", "FaceoffAPI", "FaceoffKit", "FaceoffCalendar", "CQREncode",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ]
        ),
        // Templates ship inside the binary: the plugin turns Templates/*.mustache into Swift
        // string constants at build time, so a copied binary never looks for resource bundles.
        .executableTarget(name: "EmbedTemplatesTool"),
        .plugin(name: "EmbedTemplates", capability: .buildTool(), dependencies: ["EmbedTemplatesTool"]),
        .executableTarget(
            name: "faceoff",
            dependencies: [
                "FaceoffBase", "FaceoffHTTP", "FaceoffStore", "FaceoffAPI", "FaceoffNHL", "FaceoffESPN", "FaceoffKit", "FaceoffDelivery", "FaceoffCalendar", "FaceoffFan", "FaceoffMQTT", "FaceoffDaemon",
                "FaceoffServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // bench/run.sh runs this in a release build; CI only compiles it.
        .executableTarget(
            name: "CalendarBench", dependencies: ["FaceoffHTTP", "FaceoffStore", "FaceoffAPI", "FaceoffNHL", "FaceoffKit", "FaceoffCalendar"],
            path: "bench/CalendarBench"),
        .executableTarget(name: "LiveBench", dependencies: ["FaceoffBase", "FaceoffAPI", "FaceoffNHL", "FaceoffKit"], path: "bench/LiveBench"),
        .executableTarget(
            name: "AlertBench",
            dependencies: [
                "FaceoffBase", "FaceoffHTTP", "FaceoffStore", "FaceoffAPI", "FaceoffNHL", "FaceoffKit", "FaceoffDelivery", "FaceoffMQTT", "FaceoffDaemon", "FaceoffServer",
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "bench/AlertBench"),
        .testTarget(
            name: "FaceoffKitTests",
            dependencies: [
                "FaceoffBase", "FaceoffHTTP", "FaceoffStore", "FaceoffAPI", "FaceoffNHL", "FaceoffESPN", "FaceoffKit", "FaceoffDelivery", "FaceoffCalendar", "FaceoffFan", "FaceoffMQTT", "FaceoffDaemon", "FaceoffServer",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "FaceoffCLITests",
            dependencies: ["FaceoffBase", "FaceoffHTTP", "FaceoffStore", "FaceoffAPI", "FaceoffNHL", "FaceoffESPN", "FaceoffKit", "FaceoffDelivery", "FaceoffCalendar", "FaceoffFan", "FaceoffMQTT"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
