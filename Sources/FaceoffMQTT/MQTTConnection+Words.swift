import CMosquitto
import FaceoffKit
import Foundation

/// What the broker's answers and libmosquitto's errors mean, in words.
extension MQTTConnection {
    static func text(_ code: Int32) -> String {
        guard let text = faceoff_mosquitto_strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// A refused CONNACK (MQTT 3.1.1 codes).
    static func refusal(_ code: Int32, broker: MQTTBroker) -> String {
        switch code {
        case 4, 5:
            let who = broker.username.map { "as '\($0)'" } ?? "without a username"
            return
                "the broker at \(broker.address) refused the login \(who) (\(code == 4 ? "bad username or password" : "not authorised")); check the sink's username and password"
        case 2: return "the broker at \(broker.address) refused the client id; set a different client_id"
        case 3: return "the broker at \(broker.address) is up but not taking connections (server unavailable); try again later"
        default: return "the broker at \(broker.address) refused the connection (code \(code))"
        }
    }

    /// A failed connect or a lost connection, from libmosquitto's error code (and `errno`, read
    /// right after the call that failed, for a system error).
    static func connectProblem(_ code: Int32, errno number: Int32, broker: MQTTBroker, log: String?) -> String {
        if let log, let tls = tlsProblem(log, broker: broker) { return tls }
        if code == MOSQ_ERR_ERRNO.rawValue {
            switch number {
            case ECONNREFUSED:
                return "nothing answers at \(broker.address) (connection refused); start the broker, or fix the sink's url"
            case ETIMEDOUT, EHOSTUNREACH, ENETUNREACH:
                return "\(broker.address) cannot be reached (\(String(cString: strerror(number)))); check the network and the sink's url"
            default:
                return "the connection to \(broker.address) failed (\(String(cString: strerror(number))))"
            }
        }
        if code == MOSQ_ERR_EAI.rawValue {
            return "the broker's host name '\(broker.host)' cannot be resolved; check the sink's url"
        }
        if code == MOSQ_ERR_TLS.rawValue {
            return "the TLS connection to \(broker.address) failed; check that the broker speaks TLS on that port and the sink's ca_file"
        }
        if code == MOSQ_ERR_CONN_LOST.rawValue || code == MOSQ_ERR_NO_CONN.rawValue || code == MOSQ_ERR_KEEPALIVE.rawValue {
            return "the connection to the broker at \(broker.address) was lost; reconnecting"
        }
        return "the connection to \(broker.address) failed (\(text(code)))"
    }

    static func tlsProblem(_ log: String, broker: MQTTBroker) -> String? {
        let lower = log.lowercased()
        if lower.contains("certificate verify failed") {
            let ca = broker.caFile.map { "the CA in \($0)" } ?? "the system's CA store"
            return
                "the broker's TLS certificate at \(broker.address) is not signed by \(ca) (certificate verify failed); set ca_file to the CA that signed it"
        }
        if lower.contains("wrong version number") || lower.contains("packet length too long") || lower.contains("unexpected eof") {
            return "the broker at \(broker.address) does not speak TLS there; use mqtt:// or the broker's TLS port (usually 8883)"
        }
        if lower.contains("openssl") || lower.contains("tls") || lower.contains("ssl") {
            return "the TLS connection to \(broker.address) failed (\(log)); check the sink's ca_file and url"
        }
        return nil
    }
}
