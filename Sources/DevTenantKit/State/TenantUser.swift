import Foundation
import Web

/// One person of the dev tenant, shaped like Auth0's user object.
struct TenantUser: Sendable {
    var userID: String
    var email: String
    var password: String
    var name: String
    var nickname: String
    var picture: String
    var emailVerified: Bool
    var userMetadata: [String: JSONValue]
    var appMetadata: [String: JSONValue]
    var createdAt: String
    var updatedAt: String
    var blocked: Bool
    /// The base32 secret of the person's one-time-code authenticator (`mfa_totp_secret`), for
    /// Auth0's multi-factor step; nil: not enrolled.
    var totpSecret: String?

    /// A user from its saved or seed JSON; nil when it lacks an id, email or password.
    init?(json: JSONValue, issuer: String, now: String) {
        guard let id = json["user_id"]?.string, let email = json["email"]?.string,
            let password = json["password"]?.string
        else { return nil }
        userID = id
        self.email = email
        self.password = password
        name = json["name"]?.string ?? email
        nickname = json["nickname"]?.string ?? String(email.prefix { $0 != "@" })
        picture = json["picture"]?.string ?? TenantUser.avatarURL(issuer: issuer, nickname: nickname)
        emailVerified = json["email_verified"]?.bool ?? false
        userMetadata = json["user_metadata"]?.object ?? [:]
        appMetadata = json["app_metadata"]?.object ?? [:]
        createdAt = json["created_at"]?.string ?? now
        updatedAt = json["updated_at"]?.string ?? now
        blocked = json["blocked"]?.bool ?? false
        totpSecret = json["mfa_totp_secret"]?.string
    }

    /// Like Auth0's generated avatars: two letters on a coloured disc, served by the tenant.
    static func avatarURL(issuer: String, nickname: String) -> String {
        let letters = nickname.lowercased().filter { $0.isLetter && $0.isASCII }.prefix(2)
        return issuer + "avatars/\(letters.isEmpty ? "u" : String(letters)).svg"
    }

    /// The whole user as the Management API shows it (never the password).
    var managementJSON: [String: JSONValue] {
        [
            "user_id": .string(userID), "email": .string(email), "email_verified": .bool(emailVerified),
            "name": .string(name), "nickname": .string(nickname), "picture": .string(picture),
            "created_at": .string(createdAt), "updated_at": .string(updatedAt),
            "user_metadata": .object(userMetadata), "app_metadata": .object(appMetadata),
            "blocked": .bool(blocked),
            "identities": .array([
                .object([
                    "connection": "Username-Password-Authentication", "provider": "auth0",
                    "user_id": .string(String(userID.split(separator: "|").last ?? "")), "isSocial": .bool(false),
                ])
            ]),
        ]
    }

    /// What the state file keeps (with the password, as the seed file does).
    var savedJSON: JSONValue {
        var json = managementJSON
        json["password"] = .string(password)
        if let totpSecret { json["mfa_totp_secret"] = .string(totpSecret) }
        json["identities"] = nil
        return .object(json)
    }

    /// The profile claims of ID tokens and `/userinfo`.
    var profileClaims: [String: JSONValue] {
        [
            "sub": .string(userID), "name": .string(name), "nickname": .string(nickname), "picture": .string(picture),
            "updated_at": .string(updatedAt), "email": .string(email), "email_verified": .bool(emailVerified),
        ]
    }
}
