import Web

/// One login in progress: what the callback needs to finish it safely.
public struct LoginTransaction: Sendable, Equatable {
    /// The `state` sent to the tenant and expected back.
    public var state: String
    /// The `nonce` the ID token must carry.
    public var nonce: String
    /// The PKCE verifier whose S256 challenge went to the tenant.
    public var codeVerifier: String
    /// The relative path to return to afterwards.
    public var returnTo: String
    /// An affirmation typed when the session had expired, saved once the person is back.
    public var pendingAffirmation: String?
    /// The stronger authentication asked for, which the ID token must show.
    public var stepUp: StepUp?

    /// A transaction with the given values (`begin` makes fresh ones).
    public init(
        state: String, nonce: String, codeVerifier: String, returnTo: String, pendingAffirmation: String? = nil,
        stepUp: StepUp? = nil
    ) {
        self.stepUp = stepUp
        self.state = state
        self.nonce = nonce
        self.codeVerifier = codeVerifier
        self.returnTo = returnTo
        self.pendingAffirmation = pendingAffirmation
    }

    /// A new transaction with fresh random state, nonce and PKCE verifier.
    public static func begin(returnTo: String, pendingAffirmation: String? = nil, stepUp: StepUp? = nil)
        -> LoginTransaction
    {
        LoginTransaction(
            state: PKCE.randomToken(), nonce: PKCE.randomToken(), codeVerifier: PKCE.makeVerifier(),
            returnTo: ReturnPath.sanitize(returnTo), pendingAffirmation: pendingAffirmation, stepUp: stepUp)
    }

    // 2: the step-up follows (1, without, was written before mini apps asked for one).
    func encoded() -> [UInt8] {
        var w = ByteWriter()
        w.write(UInt8(2))
        w.write(state)
        w.write(nonce)
        w.write(codeVerifier)
        w.write(returnTo)
        w.write(optional: pendingAffirmation)
        w.write(optional: stepUp?.maxAge.map(String.init))
        w.write(optional: stepUp?.acrValues)
        return w.bytes
    }

    init?(encoded bytes: ArraySlice<UInt8>) {
        var r = ByteReader(bytes)
        do {
            let version = try r.readByte()
            guard version == 1 || version == 2 else { return nil }
            let state = try r.readString()
            let nonce = try r.readString()
            let verifier = try r.readString()
            let returnTo = try r.readString()
            let pending = try r.readOptionalString()
            let maxAge = version == 2 ? try r.readOptionalString() : nil
            let acrValues = version == 2 ? try r.readOptionalString() : nil
            guard r.isAtEnd else { return nil }
            self.init(
                state: state, nonce: nonce, codeVerifier: verifier, returnTo: ReturnPath.sanitize(returnTo),
                pendingAffirmation: pending, stepUp: StepUp(maxAge: maxAge, acrValues: acrValues))
        } catch {
            return nil
        }
    }
}
