import CardFeedModel
import CardFeedSystem

/// Braze's REST API `content_card` object (braze.com/docs/api/objects_filters/messaging/content_cards_object),
/// which teams write to create Content Cards from their backend (`/messages/send`,
/// `/campaigns/trigger/send`): read as the card Braze delivers from it. It is turned into a card
/// object in long keys, which `CardDecoder` then reads like any other, and the messages about
/// that card name the REST object's own keys (`RESTContentCard.Translation.restKey`).
enum RESTContentCard {
    /// `type` values of the REST object, and the wire type each becomes (a `CLASSIC` card without
    /// an image is a text announcement, as every Classic card without one is).
    static let types: [String: String] = ["CLASSIC": "short_news", "CAPTIONED_IMAGE": "captioned_image", "BANNER": "banner_image"]

    /// Keys only the REST object has: one of them, with no Content Cards `tp` and no wire type,
    /// makes an object a REST card even with its type missing or misspelt (which is then said).
    /// (`extra` is not one: a News Feed card's `extras` misspelt is more likely.)
    static let ownKeys: Set<String> = [
        "image_url", "web_uri", "ios_uri", "android_uri", "uri_text", "time_to_live", "expire_at", "message_variation_id",
    ]
    /// REST keys read as they are written, and those that mean nothing on a web page
    /// (`expire_in_local_time`, the apps' web views): read or ignored without a word.
    static let otherKeys: Set<String> = [
        "type", "title", "description", "pinned", "extra", "expire_in_local_time", "ios_use_webview", "android_use_webview",
    ]
    /// Keys a team adds to what Braze's API takes: the card's own id and the time it is sent.
    static let addedKeys: Set<String> = ["id", "created", "send_at"]
    /// Card keys passed on as they are when a team adds them (a REST object has none of them).
    static let passedOn: Set<String> = ["image_alt", "language", "categories", "aspect_ratio", "viewed", "dismissible"]

    /// The REST key of each card field the object gives under another name, for messages about
    /// a field it left out (`"image"` -> `"image_url"`).
    static let restKeys = ["image": "image_url", "url": "web_uri", "domain": "uri_text", "extras": "extra", "expires_at": "expire_at"]

    /// Whether an object is a REST `content_card` object rather than a card of the SDKs: it has
    /// a key only the REST object has and neither a Content Cards `tp` nor a wire type, or,
    /// without an id, its type is
    /// in capitals and no wire type (`CLASSIC`, or `CLASIC` misspelt). A card with an id and a
    /// type such as `"BANNER"` is a hand-written card of the alias `banner`, as it always was.
    /// Cheap for an SDK card: `unknownKeys` is usually empty.
    static func isREST(type: JSONValue?, unknownKeys: [String], hasShortType: Bool, hasID: Bool) -> Bool {
        if !hasShortType, unknownKeys.contains(where: ownKeys.contains) {
            guard case .string(let name)? = type else { return true }
            return types[name] != nil || CardType(wireName: name) == nil
        }
        guard !hasID, case .string(let name)? = type, let first = name.utf8.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else { return false }
        return types[name] != nil || (!name.contains(where: \.isLowercase) && CardType(wireName: name) == nil)
    }

    /// A REST object as a card object, and which REST key each card key came from.
    struct Translation {
        var object: [(key: String, value: JSONValue)] = []
        /// Card key -> the REST key it was read from, for messages (`"image"` -> `"image_url"`).
        var restKey: [String: String] = RESTContentCard.restKeys
        /// Warnings about the REST object itself, by REST key.
        var problems: [(key: String?, message: String)] = []
        /// A `type` Braze's API does not take: the card is skipped (`problems` says why).
        var unknownType = false
    }

    /// `time`: the Unix time a `time_to_live` counts from when the object gives no `created` or
    /// `send_at` (`--now`, else the time the file was last changed); nil when neither is known.
    static func translate(_ pairs: [(key: String, value: JSONValue)], time: Int64?) -> Translation {
        var out = Translation()
        var rest: [String: JSONValue] = [:]
        for (key, value) in pairs { rest[key] = value }  // a repeated key: the last one counts
        func put(_ key: String, _ value: JSONValue?, from restKey: String) {
            guard let value else { return }
            out.object.append((key, value))
            out.restKey[key] = restKey
        }
        // The id: the team's own, else the message variation and a hash of the card, the same
        // for the same object in every build.
        if let id = rest["id"] {
            put("id", id, from: "id")
        } else {
            var variation = "content-card"
            if case .string(let text)? = rest["message_variation_id"], !text.isBlank { variation = text }
            put("id", .string(variation + "-" + String(stableHash(.object(pairs)), radix: 16)), from: "message_variation_id")
        }
        if case .string(let name)? = rest["type"], let wire = types[name] {
            put("type", .string(wire), from: "type")
        } else if case .string(let name)? = rest["type"] {
            let meant = Diagnostic.suggestion(for: name.uppercased(), among: Set(types.keys))
            let known = types.keys.sorted().joined(separator: ", ")
            out.problems.append(("type", "unknown type \(Diagnostic.quoted(name))\(meant) (Braze's API takes \(known)); the card is skipped"))
            out.unknownType = true
        } else {
            put("type", rest["type"], from: "type")
        }
        put("title", rest["title"], from: "title")
        put("description", rest["description"], from: "description")
        put("image", rest["image_url"], from: "image_url")
        put("pinned", rest["pinned"], from: "pinned")
        put("extras", rest["extra"], from: "extra")
        put("domain", rest["uri_text"], from: "uri_text")
        // The web's link, else an app's, which a web page can follow only when it is a web URL.
        if let web = nonBlank(rest["web_uri"]) {
            put("url", web, from: "web_uri")
        } else if let key = ["ios_uri", "android_uri"].first(where: { nonBlank(rest[$0]) != nil }) {
            put("url", rest[key], from: key)
            out.problems.append((key, "no web_uri, so the card links to its \(key) (Braze's Web SDK would show no link)"))
        }
        // When the card is sent: the team's `created` or `send_at`, else the file's time.
        let sentKey = ["created", "send_at"].first { rest[$0] != nil && !isNull(rest[$0]) }
        if let sentKey { put("created", rest[sentKey], from: sentKey) } else if let time { put("created", .number(Double(time), integer: time), from: "created") }
        if let expiry = rest["expire_at"], !isNull(expiry) {
            put("expires_at", expiry, from: "expire_at")
        } else if let ttl = rest["time_to_live"], !isNull(ttl) {
            let start = sentKey.flatMap { sentTime(rest[$0]) } ?? time
            if case .number(let seconds, _) = ttl, seconds.isFinite, seconds >= 0, seconds < 1e12, let start {
                let end = start + Int64(seconds)
                put("expires_at", .number(Double(end), integer: end), from: "time_to_live")
            } else if start == nil {
                out.problems.append(("time_to_live", "no time to count it from (give the card created or send_at); the card does not expire"))
            } else {
                out.problems.append(("time_to_live", "expected a number of seconds, found \(ttl.noun); the card does not expire"))
            }
        } else {
            out.problems.append((nil, "has neither expire_at nor time_to_live, one of which Braze's API requires; the card does not expire"))
        }
        for key in passedOn { put(key, rest[key], from: key) }
        // Unknown keys: a misspelt REST key (`imageUrl`, `web_url`) would lose its field.
        let known = ownKeys.union(otherKeys).union(addedKeys).union(passedOn)
        for (key, _) in pairs where !known.contains(key) {
            let meant = Diagnostic.suggestion(for: key, among: known)
            out.problems.append((key, "not a key of Braze's content_card object\(meant); ignored"))
        }
        return out
    }

    private static func isNull(_ value: JSONValue?) -> Bool {
        if case .null? = value { return true }
        return false
    }

    private static func nonBlank(_ value: JSONValue?) -> JSONValue? {
        guard case .string(let text)? = value, !text.isBlank else { return nil }
        return value
    }

    /// A `created` or `send_at` as Unix seconds, when it is a number or an ISO 8601 time with its offset.
    private static func sentTime(_ value: JSONValue?) -> Int64? {
        switch value {
        case .number(let seconds, _)?: return seconds.isFinite && abs(seconds) < 1e15 ? Int64(seconds >= 1e12 ? seconds / 1000 : seconds) : nil
        case .string(let text)?: return WrittenTime(iso8601: text)?.moment(in: .utc)
        default: return nil
        }
    }

    /// 64-bit FNV-1a of the object written canonically (keys sorted): the same object, however
    /// its keys are ordered or spaced, gives the same id in every build.
    static func stableHash(_ value: JSONValue) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
        }
        func walk(_ value: JSONValue) {
            switch value {
            case .null: add("n")
            case .bool(let flag): add(flag ? "t" : "f")
            case .number(let number, let integer): add("#" + JSONValue.text(of: number, integer: integer))
            case .string(let text): add("\"" + String(text.utf8.count) + ":" + text)
            case .array(let items): add("["); items.forEach(walk); add("]")
            case .object(let pairs):
                add("{")
                for (key, item) in pairs.sorted(by: { $0.key < $1.key }) { add(String(key.utf8.count) + ":" + key); walk(item) }
                add("}")
            }
        }
        walk(value)
        return hash
    }
}
