import Auth0Web
import FastCGIServer
import Web

// What the tenant answers: its discovery document and the Management API's errors.

private let issuer = "https://tenant.example.com/"

let tenantTargets = [
    FuzzTarget(name: "discovery") { input in
        guard let document = JSONValue.parse(input),
            let endpoints = try? TenantEndpoints(discovery: document, expectedIssuer: issuer)
        else { return }
        precondition(endpoints.issuer == issuer, "another issuer accepted")
        for url in [endpoints.authorization, endpoints.token, endpoints.jwks] {
            precondition(url.hasPrefix("https://"), "an endpoint that is not https: \(url)")
        }
    },
    FuzzTarget(name: "management-error") { input in
        // A 429's waiting time comes from its headers: 1 s to an hour, whatever they say.
        let text = String(decoding: input, as: UTF8.self)
        let split = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let headers = [("retry-after", String(split.first ?? "")), ("x-ratelimit-reset", String(split.last ?? ""))]
        for pair in [headers, [headers[1]]] {
            let error = ManagementError(
                response: HTTPClientResponse(status: 429, headers: pair.map { (name: $0.0, value: $0.1) }, body: input),
                now: 1_700_000_000)
            if let wait = error.retryAfterSeconds { precondition((1...3600).contains(wait), "a wait of \(wait) s") }
        }
    },
]

/// What nginx sends the worker: the FastCGI record framing judged from the headers alone (bytes
/// arriving in pieces are judged as they would be whole), and a whole request read from its records.
let framingTargets = [
    FuzzTarget(name: "fastcgi-framing") { input in
        let limits = (head: 4096, body: 2048)
        var whole = RequestFraming(maxHeadBytes: limits.head, maxBodyBytes: limits.body)
        let verdict = input.withUnsafeBytes { whole.judge($0) }
        // The same bytes in pieces (the first byte says how large), each judge seeing all so far.
        var pieces = RequestFraming(maxHeadBytes: limits.head, maxBodyBytes: limits.body)
        let step = max(1, Int(input.first ?? 1) % 64)
        var seen = 0
        var last = RequestFraming.Verdict.incomplete
        while seen < input.count, last == .incomplete {
            seen = min(input.count, seen + step)
            last = input[..<seen].withUnsafeBytes { pieces.judge($0) }
        }
        if input.isEmpty { last = input.withUnsafeBytes { pieces.judge($0) } }
        precondition(last == verdict, "judged \(last) in pieces but \(verdict) whole")
        // A request refused for its body's size is read from its head alone, as the 413 answer is.
        if verdict == .bodyTooLarge {
            _ = input.withUnsafeBytes { ReceivedRequest.read($0, maxBodyBytes: 0, readingBody: false) }
        }
        // A whole request is read from its records: its body never exceeds its length or the limit.
        guard verdict == .complete else { return }
        let length = whole.judgedLength
        precondition((1...input.count).contains(length), "a whole request of \(length) bytes in \(input.count)")
        let received = input[..<length].withUnsafeBytes { ReceivedRequest.read($0, maxBodyBytes: limits.body) }
        if let received {
            precondition(received.contentLength >= 0, "a negative length read")
            precondition(received.head.body.count <= min(received.contentLength, limits.body), "body over its length")
        }
    }
]
