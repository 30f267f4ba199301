import Foundation
import Glibc
import Testing

/// The worker process itself reading a tenant answer nested 400 deep (a person can store such
/// `user_metadata` through any other client of the tenant): the Management API is pointed at a
/// local HTTP peer that serves it. It used to overflow a serving thread and kill the worker.
@Suite(.serialized) final class DeepMetadataTests {
    let directory = NSTemporaryDirectory() + "deep-api-\(UUID().uuidString.prefix(8))"
    let peer: LocalHTTPPeer
    let stack: Stack

    init() throws {
        let users = directory + "/api/v2/users"
        try FileManager.default.createDirectory(atPath: users, withIntermediateDirectories: true)
        let deep =
            #"{"user_metadata":"# + String(repeating: #"{"a":"#, count: 400) + "1" + String(repeating: "}", count: 400)
            + #","app_metadata":{}}"#
        // http.server decodes the path: /api/v2/users/auth0%7C… is the file auth0|….
        try deep.write(toFile: users + "/auth0|6489e0a1c2b3d4e5f6a7b8ca", atomically: true, encoding: .utf8)
        peer = try LocalHTTPPeer(serving: directory)
        // The Management API base follows AUTH0_AUDIENCE when it is one (…/api/v2/).
        stack = try Stack(workerEnvironment: ["AUTH0_AUDIENCE": "http://127.0.0.1:\(peer.port)/api/v2/"])
    }

    deinit {
        peer.stop()
        stack.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    @Test func deeplyNestedMetadataIsABadAnswerAndTheWorkerServesOn() throws {
        let browser = TestClient()
        let callback = try browser.logIn(stack, as: DemoUser.skippy)
        #expect(callback.status == 302)  // the login stands; a crashed worker answered 502
        let home = try browser.get(stack.baseURL + "/")
        #expect(home.status == 200)
        #expect(home.body.contains("You’re logged in!"))
        #expect(home.body.contains("Your affirmation could not be loaded"))
        #expect(stack.isRunning("worker"))
    }
}
