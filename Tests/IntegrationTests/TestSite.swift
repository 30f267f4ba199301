import Foundation
import Testing

/// Where a suite meets the product: `Stack` (nginx, the worker and the dev tenant as processes
/// over sockets) or `InProcessSite` (the same pipeline and the same dev tenant answered in this
/// process). A suite written against it runs both ways (`SiteKind`), as hummingbird's router
/// and live test frameworks run one suite: behaviour once, transport twice.
protocol TestSite: AnyObject, Sendable {
    /// The product's address, as a browser reaches it.
    var baseURL: String { get }
    /// The dev tenant's address.
    var tenantURL: String { get }
    /// The folder holding the dev tenant's state file (`dev-tenant-state.json`).
    var runDir: String { get }
    /// A browser with an empty cookie jar.
    func browser() -> TestClient
    /// Starts the dev tenant again (its people and their metadata kept) with these settings added.
    func restartTenant(_ extra: [String: String]) throws
    /// How many requests to the tenant under `path` (a prefix) it answered, with `status` if given.
    func tenantRequests(path: String, status: Int?) throws -> Int
    /// The sum of a metric's samples on the product's `/metrics`.
    func metric(_ name: String) throws -> Double
}

/// The two ways a suite can run.
enum SiteKind: String, CaseIterable, CustomTestStringConvertible {
    case inProcess, throughNginx

    var testDescription: String { rawValue }

    /// A fresh site of this kind: the worker and the tenant given these settings.
    func open(workerEnvironment: [String: String] = [:], tenantEnvironment: [String: String] = [:]) throws
        -> any TestSite
    {
        switch self {
        case .inProcess:
            try InProcessSite(workerEnvironment: workerEnvironment, tenantEnvironment: tenantEnvironment)
        case .throughNginx:
            try Stack(workerEnvironment: workerEnvironment, tenantEnvironment: tenantEnvironment)
        }
    }
}

extension Stack: TestSite {
    func browser() -> TestClient { TestClient() }

    func tenantRequests(path: String, status: Int?) throws -> Int {
        // The dev tenant's request lines: `… path=/oauth/token status=200 …`.
        try log("dev-tenant").split(separator: "\n").filter { line in
            guard let range = line.range(of: " path=" + path) else { return false }
            guard let status else { return true }
            let rest = line[range.upperBound...]
            return rest.range(of: " status=\(status) ") != nil || rest.hasSuffix(" status=\(status)")
        }.count
    }
}
