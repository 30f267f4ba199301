internal import COpenSSL

/// A failure inside OpenSSL, with OpenSSL's own reason when it gave one. Never holds key material.
public struct CryptoError: Error, Equatable, CustomStringConvertible {
    /// The OpenSSL call that failed.
    public let operation: String
    /// OpenSSL's reason, from its error queue.
    public let reason: String

    init(_ operation: String) {
        self.operation = operation
        let code = ERR_get_error()
        if code == 0 {
            reason = "failed"
        } else {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reason = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        ERR_clear_error()
    }

    private init(operation: String, reason: String) {
        self.operation = operation
        self.reason = reason
    }

    /// A key that is not an ECDSA P-256 key where one is needed.
    static let notP256 = CryptoError(operation: "ECPrivateKey", reason: "not an EC P-256 private key")

    /// `operation: reason`.
    public var description: String { "\(operation): \(reason)" }
}
