extension Session {
    private static let formatVersion: UInt8 = 1

    /// The session in the compact byte format sealed into the cookie.
    func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: 1024 + accessToken.utf8.count)
        w.write(Session.formatVersion)
        w.write(profile.sub)
        w.write(profile.name)
        w.write(profile.email)
        w.write(profile.emailVerified)
        w.write(profile.picture)
        w.write(profile.updatedAt)
        w.write(accessToken)
        w.write(accessTokenExpiresAt)
        w.write(optional: refreshToken)
        w.write(optional: tenantSessionID)
        w.write(csrfToken)
        w.write(metadata.affirmation)
        w.write(optional: metadata.announcement?.text)
        w.write(optional: metadata.announcement?.url)
        w.write(optional: flash)
        w.write(createdAt)
        return w.bytes
    }

    /// Reads what `encoded()` wrote; nil for anything else.
    init?(encoded bytes: ArraySlice<UInt8>) {
        var r = ByteReader(bytes)
        do {
            guard try r.readByte() == Session.formatVersion else { return nil }
            let profile = Profile(
                sub: try r.readString(), name: try r.readString(), email: try r.readString(),
                emailVerified: try r.readBool(), picture: try r.readString(), updatedAt: try r.readString())
            let accessToken = try r.readString()
            let expiresAt = try r.readInt64()
            let refreshToken = try r.readOptionalString()
            let sid = try r.readOptionalString()
            let csrf = try r.readString()
            let affirmation = try r.readString()
            let announcementText = try r.readOptionalString()
            let announcementURL = try r.readOptionalString()
            let flash = try r.readOptionalString()
            let createdAt = try r.readInt64()
            guard r.isAtEnd, !profile.sub.isEmpty, !csrf.isEmpty else { return nil }
            var announcement: Announcement?
            if let announcementText, let announcementURL {
                announcement = Announcement(text: announcementText, url: announcementURL)
            }
            self.init(
                profile: profile, accessToken: accessToken, accessTokenExpiresAt: expiresAt, refreshToken: refreshToken,
                tenantSessionID: sid, csrfToken: csrf,
                metadata: MetadataSnapshot(affirmation: affirmation, announcement: announcement), flash: flash,
                createdAt: createdAt)
        } catch {
            return nil
        }
    }
}
