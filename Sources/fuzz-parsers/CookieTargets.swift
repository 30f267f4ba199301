import Auth0Web
import Web

// Sealed cookies open to exactly what was sealed, or not at all; cookie headers parse to tokens.

// swift-format-ignore: NeverUseForceTry
private let sessions = try! SessionCookies(
    secure: false, secrets: [String(repeating: "f", count: 32)], clock: Clock { 1_700_000_000 },
    accessTokenPath: "/affirmation")
// swift-format-ignore: NeverUseForceTry
private let sealedPair = try! sessions.store(
    Session(
        profile: .init(sub: "auth0|1", name: "N", email: "e@x", emailVerified: true, picture: "", updatedAt: ""),
        accessToken: AccessToken(value: "AT", expiresAt: 1_700_086_400), refreshToken: nil, tenantSessionID: nil,
        csrfToken: "c", createdAt: 1_700_000_000)
).map(\.value)
private let (sealed, sealedAccessToken) = (sealedPair[0], sealedPair[1])
// swift-format-ignore: NeverUseForceTry
private let sealedFlash = try! sessions.storeFlash("saved")[0]

let cookieTargets = [
    FuzzTarget(name: "session-cookie") { input in
        let cookies = Cookies(header: "mds=" + String(decoding: input, as: UTF8.self))
        if sessions.load(from: cookies).session != nil {
            precondition(Base64URL.decode(cookies["mds"] ?? "") == Base64URL.decode(sealed), "an altered cookie opened")
        }
    },
    FuzzTarget(name: "access-token-cookie") { input in
        let cookies = Cookies(header: "mds=\(sealed); mda=" + String(decoding: input, as: UTF8.self))
        if sessions.load(from: cookies, includingAccessToken: true).session?.accessToken != nil {
            precondition(
                Base64URL.decode(cookies["mda"] ?? "") == Base64URL.decode(sealedAccessToken),
                "an altered access-token cookie opened")
        }
    },
    FuzzTarget(name: "flash-cookie") { input in
        let cookies = Cookies(header: "\(sealedFlash.name)=" + String(decoding: input, as: UTF8.self))
        if let opened = sessions.openFlash(from: cookies) {
            precondition(opened == "saved", "an altered flash opened to something else")
            precondition(
                Base64URL.decode(cookies[sealedFlash.name] ?? "") == Base64URL.decode(sealedFlash.value),
                "an altered flash cookie opened")
        }
    },
    FuzzTarget(name: "cookie-header") { input in
        let header = String(decoding: input, as: UTF8.self)
        let cookies = Cookies(header: header)
        for pair in cookies.pairs {
            precondition(!pair.name.isEmpty && pair.name.utf8.allSatisfy(SetCookie.isTokenByte), "bad cookie name")
        }
        // A cookie is found under each name parsed, first sent first.
        for pair in cookies.pairs {
            precondition(cookies[pair.name] != nil, "a parsed cookie is not found by its name")
        }
    },
]
