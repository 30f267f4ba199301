import Foundation
import TestSupport
import Testing

/// What the deploy guide must tell an operator about the libraries and the sibling app's origin.
@Suite struct SecurityNoticeTests {
    let guide = (try? String(contentsOfFile: Stack.repoRoot + "/deploy/README.md", encoding: .utf8)) ?? ""

    /// The guide names the lowest Debian 12 libfcgi with the fix for CVE-2025-23016, and this
    /// machine's libfcgi is at least that.
    @Test func libfcgiHasTheFixForCVE2025_23016() throws {
        #expect(guide.contains("CVE-2025-23016"))
        #expect(guide.contains("libfcgi0ldbl 2.4.2-2+deb12u1"))
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "-c",
            "dpkg --compare-versions \"$(dpkg-query -W -f='${Version}' libfcgi0ldbl)\" ge 2.4.2-2+deb12u1",
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "libfcgi0ldbl is older than the fixed 2.4.2-2+deb12u1")
    }

    @Test func theGuideSaysSiblingAppsShareTheOriginAndHowToSeparateThem() {
        #expect(guide.contains("shares this site's origin"))
        #expect(guide.contains("origin of its own"))
        #expect(guide.contains("Content-Security-Policy of its own"))
    }
}
