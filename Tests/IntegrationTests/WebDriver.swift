import CurlClient
import Foundation
import TestSupport
import Testing
import Web

/// A stack and a browser driving it: each test of a suite built on it gets its own of both.
class StackInBrowser {
    let stack: Stack
    let browser: WebDriver

    required init() throws {
        stack = try Self.makeStack()
        browser = try WebDriver()
    }
    deinit { stack.stop() }

    /// The stack each test gets (a suite overrides it for other settings).
    class func makeStack() throws -> Stack { try Stack() }

    /// axe-core from PyPI's axe-selenium-python (`scripts/fetch-axe`).
    static let axeSource: String = {
        let path = (try? Stack.check(Stack.repoRoot + "/scripts/fetch-axe", []))?.split(separator: "\n").last
        return path.flatMap { try? String(contentsOfFile: String($0), encoding: .utf8) } ?? ""
    }()

    /// axe-core's violations on the current page, one line each: rule (impact): elements.
    func violations() throws -> [String] {
        #expect(Self.axeSource.count > 100_000, "axe.min.js could not be read")
        try browser.execute(Self.axeSource + "\n;return true;")
        let answer = try browser.execute(
            """
            return axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v =>
              v.id + ' (' + v.impact + '): ' + v.nodes.map(n => n.target.join(' ')).join(', ')));
            """)
        guard let list = answer.array else { throw StackError("axe.run gave no list: \(answer)") }
        return list.compactMap(\.string)
    }

    /// Saves the current page as `screen` and expects axe to find nothing on it.
    func expectNoViolations(_ screen: String) throws {
        try browser.screenshot(screen)
        let found = try violations()
        #expect(found.isEmpty, "\(screen): \(found.joined(separator: "\n"))")
    }

    /// Waits for the browser to reach the dev tenant's login page.
    func waitForTenantLogin() throws {
        try browser.wait("the tenant's login page") {
            try browser.currentURL().hasPrefix(stack.tenantURL + "/authorize")
        }
    }

    /// Fills the tenant's login form with `user` and sends it (by clicks).
    func submitTenantLogin(_ user: (email: String, password: String)) throws {
        try browser.type(user.email, into: "#email")
        try browser.type(user.password, into: "#password")
        try browser.click("button[value=login]")
    }
}

/// Headless Chromium driven over the W3C WebDriver protocol by chromedriver: a real browser,
/// no Selenium. Screenshots and page sources go to `test-artifacts/`.
final class WebDriver: @unchecked Sendable {
    static let artifacts = Stack.repoRoot + "/test-artifacts/browser"
    private let http = CurlHTTPClient()
    private let driver: ChildProcess
    private let base: String
    private var session = ""

    /// Starts chromedriver on a free port and opens a browser session; `acceptLanguage` is the
    /// browser's language list (its `Accept-Language`), English by default.
    init(acceptLanguage: String? = nil) throws {
        let port = try Stack.freePort()
        driver = ChildProcess()
        driver.executableURL = URL(fileURLWithPath: "/usr/bin/chromedriver")
        driver.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        base = "http://127.0.0.1:\(port)"
        var ready = false
        for _ in 0..<100 where !ready {
            ready =
                (try? http.send(HTTPClientRequest(method: "GET", url: base + "/status", timeoutSeconds: 1)))?.status
                == 200
            if !ready { usleep(50_000) }
        }
        guard ready else { throw StackError("chromedriver did not start") }
        let capabilities: JSONValue = .object([
            "capabilities": .object([
                "alwaysMatch": .object([
                    "browserName": "chrome",
                    "goog:chromeOptions": .object([
                        "prefs": .object(["intl.accept_languages": .string(acceptLanguage ?? "en-US,en")]),
                        "binary": "/usr/bin/chromium",
                        "args": .array([
                            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            "--window-size=900,1000", "--no-first-run", "--disable-extensions",
                        ]),
                    ]),
                ])
            ])
        ])
        let answer = try call("POST", "/session", capabilities, sessionless: true)
        guard let id = answer["sessionId"]?.string else { throw StackError("no WebDriver session: \(answer)") }
        session = id
        try FileManager.default.createDirectory(atPath: WebDriver.artifacts, withIntermediateDirectories: true)
    }

    deinit {
        _ = try? call("DELETE", "", nil)
        _ = try? http.send(HTTPClientRequest(method: "GET", url: base + "/shutdown", timeoutSeconds: 2))
        // chromedriver may ignore SIGTERM: give it a moment, then make sure.
        for _ in 0..<40 where driver.isRunning { usleep(50_000) }
        if driver.isRunning { kill(driver.processIdentifier, SIGKILL) }
        driver.waitUntilExit()
    }

    // MARK: Navigation

    func open(_ url: String) throws { _ = try call("POST", "/url", .object(["url": .string(url)])) }
    func back() throws { _ = try call("POST", "/back", .object([:])) }
    func reload() throws { _ = try call("POST", "/refresh", .object([:])) }
    func currentURL() throws -> String { try call("GET", "/url", nil).string ?? "" }
    func title() throws -> String { try call("GET", "/title", nil).string ?? "" }
    func source() throws -> String { try call("GET", "/source", nil).string ?? "" }

    /// The cookies the browser would send to the current page's address (`Path` honoured),
    /// HttpOnly ones included, as name → path.
    func cookies() throws -> [String: String] {
        var found: [String: String] = [:]
        for cookie in try call("GET", "/cookie", nil).array ?? [] {
            if let name = cookie["name"]?.string { found[name] = cookie["path"]?.string ?? "" }
        }
        return found
    }

    /// The cookies the browser would send to the current page's address, as name → value.
    func cookieValues() throws -> [String: String] {
        var found: [String: String] = [:]
        for cookie in try call("GET", "/cookie", nil).array ?? [] {
            if let name = cookie["name"]?.string { found[name] = cookie["value"]?.string ?? "" }
        }
        return found
    }

    /// Sets a cookie for the current page's host, as if its server had set it.
    func addCookie(_ name: String, _ value: String, path: String = "/") throws {
        let cookie: JSONValue = .object(["name": .string(name), "value": .string(value), "path": .string(path)])
        _ = try call("POST", "/cookie", .object(["cookie": cookie]))
    }

    // MARK: Windows

    func windows() throws -> [String] { try call("GET", "/window/handles", nil).array?.compactMap(\.string) ?? [] }
    func currentWindow() throws -> String { try call("GET", "/window", nil).string ?? "" }
    func switchTo(window: String) throws { _ = try call("POST", "/window", .object(["handle": .string(window)])) }
    func newWindow() throws -> String {
        let handle = try call("POST", "/window/new", .object(["type": "window"]))["handle"]?.string ?? ""
        try switchTo(window: handle)
        return handle
    }

    // MARK: Elements

    struct Element {
        let id: String
    }

    func find(_ css: String) throws -> Element {
        let value = try call("POST", "/element", .object(["using": "css selector", "value": .string(css)]))
        guard let id = value.object?.values.first?.string else { throw StackError("no element \(css)") }
        return Element(id: id)
    }

    func findAll(_ css: String) throws -> [Element] {
        let value = try call("POST", "/elements", .object(["using": "css selector", "value": .string(css)]))
        return value.array?.compactMap { $0.object?.values.first?.string }.map(Element.init) ?? []
    }

    func click(_ css: String) throws { _ = try call("POST", "/element/\(try find(css).id)/click", .object([:])) }

    func type(_ text: String, into css: String) throws {
        let element = try find(css)
        _ = try call("POST", "/element/\(element.id)/clear", .object([:]))
        _ = try call("POST", "/element/\(element.id)/value", .object(["text": .string(text)]))
    }

    func text(_ css: String) throws -> String { try call("GET", "/element/\(try find(css).id)/text", nil).string ?? "" }

    func attribute(_ css: String, _ name: String) throws -> String? {
        try call("GET", "/element/\(try find(css).id)/attribute/\(name)", nil).string
    }

    func property(_ css: String, _ name: String) throws -> String? {
        try call("GET", "/element/\(try find(css).id)/property/\(name)", nil).string
    }

    /// Runs `script` in the page (a returned promise is awaited) and returns its value.
    @discardableResult
    func execute(_ script: String, _ arguments: [JSONValue] = []) throws -> JSONValue {
        try call("POST", "/execute/sync", .object(["script": .string(script), "args": .array(arguments)]))
    }

    /// Presses keys as a person does, on whatever has the focus (no element is targeted):
    /// each character of `text` goes down and up; `WebDriver.tab`, `.enter` and `.shift` are keys.
    func press(_ text: String) throws {
        var actions: [JSONValue] = []
        for key in text {
            actions.append(.object(["type": "keyDown", "value": .string(String(key))]))
            actions.append(.object(["type": "keyUp", "value": .string(String(key))]))
        }
        _ = try call(
            "POST", "/actions",
            .object(["actions": .array([.object(["type": "key", "id": "keyboard", "actions": .array(actions)])])]))
    }
    static let tab = "\u{E004}"
    static let enter = "\u{E007}"

    /// The focused element, described as `tag#id.class "text"`, and whether a focus ring shows
    /// (an outline that is not `none`, or a box shadow).
    func focus() throws -> (description: String, ringShows: Bool) {
        let answer = try execute(
            """
            const e = document.activeElement; const s = getComputedStyle(e);
            const text = (e.innerText || e.value || e.getAttribute('aria-label') || '').trim().slice(0, 40);
            return [e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' "' + text + '"',
                    (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none'];
            """)
        return (answer.array?.first?.string ?? "", answer.array?.last?.bool ?? false)
    }

    /// Tabs (at most `limit` times) until the focused element's description contains `target`.
    func tab(to target: String, limit: Int = 25) throws {
        for _ in 0..<limit {
            try press(WebDriver.tab)
            if try focus().description.contains(target) { return }
        }
        throw StackError("Tab never reached \(target); focus is on \(try focus().description)")
    }

    /// Renders the page as a screen `width` CSS pixels wide at `scale` (2 is a 200% zoom of a
    /// screen twice as wide), through Chromium's device emulation; nil restores the window.
    func emulate(width: Int?, height: Int = 800, scale: Double = 1) throws {
        if let width {
            _ = try call(
                "POST", "/goog/cdp/execute",
                .object([
                    "cmd": "Emulation.setDeviceMetricsOverride",
                    "params": .object([
                        "width": .number(Double(width)), "height": .number(Double(height)),
                        "deviceScaleFactor": .number(scale), "mobile": .bool(width < 600),
                    ]),
                ]))
        } else {
            _ = try call(
                "POST", "/goog/cdp/execute",
                .object(["cmd": "Emulation.clearDeviceMetricsOverride", "params": .object([:])]))
        }
    }

    /// Waits until `condition` holds (pages load after clicks), up to `seconds`.
    func wait(_ what: String, seconds: Double = 10, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if (try? condition()) == true { return }
            usleep(50_000)
        }
        throw StackError("timed out waiting for \(what); at \((try? currentURL()) ?? "?")")
    }

    /// Saves a PNG of the window as `test-artifacts/browser/NAME.png`.
    @discardableResult
    func screenshot(_ name: String) throws -> String {
        let data = try call("GET", "/screenshot", nil).string.flatMap { Data(base64Encoded: $0) } ?? Data()
        let path = "\(WebDriver.artifacts)/\(name).png"
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Keeps what a failing test saw: a screenshot and the page source.
    func recordFailure(_ name: String) {
        _ = try? screenshot("FAILED-" + name)
        try? (try? source())?.write(
            toFile: "\(WebDriver.artifacts)/FAILED-\(name).html", atomically: true, encoding: .utf8)
    }

    // MARK: Protocol

    private func call(_ method: String, _ path: String, _ body: JSONValue?, sessionless: Bool = false) throws
        -> JSONValue
    {
        let url = base + (sessionless ? "" : "/session/\(session)") + path
        let request = HTTPClientRequest(
            method: method, url: url, headers: [("Content-Type", "application/json")], body: body?.serialized() ?? [],
            timeoutSeconds: 60)
        let response = try http.send(request)
        let json = JSONValue.parse(response.body) ?? .null
        guard response.status == 200 else {
            throw StackError(
                "WebDriver \(method) \(path): \(response.status) \(json["value"]?["message"]?.string ?? "")")
        }
        return json["value"] ?? .null
    }
}
