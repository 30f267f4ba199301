import Web

extension Pages {
    /// The page for an error thrown by a handler: its own status and words when it is one of
    /// ours, a plain 500 otherwise (never a stack trace).
    func page(for error: any Error) -> Response {
        if let error = error as? any HTTPResponseError {
            return problem(status: error.status, title: Pages.title(for: error.status), message: error.publicMessage)
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

    static func title(for status: Int) -> String {
        switch status {
        case 400: "Bad request"
        case 403: "Not allowed"
        case 404: "Page not found"
        case 413: "Too large"
        case 415: "Unsupported form"
        default: status >= 500 ? "Something went wrong" : "That did not work"
        }
    }
}
