import Web

/// The dev tenant's own settings, declared as the product declares its own (one `Setting` each,
/// read through the same `SettingsReader`), so `dev-tenant settings` lists exactly what is read
/// and every problem names its setting in the same words.
extension Setting {
    static let devTenantIssuer = Setting("DEV_TENANT_ISSUER", "the tenant's own URL, where the product finds it")
    static let devTenantConfig = Setting("DEV_TENANT_CONFIG", "the tenant file: its applications, APIs and people")
    static let devTenantAppBaseURL = Setting(
        "APP_BASE_URL", "the product's address, put for ${APP_BASE_URL} in the tenant file")
    static let devTenantStateFile = Setting(
        "DEV_TENANT_STATE_FILE", "where people, refresh tokens, consent and the Management API's objects are saved")
    static let devTenantKeyFile = Setting("DEV_TENANT_KEY_FILE", "the signing key (PEM), made on first start")
    static let devTenantTemplates = Setting("DEV_TENANT_TEMPLATES_DIR", "the login pages' templates")
    static let accessTokenSeconds = Setting("DEV_TENANT_ACCESS_TOKEN_SECONDS", "seconds an access token lives")
    static let idTokenSeconds = Setting("DEV_TENANT_ID_TOKEN_SECONDS", "seconds an ID token lives")
    static let codeSeconds = Setting("DEV_TENANT_CODE_SECONDS", "seconds an authorization code lives")
    static let refreshTokenSeconds = Setting(
        "DEV_TENANT_REFRESH_TOKEN_SECONDS", "seconds a refresh token family lives")
    static let sessionTransferSeconds = Setting(
        "DEV_TENANT_SESSION_TRANSFER_SECONDS", "seconds a session transfer token lives")
    static let userRatePerMinute = Setting(
        "DEV_TENANT_USER_RATE_PER_MINUTE", "Management API calls per person per minute (Auth0's free tier: 10)")
    static let managementRatePerSecond = Setting(
        "DEV_TENANT_MANAGEMENT_RATE_PER_SECOND", "machine-to-machine Management API calls per second, tenant-wide")
    static let managementBurst = Setting(
        "DEV_TENANT_MANAGEMENT_BURST", "machine-to-machine Management API calls a quiet tenant takes at once")
    static let actionBuildMilliseconds = Setting(
        "DEV_TENANT_ACTION_BUILD_MS", "how long a new or changed Action builds before it can be deployed")
    static let latencyMilliseconds = Setting(
        "DEV_TENANT_LATENCY_MS", "tests: milliseconds added to every Management API answer")
    static let failPercent = Setting("DEV_TENANT_FAIL_PERCENT", "tests: the share of Management API calls answered 500")
    static let force429 = Setting("DEV_TENANT_FORCE_429", "tests: 1 answers every Management API call 429")
    static let tokenFailStatus = Setting(
        "DEV_TENANT_TOKEN_FAIL_STATUS", "tests: the status (429 or 5xx) every /oauth/token call answers")
}

extension TenantConfig {
    /// The lifetimes, in seconds: access tokens, ID tokens, codes, refresh token families,
    /// session transfer tokens.
    static func lifetimes(_ reader: inout SettingsReader) -> (Int64, Int64, Int64, Int64, Int64) {
        func seconds(_ setting: Setting, _ fallback: Int64) -> Int64 {
            reader.seconds(setting, default: fallback, in: 1...31_536_000) ?? fallback
        }

        return (
            seconds(.accessTokenSeconds, 86_400), seconds(.idTokenSeconds, 36_000), seconds(.codeSeconds, 60),
            seconds(.refreshTokenSeconds, 2_592_000), seconds(.sessionTransferSeconds, 60)
        )
    }

    /// The faults tests inject; a token status that is not 429 or a 5xx is a problem.
    static func faults(_ reader: inout SettingsReader) -> Faults {
        let status = reader.wholeNumber(.tokenFailStatus, default: nil, in: 429...599)
        if let status, status != 429, status < 500 {
            reader.problem(.tokenFailStatus, "\(status) is not 429 or a 5xx status")
        }
        return Faults(
            latencyMilliseconds: reader.wholeNumber(.latencyMilliseconds, default: 0, in: 0...60_000) ?? 0,
            failPercent: reader.wholeNumber(.failPercent, default: 0, in: 0...100) ?? 0,
            force429: reader.wholeNumber(.force429, default: 0, in: 0...1) == 1, tokenFailStatus: status)
    }
}
