import Web

extension Pages {
    /// The page for an error thrown by a handler: its own status, title and words when it is
    /// an `HTTPResponseError`, a plain 500 otherwise (never a stack trace).
    public func page(for error: any Error) -> Response {
        if let error = error as? any HTTPResponseError {
            return problem(
                status: error.status, key: error.wordsKey, arguments: error.wordsArguments,
                offerLogin: error.offersLogin)
        }
        return problem(status: 500, key: "error.internal")
    }

    /// 404 for a path the site does not have.
    func notFound() -> Response {
        problem(status: 404, key: "error.not_found")
    }

    /// 405 with `Allow`.
    func methodNotAllowed(allow: String) -> Response {
        var response = problem(status: 405, key: "error.not_allowed")
        response.add("Allow", allow)
        return response
    }
}
