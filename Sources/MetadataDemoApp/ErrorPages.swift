import Web

extension Pages {
    /// The page for an error thrown by a handler: its own status, title and words when it is
    /// an `HTTPResponseError`, a plain 500 otherwise (never a stack trace).
    public func page(for error: any Error) -> Response {
        if let error = error as? any HTTPResponseError {
            return problem(
                status: error.status, title: error.title, message: error.publicMessage, offerLogin: error.offersLogin)
        }
        return problem(
            status: 500, title: "Something went wrong",
            message: "The page could not be shown. Please try again in a moment.")
    }

    /// 404 for a path the site does not have.
    func notFound() -> Response {
        problem(status: 404, title: "Page not found", message: "There is no page at this address.")
    }

    /// 405 with `Allow`.
    func methodNotAllowed(allow: String) -> Response {
        var response = problem(
            status: 405, title: "Not allowed", message: "This page cannot be used that way.")
        response.add("Allow", allow)
        return response
    }
}
