import Auth0Web
import RedisStore
import Web

// What the shared store and the browser hand back: Redis replies as hiredis reads them, the
// ledger's and the session list's entries, a User-Agent, and templates.

let storeTargets = [
    FuzzTarget(name: "redis-reply") { input in
        // Whatever a server (or someone between) sends: hiredis reads it or calls it a protocol
        // error; what it reads, written back, reads the same. Found here: Debian 12's hiredis
        // (0.14) allocates an array's element pointers as soon as it reads the header, so
        // `*2000000000` asks malloc for 16 GB before one element arrives. That is hiredis' own (a
        // Redis that lies, or someone between: the deploy guide's private network or tunnel), so
        // the target leaves headers past a million to it.
        guard !FuzzTarget.claimsHugeArray(input), let replies = RedisReply.replies(in: input) else { return }
        for reply in replies {
            precondition(RedisReply.replies(in: reply.encoded) == [reply], "a Redis reply does not round-trip")
        }
    },
    FuzzTarget(name: "ledger-entry") { input in
        // The ledger's log is read by every worker: an entry that decodes is exactly its bytes.
        if let entry = EndedSessions.Entry(encoded: input) {
            precondition(entry.encoded == input, "a ledger entry does not round-trip")
        }
    },
    FuzzTarget(name: "registry-entry") { input in
        if let entry = SessionRegistry.Entry(encoded: input) {
            precondition(entry.encoded == input, "a session list entry does not round-trip")
        }
    },
    FuzzTarget(name: "user-agent") { input in
        // Any header names a browser and a system from the table, or nothing: never its own text.
        let device = DeviceName(userAgent: String(decoding: input, as: UTF8.self))
        let browsers: Set<String?> = [
            nil, "Edge", "Opera", "Samsung Internet", "Yandex Browser", "Vivaldi", "Firefox", "Chrome", "Chromium",
            "Safari", "curl",
        ]
        let systems: Set<String?> = [nil, "iPhone", "iPad", "Android", "ChromeOS", "Windows", "macOS", "Linux"]
        precondition(browsers.contains(device.browser) && systems.contains(device.system), "a name not in the table")
    },
    FuzzTarget(name: "template") { input in
        // A template that parses renders; one with no tag renders as its own bytes.
        let text = String(decoding: input, as: UTF8.self)
        guard let template = try? Template(parsing: text) else { return }
        let page = template.render(["name": "<b>&\"'", "list": .list([["name": "x"]])])
        if !text.contains("{{") { precondition(page == Array(text.utf8), "plain text changed in rendering") }
        // A value shown with {{name}} is escaped: the markup appears only if the text holds it or asks for it raw.
        precondition(
            !String(decoding: page, as: UTF8.self).contains("<b>") || text.contains("<b>") || text.contains("{{{"),
            "a value was not escaped")
    },
]

extension FuzzTarget {
    /// True when a line of `input` starts an array of more than a million elements.
    static func claimsHugeArray(_ input: [UInt8]) -> Bool {
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "*"), index == 0 || input[index - 1] == 10 {
                var digits = 0
                var cursor = index + 1
                while cursor < input.count, (48...57).contains(input[cursor]) {
                    digits += 1
                    cursor += 1
                }
                if digits > 6 { return true }
            }
            index += 1
        }
        return false
    }
}
