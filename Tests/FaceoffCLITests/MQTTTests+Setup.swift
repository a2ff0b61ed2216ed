import FaceoffKit
import FaceoffMQTT
import Foundation
import Testing

/// What a user setting up an MQTT sink is told: a wrong login or certificate named by
/// `doctor` and in the log, `test-alert`'s sample, a team unfollowed cleared from the broker.
extension MQTTTests {
    /// A broker that wants a login (fan / goal-horn) on its plain port and has a TLS port
    /// whose certificate the test CA (`ca.pem`) signed; `other.pem` is a CA that did not.
    struct SecuredBroker {
        let broker: Mosquitto
        let tlsPort: Int
        let folder: URL

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        init(_ cli: CLI) async throws {
            folder = cli.home.appendingPathComponent("tls")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            func openssl(_ arguments: [String]) async throws {
                let result = try await CLI.execute("/usr/bin/openssl", arguments)
                try #require(result.status == 0, "\(result.stderr)")
            }
            let path = { [folder] (name: String) in folder.appendingPathComponent(name).path }
            try await openssl([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("ca.key"), "-out", path("ca.pem"), "-days", "2", "-subj",
                "/CN=Faceoff test CA",
            ])
            try await openssl([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("other.key"), "-out", path("other.pem"), "-days", "2",
                "-subj", "/CN=Another CA",
            ])
            try await openssl([
                "req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("server.key"), "-out", path("server.csr"), "-subj", "/CN=localhost",
            ])
            try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(toFile: path("san"), atomically: true, encoding: .utf8)
            try await openssl([
                "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"), "-CAcreateserial",
                "-out", path("server.pem"), "-days", "2", "-extfile", path("san"),
            ])
            let passwords = path("passwords")
            _ = FileManager.default.createFile(atPath: passwords, contents: nil, attributes: [.posixPermissions: 0o600])
            let added = try await CLI.execute("/usr/bin/mosquitto_passwd", ["-b", passwords, "fan", "goal-horn"])
            try #require(added.status == 0, "\(added.stderr)")
            tlsPort = try Mosquitto.freePort()
            broker = try Mosquitto(
                directory: cli.home,
                extra: """
                    password_file \(passwords)
                    listener \(tlsPort) 127.0.0.1
                    allow_anonymous true
                    cafile \(path("ca.pem"))
                    certfile \(path("server.pem"))
                    keyfile \(path("server.key"))
                    """, anonymous: false)
            broker.login = ("fan", "goal-horn")
        }
    }

    /// A wrong password and a CA that did not sign the broker's certificate: `doctor` says
    /// which, and what to do; and says so of a plain connection to the TLS port and of a port
    /// nobody listens on.
    @Test func doctorNamesAWrongLoginOrCertificateAndWhatToDo() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let secured = try await SecuredBroker(cli)
        let (broker, tlsPort) = (secured.broker, secured.tlsPort)
        func doctor(_ sink: String) async throws -> String {
            try Self.writeConfig(cli, sink: sink)
            let result = try await cli.run(["doctor"])
            return result.stdout.split(separator: "\n").first { $0.contains("mqtt") }.map(String.init) ?? result.stdout
        }
        let wrong = try await doctor("url = \"\(broker.url)\"\nusername = \"fan\"\npassword = \"wrong\"")
        #expect(
            wrong.hasPrefix("✗") && wrong.contains("refused the login as 'fan'")
                && wrong.contains("check the sink's username and password"), "\(wrong)")
        let right = try await doctor("url = \"\(broker.url)\"\nusername = \"fan\"\npassword = \"goal-horn\"")
        #expect(right.hasPrefix("✓") && right.contains("accepted the login as 'fan'"), "\(right)")
        let otherCA = try await doctor("url = \"mqtts://localhost:\(tlsPort)\"\nca_file = \"\(secured.path("other.pem"))\"")
        #expect(otherCA.hasPrefix("✗") && otherCA.contains("certificate verify failed") && otherCA.contains("set ca_file"), "\(otherCA)")
        let systemCAs = try await doctor("url = \"mqtts://localhost:\(tlsPort)\"")
        #expect(systemCAs.contains("not signed by the system's CA store"), "\(systemCAs)")
        let rightCA = try await doctor("url = \"mqtts://localhost:\(tlsPort)\"\nca_file = \"\(secured.path("ca.pem"))\"")
        #expect(rightCA.hasPrefix("✓"), "\(rightCA)")
        let plainToTLS = try await doctor("url = \"mqtt://127.0.0.1:\(tlsPort)\"")
        #expect(plainToTLS.contains("use mqtts://"), "\(plainToTLS)")
        let nobody = try await doctor("url = \"mqtt://127.0.0.1:\(try Mosquitto.freePort())\"")
        #expect(nobody.contains("connection refused") && nobody.contains("start the broker"), "\(nobody)")
    }

    /// The same words in the log of `run` (offline: the mirror's schedule, no game).
    @Test func runsLogNamesAWrongLoginOrCertificate() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let secured = try await SecuredBroker(cli)
        let mirror = "file://\(CLI.mirror.path)/"
        try Self.writeConfig(cli, sink: "url = \"\(secured.broker.url)\"\nusername = \"fan\"\npassword = \"wrong\"")
        let refused = try Background(CLI.binary.path, ["run"], environment: Replays.environment(cli, base: mirror))
        #expect(
            await refused.wait(timeout: 20) { _ in refused.stderr.contains("refused the login as 'fan'") }, "\(refused.stderr.suffix(600))")
        refused.kill()
        try Self.writeConfig(cli, sink: "url = \"mqtts://localhost:\(secured.tlsPort)\"\nca_file = \"\(secured.path("other.pem"))\"")
        let untrusted = try Background(CLI.binary.path, ["run"], environment: Replays.environment(cli, base: mirror))
        #expect(
            await untrusted.wait(timeout: 20) { _ in untrusted.stderr.contains("certificate verify failed") },
            "\(untrusted.stderr.suffix(600))")
        untrusted.kill()
    }

    /// TLS survives a broker restart: `run` connects again, with the sink's CA and with the
    /// system's CA store (OpenSSL's `SSL_CERT_FILE` stands in for it here). libmosquitto
    /// 2.0.11's own thread ends for good on the TLS error a restart causes, and refuses every
    /// reconnect with the system's CAs alone ("MOSQ_OPT_SSL_CTX_WITH_DEFAULTS used without
    /// specifying cafile, capath or psk").
    @Test(arguments: [true, false]) func tlsConnectsAgainAfterABrokerRestart(systemCAs: Bool) async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let secured = try await SecuredBroker(cli)
        let caFile = systemCAs ? "" : "\nca_file = \"\(secured.path("ca.pem"))\""
        try Self.writeConfig(cli, sink: "url = \"mqtts://localhost:\(secured.tlsPort)\"" + caFile)
        var environment = Replays.environment(cli, base: "file://\(CLI.mirror.path)/")
        if systemCAs { environment["SSL_CERT_FILE"] = secured.path("ca.pem") }
        let doctor = try await cli.run(["doctor"], environment: environment)
        #expect(doctor.stdout.contains("✓ mqtt"), "\(doctor.stdout)")
        let run = try Background(CLI.binary.path, ["run"], environment: environment)
        defer { run.kill() }
        func connections() -> Int { run.stderr.components(separatedBy: "connected to the MQTT broker").count - 1 }
        try #require(await run.wait(timeout: 20) { _ in connections() >= 1 }, "\(run.stderr.suffix(600))")
        await secured.broker.stop()
        // While it is down, the sink says why it is not connected (given time to, not required).
        _ = await run.wait(timeout: 10) { _ in run.stderr.contains("alerts wait in the outbox") }
        try secured.broker.start()
        #expect(await run.wait(timeout: 40) { _ in connections() >= 2 }, "\(run.stderr.suffix(800))")
        // A restart is a lost connection, not a port without TLS ("unexpected eof").
        #expect(!run.stderr.contains("does not speak TLS"), "\(run.stderr.suffix(800))")
    }

    /// test-alert publishes its sample to the test and event topics.
    @Test func testAlertPublishesToTheTestAndEventTopics() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let broker = try Mosquitto(directory: cli.home)
        let subscriber = try await broker.subscribe()
        try Self.writeConfig(cli, sink: "url = \"\(broker.url)\"")
        let sample = try await cli.run(["test-alert"])
        #expect(sample.status == 0 && sample.stderr.contains("published to faceoff/test and faceoff/event"), "\(sample.stderr)")
        #expect(await eventually { subscriber.on("faceoff/test").count == 1 && subscriber.on("faceoff/event").count == 1 })
        #expect(subscriber.on("faceoff/test").first?.json["kind"] as? String == "goal")
    }

    /// Following TOR and MTL, then only TOR: MTL's discovery entries and topics are cleared,
    /// each with an empty retained payload.
    @Test func aTeamUnfollowedLosesItsDiscoveryEntries() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let broker = try Mosquitto(directory: cli.home)
        let subscriber = try await broker.subscribe()
        let mirror = "file://\(CLI.mirror.path)/"
        func runUntilOnline(_ teams: [String]) async throws {
            try Self.writeConfig(cli, teams: teams, sink: "url = \"\(broker.url)\"")
            let before = subscriber.on("faceoff/status").count
            let run = try Background(CLI.binary.path, ["run"], environment: Replays.environment(cli, base: mirror))
            defer { run.kill() }
            #expect(
                await eventually(within: .seconds(60)) {
                    subscriber.on("faceoff/status").dropFirst(before).contains { $0.payload == "online" }
                }, "\(run.stderr.suffix(600))")
            try await Task.sleep(for: .milliseconds(500))
            run.signal(SIGTERM)
            #expect(await run.exit(within: 10) == 0, "\(run.stderr.suffix(1500))")
        }
        try await runUntilOnline(["TOR", "MTL"])
        let both = try await broker.retained("homeassistant/#")
        #expect(both.filter { $0.topic.contains("faceoff_MTL") }.count == 3 + MQTTTrigger.of(.nhl).count)
        #expect(both.filter { $0.topic.contains("faceoff_TOR") }.count == 3 + MQTTTrigger.of(.nhl).count)
        try await runUntilOnline(["TOR"])
        let left = try await broker.retained("homeassistant/#")
        #expect(!left.contains { $0.topic.contains("faceoff_MTL") }, "\(left.map(\.topic))")
        #expect(left.filter { $0.topic.contains("faceoff_TOR") }.count == 3 + MQTTTrigger.of(.nhl).count)
        #expect(try await broker.retained("faceoff/team/MTL/#").isEmpty)
        #expect(
            subscriber.messages.filter { $0.topic.contains("faceoff_MTL") && $0.payload.isEmpty }.count == 3 + MQTTTrigger.of(.nhl).count)
    }
}
