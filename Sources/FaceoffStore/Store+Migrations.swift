import GRDB

extension Store {
    /// The schema's history, oldest first. Append; never edit or reorder a step that shipped.
    static let migrations: [(String, @Sendable (Database) throws -> Void)] = [
        (
            "v1: response cache",
            { db in
                try db.create(table: "response_cache") { table in
                    table.primaryKey("url", .text)
                    table.column("body", .blob).notNull()
                    table.column("etag", .text)
                    table.column("last_modified", .text)
                    table.column("fetched_at", .double).notNull()
                    // Seconds the body stays fresh after fetched_at; NULL means forever.
                    table.column("max_age", .double)
                }
            }
        ),
        (
            "v2: calendar state",
            { db in
                // One row per game per feed: what was last written, so SEQUENCE and LAST-MODIFIED
                // rise only on real changes and a game that leaves the schedule stays, cancelled.
                try db.create(table: "calendar_event") { table in
                    table.column("feed", .text).notNull()
                    table.column("game_id", .integer).notNull()
                    table.column("season", .text).notNull()
                    table.column("fingerprint", .text).notNull()
                    table.column("content_hash", .text).notNull()
                    table.column("sequence", .integer).notNull()
                    table.column("last_modified", .double).notNull()
                    table.column("vanished", .boolean).notNull().defaults(to: false)
                    table.column("event", .blob).notNull()
                    table.primaryKey(["feed", "game_id"])
                }
            }
        ),
        (
            "v3: alert ledger",
            { db in
                // Which event went to which sink: claiming a row is what makes an alert go out once,
                // across restarts and across processes sharing the store.
                try db.create(table: "ledger") { table in
                    table.column("event_id", .text).notNull()
                    table.column("sink", .text).notNull()
                    table.column("game_id", .integer).notNull()
                    table.column("kind", .text).notNull()
                    table.column("claimed_at", .double).notNull()
                    table.primaryKey(["event_id", "sink"])
                }
                try db.create(index: "ledger_game", on: "ledger", columns: ["game_id"])
            }
        ),
        (
            "v4: webhook outbox",
            { db in
                // Webhook deliveries, written in the same transaction as their ledger claim and
                // deleted once the receiver took them: what is here after a crash is still owed.
                try db.create(table: "outbox") { table in
                    table.autoIncrementedPrimaryKey("id")
                    table.column("sink", .text).notNull()
                    table.column("event_id", .text).notNull()
                    table.column("game_id", .integer).notNull()
                    table.column("kind", .text).notNull()
                    table.column("body", .blob).notNull()
                    table.column("created_at", .double).notNull()
                    table.column("expires_at", .double).notNull()
                    table.column("attempts", .integer).notNull().defaults(to: 0)
                    table.column("next_attempt_at", .double).notNull()
                    table.column("last_error", .text)
                    // The process delivering it now ("pid:start"), until when.
                    table.column("lease_owner", .text)
                    table.column("lease_until", .double)
                    table.uniqueKey(["sink", "event_id"])
                }
                // A receiver that answered 410 Gone, remembered for that sink and URL.
                try db.create(table: "sink_disabled") { table in
                    table.column("sink", .text).notNull()
                    table.column("url_hash", .text).notNull()
                    table.column("reason", .text).notNull()
                    table.column("disabled_at", .double).notNull()
                    table.primaryKey(["sink", "url_hash"])
                }
            }
        ),
        (
            "v5: live games",
            { db in
                // The last snapshot of each watched game, for `faceoff status` (no network).
                try db.create(table: "live_game") { table in
                    table.primaryKey("game_id", .integer)
                    table.column("away", .text).notNull()
                    table.column("home", .text).notNull()
                    table.column("away_score", .integer).notNull()
                    table.column("home_score", .integer).notNull()
                    table.column("period_label", .text)
                    table.column("clock", .text)
                    table.column("intermission", .boolean).notNull().defaults(to: false)
                    // The team on the power play, or with its net empty ("TOR PP", "MTL EN").
                    table.column("situation", .text)
                    table.column("state", .text).notNull()
                    table.column("updated_at", .double).notNull()
                }
            }
        ),
        (
            "v6: daemon state",
            { db in
                // Facts `faceoff run` keeps for `faceoff status`: when the API stopped answering.
                try db.create(table: "daemon_state") { table in
                    table.primaryKey("key", .text)
                    table.column("value", .double).notNull()
                }
            }
        ),
        (
            "v7: ledger claims being sent",
            { db in
                // The process sending a claimed stdout or notify alert, until it has gone out: a
                // claim left by a process killed in between is taken over by the next one, so the
                // alert is not lost. NULL once sent, and for every claim made before this column.
                try db.alter(table: "ledger") { table in table.add(column: "sending", .text) }
            }
        ),
        (
            "v8: sightings and delay changes",
            { db in
                // When an event was first seen in a feed (wall clock, by any process): the time a
                // sink's delay counts from, and what `faceoff delay sync` measures.
                try db.create(table: "event_seen") { table in
                    table.primaryKey("event_id", .text)
                    table.column("game_id", .integer).notNull()
                    table.column("kind", .text).notNull()
                    table.column("seen_at", .double).notNull()
                }
                try db.create(index: "event_seen_by_kind", on: "event_seen", columns: ["kind", "seen_at"])
                // A sink's delay as changed while watching (`faceoff delay`, watch's keys), and
                // the configured delay it replaced: it holds while the config still says that.
                try db.create(table: "delay_change") { table in
                    table.primaryKey("sink", .text)
                    table.column("delay_ms", .integer).notNull()
                    table.column("configured_ms", .integer).notNull()
                    table.column("set_at", .double).notNull()
                }
            }
        ),
        (
            "v9: retained MQTT messages",
            { db in
                // What an MQTT sink last published retained on each topic (team states, next
                // games, discovery): published again after a reconnect, the state an event moves
                // on from, and the discovery entries to clear when a team is unfollowed.
                try db.create(table: "mqtt_retained") { table in
                    table.column("sink", .text).notNull()
                    table.column("topic", .text).notNull()
                    table.column("payload", .text).notNull()
                    table.column("published_at", .double).notNull()
                    table.primaryKey(["sink", "topic"])
                }
            }
        ),
        (
            "v10: daemon notes",
            { db in
                // What `faceoff run` says of its own connections for other processes (`doctor`):
                // an MQTT sink's connection, in words, and since when.
                try db.create(table: "daemon_note") { table in
                    table.primaryKey("key", .text)
                    table.column("text", .text).notNull()
                    table.column("since", .double).notNull()
                }
            }
        ),
        (
            "v11: what a sighting was",
            { db in
                // A goal's scorer, moment and score in words, so `delay sync` can name the goal it
                // synced to.
                try db.alter(table: "event_seen") { table in table.add(column: "label", .text) }
            }
        ),
        (
            "v12: mutes and held alerts",
            { db in
                // A sink muted by `faceoff mute` or the MQTT switch, until when (NULL: until
                // unmuted), for every process on the store.
                try db.create(table: "sink_mute") { table in
                    table.primaryKey("sink", .text)
                    table.column("until", .double)
                    table.column("since", .double).notNull()
                }
                // Alerts a muted or quiet sink holds for its digest (the event JSON), oldest first.
                try db.create(table: "held_alert") { table in
                    table.autoIncrementedPrimaryKey("id")
                    table.column("sink", .text).notNull()
                    table.column("event_id", .text).notNull()
                    table.column("body", .blob).notNull()
                    table.column("held_at", .double).notNull()
                    table.uniqueKey(["sink", "event_id"])
                }
            }
        ),
        (
            "v13: sent messages",
            { db in
                // A goal alert's message id at a receiver that can edit it (notify-send,
                // Discord, ntfy): where its correction goes.
                try db.create(table: "sent_message") { table in
                    table.column("sink", .text).notNull()
                    table.column("event_id", .text).notNull()
                    table.column("message_id", .text).notNull()
                    table.column("sent_at", .double).notNull()
                    table.primaryKey(["sink", "event_id"])
                }
            }
        ),
        (
            "v14: live games' league",
            { db in
                // "nba" for an NBA game; NULL for the NHL's, as every row before it.
                try db.alter(table: "live_game") { table in table.add(column: "league", .text) }
            }
        ),
    ]
}
