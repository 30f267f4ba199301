import Web

/// One request as its records carry it, read from bytes `RequestFraming` judged: the begin
/// record's id, role and flags, the head from the parameters, the body from the standard input,
/// and the answers owed to management records that came with it.
/// - SeeAlso: the FastCGI 1.0 specification, 3.4 (name-value pairs), 4 (management records), 5.1.
package struct ReceivedRequest {
    var requestID = 1
    var role = 0
    var keepsConnection = false
    package var head = Request(method: "GET", path: "/")
    /// The body's length as `CONTENT_LENGTH` gives it (the body kept is at most this).
    package var contentLength = 0
    /// Records to send before the answer (`FCGI_GET_VALUES_RESULT`), usually none.
    var managementAnswers: [UInt8] = []

    /// Reads the records of `bytes` (whole ones; a record cut off at the end is left), keeping at
    /// most `maxBodyBytes` of the body, or none when `readingBody` is false (a request refused
    /// from its head). Nil when the parameters are not well-formed name-value pairs, or a
    /// parameter the worker reads is not as a web server sends it (`CONTENT_LENGTH=-1`).
    package static func read(_ bytes: UnsafeRawBufferPointer, maxBodyBytes: Int, readingBody: Bool = true)
        -> ReceivedRequest?
    {
        var received = ReceivedRequest()
        return received.read(bytes, maxBodyBytes: maxBodyBytes, readingBody: readingBody) ? received : nil
    }

    /// `read(_:maxBodyBytes:readingBody:)` into a new value where it will stay: a request bound
    /// out of an optional was copied (a retain and a release of each of its strings). False when
    /// the parameters are not well-formed.
    mutating func read(_ bytes: UnsafeRawBufferPointer, maxBodyBytes: Int, readingBody: Bool = true) -> Bool {
        var params: [UInt8] = []
        var onlyParams: UnsafeRawBufferPointer?  // the one parameters record, read in place
        var paramRecords = 0
        var body: [UInt8] = []
        var offset = 0
        while bytes.count - offset >= FastCGIRecord.headerLength {
            let header = FastCGIRecord.Header(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            guard bytes.count - offset >= header.recordLength else { break }
            let contentStart = offset + FastCGIRecord.headerLength
            let content = UnsafeRawBufferPointer(rebasing: bytes[contentStart..<(contentStart + header.contentLength)])
            offset += header.recordLength
            switch header.type {
            case FastCGIRecord.beginRequest where content.count >= 3:
                requestID = header.requestID
                role = Int(content[0]) << 8 | Int(content[1])
                keepsConnection = content[2] & FastCGIRecord.keepConnection != 0
            case FastCGIRecord.params where !content.isEmpty:
                paramRecords += 1
                if paramRecords == 1 {
                    onlyParams = content
                } else {
                    if paramRecords == 2, let first = onlyParams { params.append(contentsOf: first) }
                    params.append(contentsOf: content)
                }
            case FastCGIRecord.stdin where readingBody && !content.isEmpty:
                let kept = min(content.count, maxBodyBytes - body.count)
                if kept > 0 { body.append(contentsOf: UnsafeRawBufferPointer(rebasing: content[..<kept])) }
            case FastCGIRecord.getValues:
                managementAnswers.append(contentsOf: Self.valuesResult(for: content))
            default:
                break  // the ends of the parameters and the body, an abort (the request is whole already)
            }
        }
        var parser = RequestHead()
        let wellFormed =
            paramRecords > 1
            ? params.withUnsafeBytes { Self.readPairs($0, with: &parser, into: &head) }
            : Self.readPairs(onlyParams ?? UnsafeRawBufferPointer(start: nil, count: 0), with: &parser, into: &head)
        guard wellFormed, parser.isWellFormed else { return false }
        parser.finish(&head)
        contentLength = parser.contentLength
        if body.count > contentLength { body.removeLast(body.count - max(0, contentLength)) }
        head.body = body
        return true
    }

    /// Reads the parameters' name-value pairs into `head` through `parser`; false when they are not
    /// well-formed. The header fields are written into one buffer as the pairs are read, then
    /// handed over (beneath the two the parameters give by name: the body's type and length).
    /// Its state comes as arguments, not captured: a closure capturing `read`'s variables had
    /// each access checked at run time (four a request).
    private static func readPairs(
        _ pairs: UnsafeRawBufferPointer, with parser: inout RequestHead, into head: inout Request
    ) -> Bool {
        var wellFormed = true
        let received = ReceivedHeaderBytes(capacity: ReceivedHeaderBytes.capacity(forParameterBytes: pairs.count)) {
            fields in
            wellFormed = eachPair(in: pairs) { parser.add(name: $0, value: $1, headers: &fields, to: &head) }
        }
        head.headers.received = received
        return wellFormed
    }

    /// Calls `body` with each name-value pair of `bytes` (3.4: each length in one byte, or in four
    /// with the high bit set); false when a length runs past the end. Read with a pointer and
    /// one check of room per length, and inlined with its `body`: nginx sends some twenty pairs
    /// a request, and slicing checked buffers cost more than the pairs' reading.
    @inline(__always)
    static func eachPair(
        in bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Void
    ) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let end = bytes.count
        var offset = 0
        @inline(__always) func length() -> Int? {
            guard offset < end else { return nil }
            let first = base.load(fromByteOffset: offset, as: UInt8.self)
            if first < 0x80 {
                offset += 1
                return Int(first)
            }
            guard end - offset >= 4 else { return nil }
            let value = Int(
                UInt32(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) & 0x7FFF_FFFF)
            offset += 4
            return value
        }
        while offset < end {
            guard let nameLength = length(), let valueLength = length(),
                end - offset >= nameLength, end - offset - nameLength >= valueLength
            else { return false }
            let name = UnsafeRawBufferPointer(start: base + offset, count: nameLength)
            let value = UnsafeRawBufferPointer(start: base + offset + nameLength, count: valueLength)
            offset += nameLength + valueLength
            body(name, value)
        }
        return true
    }

    /// The answer to `FCGI_GET_VALUES` (4.1): of the variables asked for, the one this worker can
    /// state: it does not multiplex requests on a connection. Stated once however often it is
    /// asked, so the answer always fits its one record.
    private static func valuesResult(for asked: UnsafeRawBufferPointer) -> [UInt8] {
        var pairs: [UInt8] = []
        _ = eachPair(in: asked) { name, _ in
            guard pairs.isEmpty, name.elementsEqual("FCGI_MPXS_CONNS".utf8) else { return }
            pairs.append(UInt8(name.count))
            pairs.append(1)
            pairs.append(contentsOf: name)
            pairs.append(UInt8(ascii: "0"))
        }
        var record = GrowingBytes(capacity: 8 + pairs.count)
        FastCGIRecord.appendHeader(
            type: FastCGIRecord.getValuesResult, requestID: 0, contentLength: pairs.count, to: &record)
        record.append(pairs)
        return record.array()
    }
}
