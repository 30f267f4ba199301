import OpenSSLCrypto
import Testing

/// HKDF-SHA256 against RFC 5869's test cases 1, 2 and 3.
@Suite struct HKDFTests {
    @Test(arguments: [
        (
            ikm: String(repeating: "0b", count: 22), salt: "000102030405060708090a0b0c", info: "f0f1f2f3f4f5f6f7f8f9",
            okm: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
        ),
        (
            ikm: (0x00...0x4f).map { hex($0) }.joined(), salt: (0x60...0xaf).map { hex($0) }.joined(),
            info: (0xb0...0xff).map { hex($0) }.joined(),
            okm:
                "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"
        ),
        (
            ikm: String(repeating: "0b", count: 22), salt: "", info: "",
            okm: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"
        ),
    ])
    func rfc5869Vectors(ikm: String, salt: String, info: String, okm: String) throws {
        let derived = try HKDF.sha256(
            secret: Hex.bytes(ikm), salt: Hex.bytes(salt), info: Hex.bytes(info), length: okm.count / 2)
        #expect(derived == Hex.bytes(okm))
    }
}

private func hex(_ byte: Int) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[byte >> 4], digits[byte & 15]])
}
