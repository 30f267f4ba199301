import Foundation
import Web

/// A dev tenant file with the demo people plus people whose metadata is hostile or odd.
enum TestTenant {
    static let mallory = (email: "mallory@example.com", password: "Mallory-pass-1!")
    static let oddTypes = (email: "odd@example.com", password: "Odd-pass-1!")

    /// The client id of the application `writeVariant` adds for `private_key_jwt`.
    static let privateKeyClient = "metadata-demo-pkjwt"

    /// `make run`'s tenant, written into `directory` as `name`, with Pushed Authorization Requests
    /// allowed (Auth0's tenant setting) and required of the dev application (its application
    /// setting) when `pushing`; with `credential` (a PEM public key, its `alg`), an application
    /// `privateKeyClient` like the dev one that proves itself with that Private Key JWT credential
    /// alone (no secret), requiring PAR too when `pushing`. `dpop` allows DPoP (`.nonce`: proofs
    /// must carry the tenant's nonce).
    static func writeVariant(
        into directory: String, name: String, pushing: Bool, credential: (pem: String, alg: String)? = nil,
        dpop: (allowed: Bool, nonce: Bool) = (false, false)
    ) throws -> String {
        try write(into: directory, name: name) { document in
            guard case .array(var clients)? = document["clients"],
                case .object(var dev)? = clients.first(where: { $0["client_id"] == "metadata-demo-dev" })
            else { throw StackError("tenant.json is not what the tests expect") }
            document["tenant"] = .object([
                "allow_pushed_authorization_requests": .bool(pushing), "allow_dpop": .bool(dpop.allowed),
                "dpop_requires_nonce": .bool(dpop.nonce),
            ])
            dev["require_pushed_authorization_requests"] = .bool(pushing)
            clients = clients.map { $0["client_id"] == "metadata-demo-dev" ? .object(dev) : $0 }
            if let credential {
                dev["client_id"] = .string(privateKeyClient)
                dev["client_secret"] = nil
                dev["client_authentication_methods"] = .object([
                    "private_key_jwt": .object([
                        "credentials": .array([
                            .object([
                                "credential_type": "public_key", "name": "test key", "pem": .string(credential.pem),
                                "alg": .string(credential.alg),
                            ])
                        ])
                    ])
                ])
                clients.append(.object(dev))
            }
            document["clients"] = .array(clients)
        }
    }

    /// The Management API scopes a management application needs to set the tenant up
    /// (`metadata-demo auth0 apply`), and to end a person's sessions.
    static let setupScopes = [
        "read:clients", "create:clients", "update:clients", "read:client_credentials", "create:client_credentials",
        "read:resource_servers", "create:resource_servers", "update:resource_servers", "read:client_grants",
        "create:client_grants", "update:client_grants", "read:connections", "update:connections", "read:actions",
        "create:actions", "update:actions", "read:guardian_factors", "update:guardian_factors", "read:tenant_settings",
        "update:tenant_settings", "delete:sessions",
    ]

    /// A tenant as a new Auth0 tenant is before the site is set up: `make run`'s people, no
    /// application but a management one (`admin`, granted `scopes`), no API, no Action, no MFA
    /// factor enabled.
    static func writeBare(
        into directory: String, admin: (id: String, secret: String), scopes: [String] = setupScopes,
        tenant: JSONValue? = nil
    ) throws -> String {
        try write(into: directory, name: "tenant-bare.json") { document in
            document["clients"] = .array([
                .object([
                    "name": "tenant admin", "client_id": .string(admin.id), "client_secret": .string(admin.secret),
                    "app_type": "non_interactive", "grant_types": .array(["client_credentials"]),
                    "management_api_scopes": .array(scopes.map(JSONValue.string)),
                ])
            ])
            for key in ["resource_servers", "actions", "guardian_factors", "tenant"] { document[key] = nil }
            document["tenant"] = tenant
        }
    }

    /// `make run`'s tenant as `edit` changes it, written into `directory` as `name`.
    static func write(
        into directory: String, name: String, _ edit: (inout [String: JSONValue]) throws -> Void
    ) throws -> String {
        let base = try String(contentsOfFile: Stack.repoRoot + "/deploy/dev-tenant/tenant.json", encoding: .utf8)
        guard case .object(var document)? = JSONValue.parse(Array(base.utf8)) else {
            throw StackError("tenant.json is not what the tests expect")
        }
        try edit(&document)
        let path = directory + "/" + name
        try Data(JSONValue.object(document).serialized()).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `make run`'s tenant whose Announcements API also has `write:announcements`, which its
    /// refresh-token policy allows and skippy holds: two apps on one API may ask different scopes.
    static func writeWithAnnouncementsWriting(into directory: String) throws -> String {
        let api = "https://announcements.metadata-demo.example/"
        return try write(into: directory, name: "tenant-writing.json") { document in
            guard case .array(var servers)? = document["resource_servers"],
                case .array(var clients)? = document["clients"],
                case .array(var users)? = document["users"]
            else { throw StackError("tenant.json is not what the tests expect") }
            servers = try servers.map { server in
                guard server["identifier"] == .string(api) else { return server }
                guard case .object(var edited) = server, case .array(let scopes)? = edited["scopes"] else {
                    throw StackError("the Announcements API has no scopes")
                }
                edited["scopes"] = .array(
                    scopes + [.object(["value": "write:announcements", "description": "Write announcements"])])
                return .object(edited)
            }
            clients = clients.map { client in
                guard client["client_id"] == "metadata-demo-dev", case .object(var dev) = client,
                    case .object(var refresh)? = dev["refresh_token"], case .array(let policies)? = refresh["policies"]
                else { return client }
                refresh["policies"] = .array(
                    policies.map { policy in
                        guard policy["audience"] == .string(api) else { return policy }
                        return .object([
                            "audience": .string(api), "scope": .array(["read:announcements", "write:announcements"]),
                        ])
                    })
                dev["refresh_token"] = .object(refresh)
                return .object(dev)
            }
            users = users.map { user in
                guard user["email"] == "skippy@example.com", case .object(var edited) = user,
                    case .array(let held)? = edited["permissions"]
                else { return user }
                edited["permissions"] = .array(
                    held + [
                        .object([
                            "resource_server_identifier": .string(api), "permission_name": "write:announcements",
                        ])
                    ])
                return .object(edited)
            }
            document["resource_servers"] = .array(servers)
            document["clients"] = .array(clients)
            document["users"] = .array(users)
        }
    }

    /// Writes the file into `directory` and returns its path.
    static func writeConfig(into directory: String) throws -> String {
        try write(into: directory, name: "tenant.json") { document in
            guard case .array(var users)? = document["users"]
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
        }
    }

    /// `make run`'s tenant with the Account API's tokens living `lifetime` seconds and, unless
    /// `skippyReadsAccount`, skippy no longer holding `read:account` (a permission removed at the
    /// provider).
    static func writeAccountVariant(into directory: String, name: String, lifetime: Int, skippyReadsAccount: Bool)
        throws -> String
    {
        let api = "https://account.metadata-demo.example/"
        return try write(into: directory, name: name) { document in
            guard case .array(let servers)? = document["resource_servers"], case .array(let users)? = document["users"]
            else { throw StackError("tenant.json is not what the tests expect") }
            document["resource_servers"] = .array(
                servers.map { server in
                    guard server["identifier"] == .string(api), case .object(var edited) = server else { return server }
                    edited["token_lifetime"] = .number(Double(lifetime))
                    return .object(edited)
                })
            document["users"] = .array(
                users.map { user in
                    guard !skippyReadsAccount, user["email"] == "skippy@example.com", case .object(var edited) = user,
                        case .array(let held)? = edited["permissions"]
                    else { return user }
                    edited["permissions"] = .array(held.filter { $0["resource_server_identifier"] != .string(api) })
                    return .object(edited)
                })
        }
    }

    /// `make run`'s tenant where skippy holds `count` roles of 32 characters each: the ID token
    /// and the tokens for the APIs list them all, as a provider with many groups does.
    static func writeManyRoles(into directory: String, name: String, count: Int) throws -> String {
        try write(into: directory, name: name) { document in
            guard case .array(let users)? = document["users"] else {
                throw StackError("tenant.json is not what the tests expect")
            }
            let roles = (0..<count).map { JSONValue.string("directory-group-\(String(format: "%016d", $0))") }
            document["users"] = .array(
                users.map { user in
                    guard user["email"] == "skippy@example.com", case .object(var edited) = user else { return user }
                    edited["roles"] = .array(roles)
                    return .object(edited)
                })
        }
    }
}
