import Web

/// The person's own user, as far as the product reads it from the Management API.
public struct UserMetadataDocument: Sendable, Equatable {
    /// `user_metadata`, or an empty object.
    public let userMetadata: JSONValue
    /// `app_metadata`, or an empty object.
    public let appMetadata: JSONValue

    /// A document with both metadata objects.
    public init(userMetadata: JSONValue, appMetadata: JSONValue) {
        self.userMetadata = userMetadata
        self.appMetadata = appMetadata
    }
}
