import OpenSSLCrypto
import Web

/// `/api/v2/clients`: applications listed (paginated, by fields), read, created (with a new
/// `client_id` and `client_secret`) and changed, and their public-key credentials (Private Key
/// JWT, JAR). A stored application is checked as the tenant file's are, so what is accepted logs in.
extension DevTenant {
    static let clientRoutes: [AdminRoute] = [
        AdminRoute(method: "GET", path: ["clients"], scope: "read:clients") { try $0.listClients($1) },
        AdminRoute(method: "POST", path: ["clients"], scope: "create:clients") { try $0.createClient($1) },
        AdminRoute(method: "GET", path: ["clients", "*"], scope: "read:clients") { try $0.readClient($1) },
        AdminRoute(method: "PATCH", path: ["clients", "*"], scope: "update:clients") { try $0.updateClient($1) },
        AdminRoute(method: "GET", path: ["clients", "*", "credentials"], scope: "read:client_credentials") {
            try $0.listCredentials($1)
        },
        AdminRoute(method: "POST", path: ["clients", "*", "credentials"], scope: "create:client_credentials") {
            try $0.createCredential($1)
        },
    ]

    /// The key under which a stored application keeps its credentials (never shown as such).
    static let credentialsKey = "__credentials"

    private func listClients(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        let perPage = Int(call.query["per_page"] ?? "50") ?? -1
        let page = Int(call.query["page"] ?? "0") ?? -1
        guard (1...100).contains(perPage), page >= 0 else {
            throw ManagementRefusal(
                response: Self.errorBody(
                    400, "Bad Request", "Query validation error: 'per_page' must be 1 to 100, 'page' 0 or more",
                    code: "invalid_query_string"))
        }
        let all = directory.read(\.clients)
        let listed = all.dropFirst(page * perPage).prefix(perPage).map {
            JSONValue.object(Self.selectingFields(shown($0, call), call.query))
        }
        guard call.query["include_totals"] == "true" else { return Self.document(.array(Array(listed))) }
        return Self.document(
            .object([
                "clients": .array(Array(listed)), "start": .number(Double(page * perPage)),
                "limit": .number(Double(perPage)), "total": .number(Double(all.count)),
            ]))
    }

    private func readClient(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        let id = call.parameters[0]
        guard let document = directory.read({ $0.clients.first { $0["client_id"]?.string == id } }) else {
            throw Self.inexistent("client", code: "inexistent_client")
        }
        return Self.document(.object(Self.selectingFields(shown(document, call), call.query)))
    }

    private func createClient(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        // A null is a property not given.
        var document = (try call.body(ManagementShapes.clientCreate).object ?? [:]).filter { $0.value != .null }
        try Self.refuseCredentialReferences(document)
        document["client_id"] = .string(TenantDirectory.newID(32))
        if document["token_endpoint_auth_method"]?.string != "none" {
            document["client_secret"] = .string(TenantDirectory.newID(64))
        }
        if document["token_endpoint_auth_method"] == nil {
            document["token_endpoint_auth_method"] = "client_secret_post"
        }
        document["callbacks"] = document["callbacks"] ?? .array([])
        try checkClient(&document)
        let stored = document
        try changing { $0.clients.append(stored) }
        // The secret is shown to the creator, whatever its token's scopes.
        return Self.document(.object(Self.visible(stored)), status: 201)
    }

    private func updateClient(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        let id = call.parameters[0]
        let change = try call.body(.object(ManagementShapes.clientUpdate)).object ?? [:]
        let updated = try updating(
            \.clients, where: { $0["client_id"]?.string == id },
            missing: Self.inexistent("client", code: "inexistent_client")
        ) { (document) throws(ManagementRefusal) in
            for (key, value) in change { document[key] = value == .null ? nil : value }
            document["updated_at"] = .string(timestamp)
            try checkClient(&document)
        }
        return Self.document(.object(shown(updated, call)))
    }

    private func listCredentials(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        let id = call.parameters[0]
        guard let document = directory.read({ $0.clients.first { $0["client_id"]?.string == id } }) else {
            throw Self.inexistent("client", code: "inexistent_client")
        }
        let credentials = document[Self.credentialsKey]?.array ?? []
        return Self.document(.array(credentials.map { .object(($0.object ?? [:]).filter { $0.key != "pem" }) }))
    }

    private func createCredential(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        let id = call.parameters[0]
        let body = try call.body(ManagementShapes.credentialCreate).object ?? [:]
        guard body["credential_type"]?.string == "public_key", let pem = body["pem"]?.string,
            let key = try? RSAPublicKey(pem: pem), let (modulus, exponent) = try? key.components()
        else {
            throw ManagementRefusal(
                response: Self.invalidPayload("'pem must be an RSA public key of 2048 bits or more' on property pem"))
        }
        let kid = Self.thumbprint(modulus: modulus, exponent: exponent)
        let credential: [String: JSONValue] = [
            "id": .string("cred_" + TenantDirectory.newID(22)), "name": body["name"] ?? .string(""),
            "credential_type": "public_key", "kid": .string(kid), "alg": body["alg"] ?? "RS256",
            "pem": .string(pem), "created_at": .string(timestamp), "updated_at": .string(timestamp),
        ]
        try changing { (objects) throws(ManagementRefusal) in
            guard let index = objects.clients.firstIndex(where: { $0["client_id"]?.string == id }) else {
                throw Self.inexistent("client", code: "inexistent_client")
            }
            var credentials = objects.clients[index][Self.credentialsKey]?.array ?? []
            if credentials.contains(where: { $0["kid"]?.string == kid }) {
                throw Self.conflict("A credential with the same kid already exists for this client.")
            }
            credentials.append(.object(credential))
            objects.clients[index][Self.credentialsKey] = .array(credentials)
        }
        return Self.document(.object(credential.filter { $0.key != "pem" }), status: 201)
    }

    /// Checks an application as the tenant file's are, its credential references resolved to
    /// the keys it holds; Auth0's 400 naming the first problem.
    private func checkClient(_ document: inout [String: JSONValue]) throws(ManagementRefusal) {
        if document["token_endpoint_auth_method"] ?? .null != .null,
            document["client_authentication_methods"] ?? .null != .null
        {
            throw ManagementRefusal(
                response: Self.invalidPayload(
                    "'token_endpoint_auth_method and client_authentication_methods are mutually exclusive'"))
        }
        var resolved = document
        let held = document[Self.credentialsKey]?.array ?? []
        for path in [["client_authentication_methods", "private_key_jwt"], ["signed_request_object"]] {
            guard var holder = resolved[path[0]]?.object else { continue }
            var inner = path.count == 2 ? holder[path[1]]?.object ?? [:] : holder
            var keys: [JSONValue] = []
            for reference in inner["credentials"]?.array ?? [] {
                guard let key = held.first(where: { $0["id"] == reference["id"] }) else {
                    throw ManagementRefusal(
                        response: Self.invalidPayload("'credential \(reference["id"]?.string ?? "") does not exist'"))
                }
                keys.append(key)
            }
            if inner["credentials"] != nil { inner["credentials"] = .array(keys) }
            if path.count == 2 { holder[path[1]] = .object(inner) } else { holder = inner }
            resolved[path[0]] = .object(holder)
        }
        var problems: [String] = []
        _ = TenantConfig.Client(document: .object(resolved), problems: &problems)
        if resolved["require_pushed_authorization_requests"]?.bool == true, !config.allowsPushedAuthorization {
            problems.append(
                "require_pushed_authorization_requests needs the tenant to allow pushed authorization requests")
        }
        if let problem = problems.first {
            throw ManagementRefusal(response: Self.invalidPayload("'\(problem)'"))
        }
        document = resolved
    }

    /// A new application cannot name credentials: it has none yet.
    private static func refuseCredentialReferences(_ document: [String: JSONValue]) throws(ManagementRefusal) {
        guard document["client_authentication_methods"] == nil, document["signed_request_object"]?["credentials"] == nil
        else {
            throw ManagementRefusal(
                response: invalidPayload("'credentials are added with POST /api/v2/clients/{id}/credentials'"))
        }
    }

    /// An application as a call's token may see it: its secret only with `read:client_keys`.
    private func shown(_ document: [String: JSONValue], _ call: AdminCall) -> [String: JSONValue] {
        var visible = Self.visible(document)
        if !call.scopes.contains("read:client_keys") { visible["client_secret"] = nil }
        return visible
    }

    /// An application as the Management API shows it: its credentials by id alone.
    static func visible(_ document: [String: JSONValue]) -> [String: JSONValue] {
        var visible = document.filter { !$0.key.hasPrefix("__") }
        func references(_ value: JSONValue?) -> JSONValue? {
            value?.array.map { .array($0.map { .object(["id": $0["id"] ?? .null]) }) }
        }
        if var methods = visible["client_authentication_methods"]?.object,
            var keyJWT = methods["private_key_jwt"]?.object
        {
            keyJWT["credentials"] = references(keyJWT["credentials"])
            methods["private_key_jwt"] = .object(keyJWT)
            visible["client_authentication_methods"] = .object(methods)
        }
        if var signed = visible["signed_request_object"]?.object, signed["credentials"] != nil {
            signed["credentials"] = references(signed["credentials"])
            visible["signed_request_object"] = .object(signed)
        }
        return visible
    }

    /// The RFC 7638 thumbprint of an RSA key: the `kid` Auth0 gives a credential.
    static func thumbprint(modulus: [UInt8], exponent: [UInt8]) -> String {
        let members: JSONValue = .object([
            "e": .string(Base64URL.encode(exponent)), "kty": "RSA", "n": .string(Base64URL.encode(modulus)),
        ])
        return Base64URL.encode(SHA256.hash(members.serialized()))
    }
}
