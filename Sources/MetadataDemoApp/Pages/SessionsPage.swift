import Auth0Web
import Web

#if canImport(Glibc)
    import Glibc
#endif

/// "Your sessions": the person's open sessions on this site, newest first, in words a person
/// knows ("Firefox on Windows", "2 hours ago"), each but this one with its own "Log out".
extension Pages {
    /// The list page; `entries` nil when the list could not be read (the store is away).
    public func sessions(_ session: Session, entries: [SessionRegistry.Entry]?, now: Int64, flash: Flash? = nil)
        -> Response
    {
        let current = session.publicID
        var listed = entries ?? []
        // This device is always listed, even before its first entry is written.
        if !listed.contains(where: { $0.id == current }) {
            listed.insert(
                SessionRegistry.Entry(
                    id: current, device: DeviceName(browser: nil, system: nil), startedAt: session.createdAt,
                    lastUsedAt: now, seenAtLogin: true), at: 0)
        }
        // The month names, read once a page rather than once a line.
        let months = say("sessions.months").split(separator: ",").map(String.init)
        let items: [TemplateContext] = listed.map { entry in
            let isCurrent = entry.id == current
            let device =
                isCurrent && entry.device == DeviceName(browser: nil, system: nil)
                ? say("sessions.this_browser") : deviceText(entry.device)
            return [
                "id": .text(entry.id), "device": .text(device), "current": .flag(isCurrent),
                "earlier": .flag(!entry.seenAtLogin),
                "began": .text(say("sessions.began", ["date": date(entry.startedAt, months: months)])),
                "lastUsed": .text(say("sessions.last_used", ["when": ago(now - entry.lastUsedAt)])),
                "logOutLabel": .text(say("sessions.log_out_session", ["device": device])),
            ]
        }
        var context: TemplateContext = [
            "csrf": .text(session.csrfToken), "sessions": .list(items),
            "hasOthers": .flag(listed.count > 1 || entries == nil), "unavailable": .flag(entries == nil),
        ]
        if let flash { context["flash"] = .text(say(flash: flash)) }
        return .html(sessionsPage.render(context))
    }

    /// "Firefox on Windows", or what is known of it.
    func deviceText(_ device: DeviceName) -> String {
        switch (device.browser, device.system) {
        case (let browser?, let system?): say("sessions.device", ["browser": browser, "system": system])
        case (let browser?, nil): browser
        case (nil, let system?): say("sessions.device_system", ["system": system])
        case (nil, nil): say("sessions.device_unknown")
        }
    }

    /// When a session began, to the minute, in UTC ("24 Nov 2026, 09:12 UTC"), with this
    /// language's `months`.
    func date(_ seconds: Int64, months: [String]) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let month = months.count == 12 ? months[Int(parts.tm_mon)] : String(parts.tm_mon + 1)
        let clock = twoDigits(parts.tm_hour) + ":" + twoDigits(parts.tm_min)
        return say(
            "sessions.date",
            ["day": String(parts.tm_mday), "month": month, "year": String(parts.tm_year + 1900), "time": clock])
    }

    private func twoDigits(_ number: Int32) -> String { number < 10 ? "0\(number)" : String(number) }

    /// How long ago, coarsely: the touch is written at most every 5 minutes.
    func ago(_ seconds: Int64) -> String {
        switch seconds {
        case ..<300: say("sessions.just_now")
        case ..<3600: say("sessions.minutes_ago", ["n": String(seconds / 60)])
        case ..<7200: say("sessions.hour_ago")
        case ..<86_400: say("sessions.hours_ago", ["n": String(seconds / 3600)])
        case ..<172_800: say("sessions.day_ago")
        default: say("sessions.days_ago", ["n": String(seconds / 86_400)])
        }
    }
}
