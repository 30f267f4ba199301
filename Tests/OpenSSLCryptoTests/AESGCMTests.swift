import OpenSSLCrypto
import Testing

/// AES-256-GCM against the known answers of the GCM specification (McGrew and Viega, test
/// cases 13, 14 and 16, the 256-bit ones NIST's validation uses), opened from
/// `nonce ‖ ciphertext ‖ tag` as the cookies store them.
@Suite struct AESGCMTests {
    @Test(arguments: [
        (
            key: String(repeating: "00", count: 32), nonce: String(repeating: "00", count: 12), aad: "",
            plaintext: "", ciphertext: "", tag: "530f8afbc74536b9a963b4f1c4cb738b"
        ),
        (
            key: String(repeating: "00", count: 32), nonce: String(repeating: "00", count: 12), aad: "",
            plaintext: String(repeating: "00", count: 16), ciphertext: "cea7403d4d606b6e074ec5d3baf39d18",
            tag: "d0d1c8a799996bf0265b98b5d48ab919"
        ),
        (
            key: "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308", nonce: "cafebabefacedbaddecaf888",
            aad: "feedfacedeadbeeffeedfacedeadbeefabaddad2",
            plaintext:
                "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
            ciphertext:
                "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
            tag: "76fc6ece0f4e1768cddf8853bb2d551b"
        ),
    ])
    func knownAnswersOpen(
        key: String, nonce: String, aad: String, plaintext: String, ciphertext: String, tag: String
    ) throws {
        let cipher = AESGCM(key: Hex.bytes(key))
        let sealed = Hex.bytes(nonce + ciphertext + tag)
        #expect(cipher.open(sealed, associatedData: Hex.bytes(aad)) == Hex.bytes(plaintext))
        var altered = sealed
        altered[altered.count - 1] ^= 1
        #expect(cipher.open(altered, associatedData: Hex.bytes(aad)) == nil)
    }

    @Test func whatItSealsOpensOnlyWithTheSameAssociatedData() throws {
        let cipher = AESGCM(key: Hex.bytes(String(repeating: "42", count: 32)))
        let sealed = try cipher.seal(Array("hello".utf8), associatedData: Array("mds".utf8))
        #expect(sealed.count == AESGCM.nonceSize + 5 + AESGCM.tagSize)
        #expect(cipher.open(sealed, associatedData: Array("mds".utf8)) == Array("hello".utf8))
        #expect(cipher.open(sealed, associatedData: Array("mda".utf8)) == nil)
    }
}

/// Hexadecimal test vectors.
enum Hex {
    static func bytes(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            out.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return out
    }
}
