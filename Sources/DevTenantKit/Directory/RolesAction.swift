import Foundation

/// The post-login Action that puts a person's roles in their ID tokens, as Auth0's guide writes it:
/// `api.idToken.setCustomClaim("CLAIM", event.authorization.roles)`. The dev tenant runs no
/// JavaScript: it recognises that one statement in a deployed, bound Action's code and does what
/// it says, and nothing else an Action's code says.
enum RolesAction {
    /// The claim the code sets to the person's roles, when it holds that statement.
    static func claim(inCode code: String) -> String? {
        let pattern = #"api\.idToken\.setCustomClaim\(\s*["']([^"'\\]+)["']\s*,\s*event\.authorization\??\.roles"#
        guard let expression = try? NSRegularExpression(pattern: pattern),
            let match = expression.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)),
            let range = Range(match.range(at: 1), in: code)
        else { return nil }
        return String(code[range])
    }

    /// Code that puts roles under `claim`, as the tenant file's `actions.roles_claim` stands for.
    static func code(claim: String) -> String {
        "exports.onExecutePostLogin = async (event, api) => {\n"
            + "  api.idToken.setCustomClaim(\"\(claim)\", event.authorization?.roles ?? []);\n};\n"
    }
}
