import Web

/// The session would need more cookies than browsers reliably keep.
public struct SessionTooLarge: Error {}
