import Foundation
import Web

/// A dev tenant file with the demo people plus people whose metadata is hostile or odd.
enum TestTenant {
    static let mallory = (email: "mallory@example.com", password: "Mallory-pass-1!")
    static let oddTypes = (email: "odd@example.com", password: "Odd-pass-1!")

    /// `make run`'s tenant with Pushed Authorization Requests allowed (Auth0's tenant setting) and
    /// required of the dev application (its application setting), written into `directory`.
    static func writePushingConfig(into directory: String) throws -> String {
        let base = try String(contentsOfFile: Stack.repoRoot + "/deploy/dev-tenant/tenant.json", encoding: .utf8)
        guard case .object(var document)? = JSONValue.parse(Array(base.utf8)),
            case .array(let clients)? = document["clients"]
        else { throw StackError("tenant.json is not what the tests expect") }
        document["tenant"] = .object(["allow_pushed_authorization_requests": .bool(true)])
        document["clients"] = .array(
            clients.map { client in
                guard case .object(var fields) = client, client["client_id"] == "metadata-demo-dev" else {
                    return client
                }
                fields["require_pushed_authorization_requests"] = .bool(true)
                return .object(fields)
            })
        let path = directory + "/tenant-pushing.json"
        try Data(JSONValue.object(document).serialized()).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Writes the file into `directory` and returns its path.
    static func writeConfig(into directory: String) throws -> String {
        let base = try String(contentsOfFile: Stack.repoRoot + "/deploy/dev-tenant/tenant.json", encoding: .utf8)
        guard case .object(var document)? = JSONValue.parse(Array(base.utf8)),
            case .array(var users)? = document["users"]
        else { throw StackError("tenant.json is not what the tests expect") }
        users.append(
            .object([
                "user_id": "auth0|mallory", "email": .string(mallory.email), "password": .string(mallory.password),
                "name": "<img src=x onerror=alert(1)>", "email_verified": .bool(true),
                "user_metadata": .object(["personal_affirmation": "<script>alert(1)</script>"]),
                "app_metadata": .object([
                    "display_announcement": .bool(true), "announcement_text": "<b>Click</b>",
                    "announcement_url": "javascript:alert(document.cookie)",
                ]),
            ]))
        users.append(
            .object([
                "user_id": "auth0|odd", "email": .string(oddTypes.email), "password": .string(oddTypes.password),
                "email_verified": .bool(true), "user_metadata": .object(["personal_affirmation": .number(42)]),
                "app_metadata": .object([
                    "display_announcement": "true", "announcement_text": "Tap",
                    "announcement_url": "https://example.com",
                ]),
            ]))
        document["users"] = .array(users)
        let path = directory + "/tenant.json"
        try Data(JSONValue.object(document).serialized()).write(to: URL(fileURLWithPath: path))
        return path
    }
}
