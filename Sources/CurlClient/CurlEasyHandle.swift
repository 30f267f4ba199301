internal import CCurl
import FoundationEssentials
import Web

/// Owns one libcurl easy handle. A handle is used by one thread at a time and kept between
/// calls, so connections to the same host stay open.
/// - SeeAlso: `curl_easy_init`, `curl_easy_perform`, `curl_easy_cleanup`.
final class CurlEasyHandle {
    private let handle: UnsafeMutableRawPointer

    init() throws {
        guard let handle = curl_easy_init() else { throw HTTPClientError(.other, "curl_easy_init failed") }
        self.handle = handle
    }

    deinit { curl_easy_cleanup(handle) }

    func perform(_ request: HTTPClientRequest, connectTimeoutSeconds: Double) throws -> HTTPClientResponse {
        curl_easy_reset(handle)
        let sink = Sink(limit: request.maxResponseBytes)
        let unmanaged = Unmanaged.passUnretained(sink).toOpaque()
        var headerList: UnsafeMutablePointer<curl_slist>? = nil
        defer { curl_slist_free_all(headerList) }
        for (name, value) in request.headers {
            headerList = curl_slist_append(headerList, "\(name): \(value)")
        }
        // "Expect: 100-continue" costs a round trip for bodies over 1 KiB.
        headerList = curl_slist_append(headerList, "Expect:")

        try check(CCurl_setopt_ptr(handle, CURLOPT_URL, request.url))
        try check(CCurl_setopt_ptr(handle, CURLOPT_CUSTOMREQUEST, request.method))
        try check(CCurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        // The receive buffer each handle keeps (16 KB by default) is held by every thread that
        // has called out; the provider's answers are a few KB, and a longer one arrives in pieces.
        try check(CCurl_setopt_long(handle, CURLOPT_BUFFERSIZE, 4096))
        try check(CCurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        try check(CCurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1))
        try check(CCurl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2))
        try check(CCurl_setopt_ptr(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        try check(CCurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(request.timeoutSeconds * 1000)))
        try check(
            CCurl_setopt_long(
                handle, CURLOPT_CONNECTTIMEOUT_MS, Int(min(connectTimeoutSeconds, request.timeoutSeconds) * 1000)))
        try check(CCurl_setopt_ptr(handle, CURLOPT_HTTPHEADER, headerList))
        if request.method == "HEAD" { try check(CCurl_setopt_long(handle, CURLOPT_NOBODY, 1)) }
        try check(CCurl_setopt_write(handle, CURLOPT_WRITEFUNCTION, curlWriteBody))
        try check(CCurl_setopt_ptr(handle, CURLOPT_WRITEDATA, unmanaged))
        try check(CCurl_setopt_write(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader))
        try check(CCurl_setopt_ptr(handle, CURLOPT_HEADERDATA, unmanaged))

        let code: CURLcode = try request.body.withUnsafeBufferPointer { body in
            if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method) {
                try check(
                    CCurl_setopt_ptr(handle, CURLOPT_POSTFIELDS, body.baseAddress ?? UnsafePointer(bitPattern: 1)))
                try check(CCurl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
                // POSTFIELDS turns the method to POST; CUSTOMREQUEST above keeps PATCH and PUT.
            }
            return withExtendedLifetime(sink) { curl_easy_perform(handle) }
        }
        // The sink refused more than the limit: a typed error, not a truncated answer.
        if sink.exceeded { throw HTTPClientError(.tooLarge, "answer over \(request.maxResponseBytes) bytes") }
        guard code == CURLE_OK else { throw Self.error(for: code) }

        var status = 0
        try check(CCurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status))
        return HTTPClientResponse(status: status, headers: Self.parseHeaders(sink.headerLines), body: sink.body)
    }

    /// How many new connections the last call had to open (0 when it reused a kept one); read
    /// only when asked, not on every call.
    func connectionsOpenedByLastCall() throws -> Int {
        var connects = 0
        try check(CCurl_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &connects))
        return connects
    }

    private func check(_ code: CURLcode) throws {
        guard code == CURLE_OK else { throw Self.error(for: code) }
    }

    private static func error(for code: CURLcode) -> HTTPClientError {
        let text = String(cString: curl_easy_strerror(code))
        switch code {
        case CURLE_OPERATION_TIMEDOUT: return HTTPClientError(.timeout, text)
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST: return HTTPClientError(.connect, text)
        default: return HTTPClientError(.other, text)
        }
    }

    /// Keeps the header lines of the last response only (a 100 Continue comes before it).
    private static func parseHeaders(_ lines: [String]) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        for line in lines {
            if line.hasPrefix("HTTP/") {
                headers.removeAll()
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = String(line[line.index(after: colon)...]).trimmingSpaces()
            headers.append((name, value))
        }
        return headers
    }
}

private func curlWriteBody(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?
) -> Int {
    guard let data, let user else { return 0 }
    let sink = Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue()
    // Returning less than was given makes libcurl stop the transfer.
    return sink.appendBody(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
}

private func curlWriteHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?
) -> Int {
    guard let data, let user else { return 0 }
    let sink = Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue()
    return sink.appendHeader(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
}

/// Collects the answer's bytes while curl runs, up to a limit: the tenant is not trusted to
/// keep its answers small.
private final class Sink {
    var body: [UInt8] = []
    var headerLines: [String] = []
    private(set) var exceeded = false
    private let limit: Int
    private var headerBytes = 0

    init(limit: Int) { self.limit = limit }

    /// False (stop the transfer) once the body would pass the limit.
    func appendBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard body.count + bytes.count <= limit else {
            exceeded = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// False (stop the transfer) once the header lines pass the limit.
    func appendHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
        headerBytes += bytes.count
        guard headerBytes <= limit else {
            exceeded = true
            return false
        }
        var line = String(decoding: bytes, as: UTF8.self)
        while let last = line.last, last.isNewline { line.removeLast() }
        headerLines.append(line)
        return true
    }
}
