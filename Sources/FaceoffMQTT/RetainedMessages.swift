import FaceoffKit
import FaceoffStore
import Foundation
import GRDB

/// What an MQTT sink last published retained, by topic (docs/ARCHITECTURE.md, MQTT): the
/// store's copy of what the broker should hold. It is published again after a reconnect (a
/// restarted broker may have lost it), a team's state moves on from it, and a discovery
/// topic in it that the config no longer wants is cleared on the broker.
public struct RetainedMessages: Sendable {
    package let store: Store
    let sink: String

    public init(store: Store, sink: String) {
        self.store = store
        self.sink = sink
    }

    public func all() throws(StoreError) -> [MQTTMessage] {
        try store.read { [sink] db in
            try Row.fetchAll(db, sql: "SELECT topic, payload FROM mqtt_retained WHERE sink = ? ORDER BY topic", arguments: [sink])
                .map { MQTTMessage(topic: $0["topic"], payload: $0["payload"], retain: true) }
        }
    }

    public func payload(_ topic: String) throws(StoreError) -> String? {
        try store.read { [sink] db in
            try String.fetchOne(db, sql: "SELECT payload FROM mqtt_retained WHERE sink = ? AND topic = ?", arguments: [sink, topic])
        }
    }

    /// Records messages the broker acknowledged; an empty payload (a cleared topic) removes it.
    public func record(_ messages: [MQTTMessage], at date: Date) async throws(StoreError) {
        let sink = sink
        let rows = messages.filter(\.retain).map { ($0.topic, $0.payload) }
        guard !rows.isEmpty else { return }
        try await store.write { db in
            for (topic, payload) in rows {
                if payload.isEmpty {
                    try db.execute(sql: "DELETE FROM mqtt_retained WHERE sink = ? AND topic = ?", arguments: [sink, topic])
                } else {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO mqtt_retained (sink, topic, payload, published_at) VALUES (?, ?, ?, ?)",
                        arguments: [sink, topic, payload, date.timeIntervalSince1970])
                }
            }
        }
    }
}
