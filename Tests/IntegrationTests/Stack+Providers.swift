import Foundation
import TestSupport

/// OpenID providers from PyPI beside the stack (`scripts/fetch-oidc-provider`), and the worker
/// pointed at one of them.
extension Stack {
    /// Starts `arguments(port)` under the providers' Python as `name`, on a free port; returns the
    /// port once it accepts connections.
    func startProvider(_ name: String, _ arguments: (Int) -> [String]) throws -> Int {
        let output = try Stack.check(Stack.repoRoot + "/scripts/fetch-oidc-provider", [])
        guard let python = output.split(separator: "\n").last else { throw StackError("no Python: \(output)") }
        let port = try Stack.freePort()
        try start(name, String(python), arguments(port))
        guard LoopbackPort.waitUntilAccepting(port, seconds: 15) else {
            throw StackError("\(name) does not listen on port \(port): \(logForAMessage(name))")
        }
        return port
    }

    /// Default settings but the provider's `issuer` and the client.
    static func providerSettings(issuer: String, clientID: String, secret: String) -> [String: String] {
        [
            "AUTH0_DOMAIN": "", "ISSUER_BASE_URL": issuer, "AUTH0_CLIENT_ID": clientID, "AUTH0_CLIENT_SECRET": secret,
            "AUTH0_CLIENT_SECRET_FILE": "",
        ]
    }

    /// Starts worker `index` with default settings but the provider's `issuer` and the client.
    func startWorker(
        _ index: Int = 1, issuer: String, clientID: String, secret: String, _ extra: [String: String] = [:]
    ) throws {
        try startWorker(
            index,
            extra: Stack.providerSettings(issuer: issuer, clientID: clientID, secret: secret).merging(extra) { $1 })
    }
}

extension TestClient {
    /// `/login` on the product, the provider's sign-in form posted with `form`, and the callback
    /// it sends the browser to: the callback's answer.
    func logIn(_ stack: Stack, atProviderWith form: [(String, String)]) throws -> Answer {
        let authorize = try startLogin(stack)
        let signedIn = try post(authorize, form: form)
        guard let callback = signedIn.header("location"), callback.hasPrefix(stack.baseURL + "/callback?") else {
            throw StackError("the provider answered \(signedIn.status): \(signedIn.body)")
        }
        return try get(callback)
    }
}
