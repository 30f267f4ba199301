import Foundation
import Web

extension RefreshGrant {
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "family": .string(family), "client_id": .string(clientID), "user_id": .string(userID),
            "scope": .string(scope), "sid": .string(sessionID), "expires_at": .number(expiresAt), "used": .bool(used),
        ]
        if let audience { object["audience"] = .string(audience) }
        if let authTime { object["auth_time"] = .number(authTime) }
        if multiFactor { object["mfa"] = .bool(true) }
        return .object(object)
    }

    init?(json: JSONValue) {
        guard let family = json["family"]?.string, let client = json["client_id"]?.string,
            let user = json["user_id"]?.string, let scope = json["scope"]?.string, let sid = json["sid"]?.string,
            let expires = json["expires_at"]?.number, let used = json["used"]?.bool
        else { return nil }
        self.init(
            family: family, clientID: client, userID: user, scope: scope, audience: json["audience"]?.string,
            sessionID: sid, expiresAt: expires, used: used, authTime: json["auth_time"]?.number,
            multiFactor: json["mfa"]?.bool ?? false)
    }
}
