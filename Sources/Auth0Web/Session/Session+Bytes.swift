import Web

extension Session {
    // 2: the access token moved to its own cookie. Older cookies do not open: their holders log in again.
    // 3: `checkedAt` (revalidation) follows `createdAt`; a version 2 cookie opens as checked at login.
    // 4: the ID token for `id_token_hint` ends it; versions 2 and 3 open without one.
    // 5: the metadata's flags and the roles (mini apps' rules) follow; older versions open without.
    // 6: how the person authenticated (auth_time, acr, amr: mini apps' step-up) follows.
    private static let formatVersion: UInt8 = 6

    /// The session without its access token, in the compact byte format sealed into the session cookie.
    package func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: 512)
        w.write(Session.formatVersion)
        w.write(self.profile.sub)
        w.write(self.profile.name)
        w.write(self.profile.email)
        // 0 or 1, as a Bool was written before; 2: the provider did not say.
        w.write(UInt8(self.profile.emailVerified.map { $0 ? 1 : 0 } ?? 2))
        w.write(self.profile.picture)
        w.write(self.profile.updatedAt)
        w.write(optional: self.refreshToken)
        w.write(optional: self.tenantSessionID)
        w.write(self.csrfToken)
        w.write(self.metadata.affirmation)
        w.write(optional: self.metadata.announcement?.text)
        w.write(optional: self.metadata.announcement?.url)
        w.write(optional: String?.none)  // where format 2 kept the flash, now a cookie of its own
        w.write(self.createdAt)
        w.write(self.checkedAt)
        w.write(optional: self.idTokenHint)
        w.write(list: self.metadata.flags)
        w.write(list: self.roles)
        w.write(optional: self.authTime)
        w.write(optional: self.acr)
        w.write(list: self.amr)
        return w.bytes
    }

    /// Reads what `encoded()` wrote; nil for anything else.
    package init?(encoded bytes: ArraySlice<UInt8>) {
        guard let session = Session.decoded(bytes) else { return nil }
        self = session
    }

    private static func decoded(_ bytes: ArraySlice<UInt8>) -> Session? {
        var r = ByteReader(bytes)
        do {
            let version = try r.readByte()
            guard (2...Session.formatVersion).contains(version) else { return nil }
            let profile = Profile(
                sub: try r.readString(), name: try r.readString(), email: try r.readString(),
                emailVerified: try readEmailVerified(&r), picture: try r.readString(),
                updatedAt: try r.readString())
            let refreshToken = try r.readOptionalString()
            let sid = try r.readOptionalString()
            let csrf = try r.readString()
            let affirmation = try r.readString()
            let announcementText = try r.readOptionalString()
            let announcementURL = try r.readOptionalString()
            _ = try r.readOptionalRange()  // a flash sealed before it had its own cookie: not shown
            let createdAt = try r.readInt64()
            let checkedAt = version == 2 ? createdAt : try r.readInt64()
            let idTokenHint = version < 4 ? nil : try r.readOptionalString()
            let flags = version < 5 ? [] : try r.readList()
            let roles = version < 5 ? [] : try r.readList()
            let authTime = version < 6 ? nil : try r.readOptionalInt64()
            let acr = version < 6 ? nil : try r.readOptionalString()
            let amr = version < 6 ? [] : try r.readList()
            guard r.isAtEnd, !profile.sub.isEmpty, !csrf.isEmpty else { return nil }
            var announcement: Announcement?
            if let announcementText, let announcementURL {
                announcement = Announcement(text: announcementText, url: announcementURL)
            }
            return Session(
                profile: profile, accessToken: nil, refreshToken: refreshToken, tenantSessionID: sid, csrfToken: csrf,
                metadata: MetadataSnapshot(affirmation: affirmation, announcement: announcement, flags: flags),
                createdAt: createdAt, checkedAt: checkedAt, idTokenHint: idTokenHint, roles: roles, authTime: authTime,
                acr: acr, amr: amr)
        } catch {
            return nil
        }
    }
}

extension AccessToken {
    private static let formatVersion: UInt8 = 1

    /// The token in the byte format of its cookie, bound to the session it belongs to (the
    /// person and the login) so it is never used with another.
    func encoded(for session: Session) -> [UInt8] {
        var w = ByteWriter(capacity: 64 + value.utf8.count)
        w.write(AccessToken.formatVersion)
        w.write(session.profile.sub)
        w.write(session.createdAt)
        w.write(value)
        w.write(expiresAt)
        return w.bytes
    }

    /// Reads what `encoded(for:)` wrote for this same session; nil for anything else.
    init?(encoded bytes: ArraySlice<UInt8>, for session: Session) {
        var r = ByteReader(bytes)
        do {
            guard try r.readByte() == AccessToken.formatVersion, try r.readString() == session.profile.sub,
                try r.readInt64() == session.createdAt
            else { return nil }
            let value = try r.readString()
            let expiresAt = try r.readInt64()
            guard r.isAtEnd, !value.isEmpty else { return nil }
            self.init(value: value, expiresAt: expiresAt)
        } catch {
            return nil
        }
    }
}

/// `email_verified` as `Session.encoded()` wrote it: 0, 1, or 2 for not said.
private func readEmailVerified(_ r: inout ByteReader) throws -> Bool? {
    let flag = try r.readByte()
    guard flag <= 2 else { throw ByteReader.Malformed() }
    return flag == 2 ? nil : flag == 1
}
