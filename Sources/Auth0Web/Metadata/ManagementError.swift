import Web

/// Why a Management API call failed, from Auth0's error body and status: typed so the page can
/// say something plain and the log a stable code.
public struct ManagementError: HTTPResponseError, Equatable, CustomStringConvertible {
    /// What kind of failure, from the status (or no answer at all).
    public enum Kind: String, Sendable, CaseIterable {
        case unauthorized, forbidden, notFound, badRequest, rateLimited, serverError, timeout, unreachable, badResponse
        /// The provider is not Auth0: there is no Management API, so no metadata to read or save.
        case notOffered
    }

    /// What kind of failure.
    public let kind: Kind
    /// The Management API's status; 0 when there was no answer.
    public let answerStatus: Int
    /// Auth0's `errorCode` when it sent one (`insufficient_scope`, `too_many_requests`, …).
    public let errorCode: String?
    /// Seconds to wait before trying again (429), from `Retry-After` or `x-ratelimit-reset`.
    public let retryAfterSeconds: Int?
    /// True when it failed a read, not a save: the words then say so.
    public private(set) var reading = false

    /// An error of `kind`, with what the API said.
    public init(_ kind: Kind, status: Int = 0, errorCode: String? = nil, retryAfterSeconds: Int? = nil) {
        self.kind = kind
        self.answerStatus = status
        self.errorCode = errorCode
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// The same failure, met reading the metadata.
    func whileReading() -> ManagementError {
        var error = self
        error.reading = true
        return error
    }

    /// Reads an error answer: `{"statusCode","error","message","errorCode"}` and rate-limit headers.
    public init(response: HTTPClientResponse, now: Double) {
        let body = JSONValue.parse(response.body)
        let code = body?["errorCode"]?.string
        switch response.status {
        case 401: self.init(.unauthorized, status: 401, errorCode: code)
        case 403: self.init(.forbidden, status: 403, errorCode: code)
        case 404: self.init(.notFound, status: 404, errorCode: code)
        case 400: self.init(.badRequest, status: 400, errorCode: code)
        case 429:
            var wait: Int?
            if let retry = response.header("retry-after").flatMap({ Int($0.trimmingSpaces()) }) {
                wait = retry
            } else if let reset = response.header("x-ratelimit-reset").flatMap({ Double($0.trimmingSpaces()) }),
                reset.isFinite
            {
                // Clamped before converting: a reset of 1e300 or -inf is a bad header, not a crash.
                wait = Int(min(max((reset - now).rounded(.up), 1), 3600))
            }
            self.init(.rateLimited, status: 429, errorCode: code, retryAfterSeconds: wait.map { min(max($0, 1), 3600) })
        case 500...599: self.init(.serverError, status: response.status, errorCode: code)
        default: self.init(.badResponse, status: response.status, errorCode: code)
        }
    }

    /// The status of the page that says so: the API's own for what the person can act on,
    /// 503 for the tenant's trouble.
    public var status: Int {
        switch kind {
        case .unauthorized: 401
        case .rateLimited: 429
        case .badRequest: 400
        case .forbidden: 403
        case .notFound: 404
        case .serverError, .timeout, .unreachable, .badResponse: 503
        case .notOffered: 409  // the request is fine; this account has nowhere to keep it (never a 5xx)
        }
    }

    /// Its words in the pages' catalogue (`save.rate_limited_wait` says `{seconds}`).
    public var wordsKey: String {
        switch kind {
        case .rateLimited:
            switch retryAfterSeconds {
            case nil: "save.rate_limited"
            case 1: "save.rate_limited_wait_one"
            default: "save.rate_limited_wait"
            }
        case .serverError, .badResponse: reading ? "load.server_error" : "save.server_error"
        case .timeout, .unreachable: "save.unreachable"
        case .unauthorized: "save.unauthorized"
        case .forbidden: reading ? "load.forbidden" : "save.forbidden"
        case .notOffered: "metadata.not_offered"
        case .notFound: "save.not_found"
        case .badRequest: "save.bad_request"
        }
    }

    /// The seconds to wait, for `save.rate_limited_wait`.
    public var wordsArguments: [String: String] { retryAfterSeconds.map { ["seconds": String($0)] } ?? [:] }

    /// Every key `wordsKey` can be: every kind's, saving and reading, with each kind of wait.
    public static var allWordsKeys: [String] {
        let errors = Kind.allCases.flatMap { kind in
            [nil, 1, 2].flatMap { wait in
                let error = ManagementError(kind, retryAfterSeconds: wait)
                return [error, error.whileReading()]
            }
        }
        return Array(Set(errors.map(\.wordsKey))).sorted()
    }

    /// A stable code with the status and Auth0's `errorCode`, for the log.
    public var description: String {
        "management_api_\(kind.rawValue)" + (answerStatus > 0 ? " status=\(answerStatus)" : "")
            + (errorCode.map { " code=\($0)" } ?? "")
    }
}
