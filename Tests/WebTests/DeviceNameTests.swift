import Testing
import Web

/// The browser and system "Your sessions" names, from real browsers' User-Agent strings.
@Suite struct DeviceNameTests {
    @Test(arguments: [
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
            "Chrome", "Windows"
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
            "Edge", "Windows"
        ),
        ("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox", "Linux"),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
            "Safari", "macOS"
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
            "Chrome", "iPhone"
        ),
        (
            "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
            "Samsung Internet", "Android"
        ),
        (
            "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
            "Chrome", "ChromeOS"
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0",
            "Opera", "Windows"
        ),
    ])
    func commonBrowsersAreNamedAsPeopleKnowThem(userAgent: String, browser: String, system: String) {
        #expect(DeviceName(userAgent: userAgent) == DeviceName(browser: browser, system: system))
    }

    @Test func whatIsNotKnownStaysUnnamed() {
        #expect(DeviceName(userAgent: nil) == DeviceName(browser: nil, system: nil))
        #expect(DeviceName(userAgent: "") == DeviceName(browser: nil, system: nil))
        #expect(DeviceName(userAgent: "SomeBot/1.0") == DeviceName(browser: nil, system: nil))
        #expect(
            DeviceName(userAgent: "Mozilla/5.0 (Windows NT 10.0) Unknown/1")
                == DeviceName(browser: nil, system: "Windows"))
    }
}
