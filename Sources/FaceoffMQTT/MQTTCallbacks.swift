import CMosquitto
import Foundation
import Synchronization

/// The C callbacks: they take no context but the library's user data, which is unset (the
/// client is made before the object it serves), so they find their connection in a table.
enum MQTTCallbacks {
    private struct Entry: @unchecked Sendable { weak var connection: MQTTConnection? }
    private static let table = Mutex<[UInt: Entry]>([:])

    static func install(on pointer: OpaquePointer, for connection: MQTTConnection) {
        table.withLock { $0[UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer)))] = Entry(connection: connection) }
        faceoff_mosquitto_connect_callback_set(pointer) { handle, _, code in MQTTCallbacks.find(handle)?.connected(code) }
        faceoff_mosquitto_disconnect_callback_set(pointer) { handle, _, code in MQTTCallbacks.find(handle)?.disconnected(code) }
        faceoff_mosquitto_publish_callback_set(pointer) { handle, _, mid in MQTTCallbacks.find(handle)?.published(mid) }
        faceoff_mosquitto_message_callback_set(pointer) { handle, _, topic, payload, length in
            guard let topic else { return }
            let bytes = payload.map { UnsafeRawBufferPointer(start: $0, count: Int(max(0, length))) }.map(Array.init) ?? []
            MQTTCallbacks.find(handle)?.received(String(cString: topic), String(decoding: bytes, as: UTF8.self))
        }
        faceoff_mosquitto_log_callback_set(pointer) { handle, _, level, text in
            guard let text else { return }
            MQTTCallbacks.find(handle)?.logged(level, String(cString: text))
        }
    }

    static func remove(_ pointer: OpaquePointer) {
        _ = table.withLock { $0.removeValue(forKey: UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer)))) }
    }

    static func find(_ handle: OpaquePointer?) -> MQTTConnection? {
        guard let handle else { return nil }
        return table.withLock { $0[UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle)))]?.connection }
    }
}
