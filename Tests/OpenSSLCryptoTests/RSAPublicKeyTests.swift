import OpenSSLCrypto
import Testing

/// Keys from a JWKS are the tenant's word: only sizes and exponents a real signing key has.
@Suite struct RSAPublicKeyTests {
    // swift-format-ignore: NeverUseForceTry
    static let key2048 = try! RSAPrivateKey(generatingBits: 2048)

    @Test func a2048BitKeyWithExponent65537IsAccepted() throws {
        let (n, e) = try Self.key2048.publicComponents()
        let key = try RSAPublicKey(modulus: n, exponent: e)
        let message = Array("signed".utf8)
        #expect(key.verifyRS256(signature: try Self.key2048.signRS256(message), message: message))
    }

    @Test func aShortKeyIsRefusedEvenWithZerosInFront() throws {
        let (n, e) = try RSAPrivateKey(generatingBits: 1024).publicComponents()
        #expect(throws: CryptoError.self) { try RSAPublicKey(modulus: n, exponent: e) }
        #expect(throws: CryptoError.self) {
            try RSAPublicKey(modulus: [UInt8](repeating: 0, count: 128) + n, exponent: e)
        }
    }

    @Test(arguments: [[1], [2], [0, 0, 1], [1, 0, 0], [1, 0, 0, 0, 1], []] as [[UInt8]])
    func anExponentThatIsNotOddAtLeast3AndOf32BitsIsRefused(exponent: [UInt8]) throws {
        let (n, _) = try Self.key2048.publicComponents()
        #expect(throws: CryptoError.self) { try RSAPublicKey(modulus: n, exponent: exponent) }
    }
}
