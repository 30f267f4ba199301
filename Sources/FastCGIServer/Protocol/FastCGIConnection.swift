internal import CFastCGI
import Foundation
import Synchronization
import Web

/// One connection from the web server, and the libfcgi request structure that reads requests
/// from it. nginx keeps connections open (`fastcgi_keep_conn`) and sends one request at a time
/// on each. The socket never blocks: the poller looks at what has arrived (`RequestFraming`) and
/// libfcgi reads a request only once it is whole, so no thread ever waits on a peer.
///
/// A connection is driven by one thread at a time, its owner: the thread that raises `pending`
/// from zero (see `ConnectionDriver`). Everything not atomic here is the owner's.
/// - SeeAlso: `FCGX_InitRequest`, `FCGX_Accept_r`, `FCGX_Finish_r`, `FCGX_Free`.
final class FastCGIConnection: @unchecked Sendable {
    private let raw: UnsafeMutablePointer<FCGX_Request>
    /// Events reported and not yet handled; the thread that raises it from zero owns the connection.
    let pending = Atomic<Int>(0)
    /// When the request now arriving sent its first byte (milliseconds, `Uptime`), or when the
    /// connection began closing; 0 between requests.
    let busySince = Atomic<Int64>(0)
    /// When the last request was answered (or the connection accepted), for closing idle ones.
    let idleSince = Atomic<Int64>(0)
    /// True once the answer is sent and the connection only waits for the peer's end.
    let isClosing = Atomic<Bool>(false)
    /// True once the request now arriving has its whole head (parameters); false between requests.
    let hasHead = Atomic<Bool>(false)
    /// Who connected: the peer process's id on a unix socket, its IPv4 address over TCP (high
    /// bit set), for the cap on requests one peer may hold open.
    let peer: UInt64
    /// The token the poller reports this connection by (set once, by the table).
    nonisolated(unsafe) var token: UInt64 = 0
    /// What has arrived of the request now being received.
    var framing: RequestFraming

    /// Takes ownership of an accepted (non-blocking) socket.
    init(socket fd: Int32, framing: RequestFraming, peer: UInt64 = 0) {
        raw = .allocate(capacity: 1)
        self.framing = framing
        self.peer = peer
        // No listening socket: were libfcgi to find the connection closed, it must not go on
        // to accept another one itself (accept on -1 fails at once).
        FCGX_InitRequest(raw, -1, 0)
        CFastCGI_attachConnection(raw, fd)
        idleSince.store(Uptime.milliseconds(), ordering: .relaxed)
    }

    deinit {
        close()
        raw.deallocate()
    }

    /// The socket, for the poller; -1 once closed.
    var socket: Int32 { CFastCGI_connectionFd(raw) }

    /// False once the socket is closed: by libfcgi (the web server did not ask to keep it, a
    /// stream failed, or what came was not a request) or by `close`.
    var isOpen: Bool { socket >= 0 }

    /// Reads the whole request that has arrived; false when it is not one libfcgi accepts (it
    /// then closed the socket).
    func nextRequest() -> Bool { FCGX_Accept_r(raw) >= 0 }

    /// Ends the current request, flushing the answer; libfcgi closes the socket if the web server
    /// did not ask to keep it or the answer could not be written whole at once.
    func finish() { FCGX_Finish_r(raw) }

    /// Copies what has arrived, without taking it: the byte count, 0 when the peer hung up, -1
    /// (errno set) when nothing has or the socket failed.
    func peek(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        CFastCGI_peek(socket, buffer.baseAddress, buffer.count)
    }

    /// Sends the end of the answer and keeps reading (and dropping) until the peer's end, so that
    /// over TCP a request body left unread cannot reset the connection before the answer is read.
    func beginClosing() {
        CFastCGI_shutdownSending(socket)
        isClosing.store(true, ordering: .relaxed)
        busySince.store(Uptime.milliseconds(), ordering: .relaxed)
    }

    /// Drops what has arrived while closing: true while the peer has not hung up.
    func discardArrived() -> Bool {
        while true {
            switch CFastCGI_discard(socket) {
            case 1: continue
            case 0: return false
            default: return errno == EAGAIN || errno == EINTR
            }
        }
    }

    /// Closes the socket (libfcgi's streams for a request cut short are freed).
    func close() {
        let fd = socket
        FCGX_Free(raw, 0)
        guard fd >= 0 else { return }
        CFastCGI_close(fd)
        CFastCGI_attachConnection(raw, -1)
    }

    /// The current request's head, built from its FastCGI parameters in one pass: `HTTP_*`
    /// become lower-case headers, and only the few CGI names the web layer uses are read. Names
    /// are matched as bytes and no string is made for a parameter nobody reads (this runs on
    /// every request).
    func head() -> (request: Request, contentLength: Int) {
        var request = Request(method: "GET", path: "/")
        var uri = "/"
        var queryString = ""
        var contentLength = 0
        guard var entry = raw.pointee.envp else { return (request, 0) }
        while let cString = entry.pointee {
            entry += 1
            let length = strlen(cString)
            let bytes = UnsafeRawBufferPointer(start: cString, count: length).bindMemory(to: UInt8.self)
            guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = UnsafeBufferPointer(rebasing: bytes[..<equals])
            let rawValue = UnsafeBufferPointer(rebasing: bytes[(equals + 1)...])
            let value = { String(decoding: rawValue, as: UTF8.self) }
            if name.starts(with: Self.httpPrefix) {
                request.headers[Self.headerName(UnsafeBufferPointer(rebasing: name[5...]))] = value()
                continue
            }
            switch CGIName(name) {
            case .requestMethod: request.method = value()
            case .requestURI: uri = value()
            case .queryString: queryString = value()
            case .requestID: request.requestID = value()
            case .remoteAddress: request.remoteAddress = value()
            case .contentType:
                if !rawValue.isEmpty { request.headers["content-type"] = value() }
            case .contentLength:
                contentLength = Int(value()) ?? 0
                if contentLength > 0 { request.headers["content-length"] = String(contentLength) }
            case nil: break
            }
        }
        if let mark = uri.utf8.firstIndex(of: UInt8(ascii: "?")) {
            request.path = String(uri[..<mark])
            request.query = String(uri[uri.index(after: mark)...])
        } else {
            request.path = uri
            request.query = queryString
        }
        if request.requestID.isEmpty { request.requestID = request.headers["x-request-id"] ?? "" }
        return (request, contentLength)
    }

    private static let httpPrefix = Array("HTTP_".utf8)

    /// `ACCEPT_LANGUAGE` → `accept-language`, written straight into the string's storage.
    private static func headerName(_ name: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: name.count) { out in
            for (index, byte) in name.enumerated() {
                out[index] = byte == UInt8(ascii: "_") ? UInt8(ascii: "-") : byte | 0x20
            }
            return name.count
        }
    }

    /// The CGI parameters the web layer reads, recognised from their bytes.
    private enum CGIName {
        case requestMethod, requestURI, queryString, requestID, remoteAddress, contentType, contentLength

        private static let names: [(bytes: [UInt8], name: CGIName)] = [
            (Array("REQUEST_METHOD".utf8), .requestMethod), (Array("REQUEST_URI".utf8), .requestURI),
            (Array("QUERY_STRING".utf8), .queryString), (Array("REQUEST_ID".utf8), .requestID),
            (Array("REMOTE_ADDR".utf8), .remoteAddress), (Array("CONTENT_TYPE".utf8), .contentType),
            (Array("CONTENT_LENGTH".utf8), .contentLength),
        ]

        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard
                let found = Self.names.first(where: { $0.bytes.count == bytes.count && $0.bytes.elementsEqual(bytes) })
            else { return nil }
            self = found.name
        }
    }

    /// Reads the body to its end (the empty record that closes it included, so that nothing of
    /// this request is left for the next), keeping its first `length` bytes (`CONTENT_LENGTH`).
    /// The whole body has arrived (`RequestFraming`), so this never waits.
    func readBody(length: Int) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(length)
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 4096) { chunk in
            while true {
                let read = Int(FCGX_GetStr(chunk.baseAddress!, Int32(chunk.count), raw.pointee.in))
                if read <= 0 { break }
                let kept = min(read, length - body.count)
                if kept > 0 {
                    UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(chunk)[..<kept]).withMemoryRebound(
                        to: UInt8.self
                    ) { body.append(contentsOf: $0) }
                }
            }
        }
        return body
    }

    /// Writes bytes to the response stream.
    func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                _ = FCGX_PutStr($0, Int32(buffer.count), raw.pointee.out)
            }
        }
    }
}
