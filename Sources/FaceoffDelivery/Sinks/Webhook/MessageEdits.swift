import FaceoffHTTP
import FaceoffKit
import Foundation

/// Discord's webhook messages, as its documentation gives them: executed with `?wait=true`
/// the answer is the message (its `id`); `PATCH …/messages/{id}` edits it with the same
/// fields, bar the sender's (`username`, `avatar_url`).
enum DiscordEdit {
    /// The webhook's URL with `wait=true` added (a `thread_id` kept).
    static func waitURL(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.queryItems = (components.queryItems ?? []).filter { $0.name != "wait" } + [URLQueryItem(name: "wait", value: "true")]
        return components.string ?? url
    }

    /// Where one of the webhook's messages is edited (a `thread_id` kept, `wait` dropped).
    static func messageURL(_ url: String, message: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.path = components.path.trimmingSuffix("/") + "/messages/" + message
        let kept = (components.queryItems ?? []).filter { $0.name != "wait" }
        components.queryItems = kept.isEmpty ? nil : kept
        return components.string ?? url
    }

    /// The message id of an answer to `?wait=true`.
    static func messageID(_ response: HTTPResponse) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] else { return nil }
        return (object["id"] as? String) ?? (object["id"] as? Int).map(String.init)
    }

    /// The correction's message as an edit: without the sender's fields, and for a goal taken
    /// back, its embed's text struck through (`~~…~~`) under the correction's title.
    static func body(_ body: [UInt8], striking: Bool) -> [UInt8] {
        guard var object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return body }
        object["username"] = nil
        object["avatar_url"] = nil
        if striking, var embeds = object["embeds"] as? [[String: Any]], var first = embeds.first,
            let text = first["description"] as? String, !text.isEmpty
        {
            first["description"] = "~~\(text)~~"
            embeds[0] = first
            object["embeds"] = embeds
        }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])).map(Array.init)
            ?? body
    }
}

/// ntfy's notifications updated in place (ntfy 2.16 and later): a message published with the
/// sequence id of an earlier one replaces it on the phone.
enum NtfyEdit {
    /// A goal's sequence id, from its alert's id: `faceoff-2025020100-123`.
    static func sequence(of id: String) -> String? {
        guard let (game, _, key) = GameEvent.parts(of: id), let key else { return nil }
        return "faceoff-\(game)-\(key)"
    }

    /// The JSON body with `sequence_id` set.
    static func body(_ body: [UInt8], sequence: String) -> [UInt8] {
        guard var object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return body }
        object["sequence_id"] = sequence
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])).map(Array.init)
            ?? body
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
