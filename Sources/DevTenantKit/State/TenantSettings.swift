import Web

/// The dev tenant's own settings, declared as the product declares its own (one `Setting` each,
/// read through the same `SettingsReader`), so `dev-tenant settings` lists exactly what is read
/// and every problem names its setting in the same words.
extension TypedSetting {
    static var devTenantIssuer: TypedSetting<String> {
        Setting("DEV_TENANT_ISSUER", "the tenant's own URL, where the product finds it")
            .text(default: "http://127.0.0.1:8081/")
    }
    static var devTenantConfig: TypedSetting<String> {
        Setting("DEV_TENANT_CONFIG", "the tenant file: its applications, APIs and people")
            .text(default: "deploy/dev-tenant/tenant.json")
    }
    static var devTenantAppBaseURL: TypedSetting<String> {
        Setting("APP_BASE_URL", "the product's address, put for ${APP_BASE_URL} in the tenant file")
            .text(default: "http://127.0.0.1:8080")
    }
    static var devTenantStateFile: TypedSetting<String> {
        Setting(
            "DEV_TENANT_STATE_FILE", "where people, refresh tokens, consent and the Management API's objects are saved"
        ).text(default: "run/dev-tenant-state.json")
    }
    static var devTenantKeyFile: TypedSetting<String> {
        Setting("DEV_TENANT_KEY_FILE", "the signing key (PEM), made on first start").text(
            default: "run/dev-tenant-key.pem")
    }
    static var devTenantTemplates: TypedSetting<String> {
        Setting("DEV_TENANT_TEMPLATES_DIR", "the login pages' templates").text(default: "Templates/dev-tenant")
    }

    /// A token's life: a second to a year.
    private static func lifetime(_ name: String, _ meaning: String, _ fallback: Int64) -> TypedSetting<Int64> {
        Setting(name, meaning).seconds(in: 1...31_536_000, default: fallback)
    }
    static var accessTokenSeconds: TypedSetting<Int64> {
        lifetime("DEV_TENANT_ACCESS_TOKEN_SECONDS", "seconds an access token lives", 86_400)
    }
    static var idTokenSeconds: TypedSetting<Int64> {
        lifetime("DEV_TENANT_ID_TOKEN_SECONDS", "seconds an ID token lives", 36_000)
    }
    static var codeSeconds: TypedSetting<Int64> {
        lifetime("DEV_TENANT_CODE_SECONDS", "seconds an authorization code lives", 60)
    }
    static var refreshTokenSeconds: TypedSetting<Int64> {
        lifetime("DEV_TENANT_REFRESH_TOKEN_SECONDS", "seconds a refresh token family lives", 2_592_000)
    }
    static var sessionTransferSeconds: TypedSetting<Int64> {
        lifetime("DEV_TENANT_SESSION_TRANSFER_SECONDS", "seconds a session transfer token lives", 60)
    }

    /// A rate: at least one.
    private static func rate(_ name: String, _ meaning: String, _ fallback: Int) -> TypedSetting<Int> {
        Setting(name, meaning).wholeNumber(in: 1...1_000_000_000, default: fallback)
    }
    static var userRatePerMinute: TypedSetting<Int> {
        rate(
            "DEV_TENANT_USER_RATE_PER_MINUTE", "Management API calls per person per minute (Auth0's free tier: 10)", 10)
    }
    static var managementRatePerSecond: TypedSetting<Int> {
        rate(
            "DEV_TENANT_MANAGEMENT_RATE_PER_SECOND", "machine-to-machine Management API calls per second, tenant-wide",
            2)
    }
    static var managementBurst: TypedSetting<Int> {
        rate("DEV_TENANT_MANAGEMENT_BURST", "machine-to-machine Management API calls a quiet tenant takes at once", 10)
    }
    static var actionBuildMilliseconds: TypedSetting<Int> {
        Setting("DEV_TENANT_ACTION_BUILD_MS", "how long a new or changed Action builds before it can be deployed")
            .wholeNumber(in: 0...60_000, default: 1000)
    }

    static var latencyMilliseconds: TypedSetting<Int> {
        Setting("DEV_TENANT_LATENCY_MS", "tests: milliseconds added to every Management API answer")
            .wholeNumber(in: 0...60_000, default: 0)
    }
    static var failPercent: TypedSetting<Int> {
        Setting("DEV_TENANT_FAIL_PERCENT", "tests: the share of Management API calls answered 500")
            .wholeNumber(in: 0...100, default: 0)
    }
    static var force429: TypedSetting<Int> {
        Setting("DEV_TENANT_FORCE_429", "tests: 1 answers every Management API call 429").wholeNumber(
            in: 0...1, default: 0)
    }
    static var tokenFailStatus: TypedSetting<Int?> {
        Setting("DEV_TENANT_TOKEN_FAIL_STATUS", "tests: the status (429 or 5xx) every /oauth/token call answers")
            .wholeNumber(in: 429...599)
    }
}

extension TenantConfig {
    /// The lifetimes, in seconds: access tokens, ID tokens, codes, refresh token families,
    /// session transfer tokens.
    static func lifetimes(_ reader: inout SettingsReader) -> (Int64, Int64, Int64, Int64, Int64) {
        (
            reader.value(.accessTokenSeconds), reader.value(.idTokenSeconds), reader.value(.codeSeconds),
            reader.value(.refreshTokenSeconds), reader.value(.sessionTransferSeconds)
        )
    }

    /// The faults tests inject; a token status that is not 429 or a 5xx is a problem.
    static func faults(_ reader: inout SettingsReader) -> Faults {
        let status = reader.value(.tokenFailStatus)
        if let status, status != 429, status < 500 {
            reader.problem(.tokenFailStatus, "\(status) is not 429 or a 5xx status")
        }
        return Faults(
            latencyMilliseconds: reader.value(.latencyMilliseconds), failPercent: reader.value(.failPercent),
            force429: reader.value(.force429) == 1, tokenFailStatus: status)
    }
}
