/// A setting with the kind of value it holds and its value when unset, declared once beside its
/// name and meaning: `Setting("WORKER_THREADS", "…").wholeNumber(in: 1...1024, default: 32)`.
/// `SettingsReader.value(_:)` reads it, shows the default in `metadata-demo settings` and says a
/// wrong text in its kind's one wording; nothing else writes the default.
///
/// Declared as computed statics of `TypedSetting` (a generic type holds no stored statics), so a
/// read names it the way a plain setting is named: `reader.value(.workerThreads)`.
public struct TypedSetting<Value: Sendable>: Sendable {
    /// The setting: its name, meaning, and where it may come from.
    public let setting: Setting
    /// Its value when unset (nil for an optional one: its reading works the value out).
    public let fallback: Value
    /// Its value when unset as the settings list shows it.
    let shownDefault: String?
    /// The value a text gives, or nil when the text is not one.
    let parse: @Sendable (String) -> Value?
    /// The problem's words for a text that is not a value (after the setting's name).
    let refusal: @Sendable (String) -> String
}

extension Setting {
    /// Any text, `fallback` when unset (every text is one: its reading judges it, if anything does).
    public func text(default fallback: String) -> TypedSetting<String> {
        TypedSetting(setting: self, fallback: fallback, shownDefault: fallback, parse: { $0 }, refusal: { _ in "" })
    }

    /// A whole number within `range`, `fallback` when unset.
    public func wholeNumber(in range: ClosedRange<Int>, default fallback: Int) -> TypedSetting<Int> {
        let kind = Self.wholeNumber(in: range)
        return TypedSetting(
            setting: self, fallback: fallback, shownDefault: String(fallback), parse: kind.parse, refusal: kind.refusal)
    }

    /// A whole number within `range`, or nil when unset (its reading works one out, in `unsetMeans`'s words).
    public func wholeNumber(in range: ClosedRange<Int>, unsetMeans: String? = nil) -> TypedSetting<Int?> {
        let kind = Self.wholeNumber(in: range)
        return TypedSetting(
            setting: self, fallback: nil, shownDefault: unsetMeans, parse: { kind.parse($0).map { .some($0) } },
            refusal: kind.refusal)
    }

    /// Whole seconds within `range`, `fallback` when unset, in the one wording every setting of seconds has.
    public func seconds(in range: ClosedRange<Int>, default fallback: Int64) -> TypedSetting<Int64> {
        let kind = Self.wholeNumber(in: range, noun: "a whole number of seconds")
        return TypedSetting(
            setting: self, fallback: fallback, shownDefault: String(fallback),
            parse: { kind.parse($0).map(Int64.init) },
            refusal: kind.refusal)
    }

    /// Seconds, a fraction allowed, within `range`; `fallback` when unset.
    public func fractionalSeconds(in range: ClosedRange<Double>, default fallback: Double) -> TypedSetting<Double> {
        func plain(_ number: Double) -> String { number.rounded() == number ? String(Int(number)) : String(number) }
        let words = "must be a number of seconds from \(plain(range.lowerBound)) to \(plain(range.upperBound))"
        return TypedSetting(
            setting: self, fallback: fallback, shownDefault: plain(fallback),
            parse: { Double($0).flatMap { range.contains($0) ? $0 : nil } }, refusal: { _ in words })
    }

    /// `on` or `off`, `fallback` when unset.
    public func onOff(default fallback: Bool) -> TypedSetting<Bool> {
        TypedSetting(
            setting: self, fallback: fallback, shownDefault: fallback ? "on" : "off", parse: Self.onOff,
            refusal: { _ in "must be on or off" })
    }

    /// `on` or `off`, or nil when unset: its reading works the value out, as `unsetMeans` says.
    public func onOff(unsetMeans: String) -> TypedSetting<Bool?> {
        TypedSetting(
            setting: self, fallback: nil, shownDefault: unsetMeans, parse: { Self.onOff($0).map { .some($0) } },
            refusal: { _ in "must be on or off" })
    }

    /// The one parser and wording of whole numbers; `noun` says what they count.
    private static func wholeNumber(in range: ClosedRange<Int>, noun: String = "a whole number")
        -> (parse: @Sendable (String) -> Int?, refusal: @Sendable (String) -> String)
    {
        (
            { Int($0).flatMap { range.contains($0) ? $0 : nil } },
            { "\"\($0)\" is not \(noun) from \(range.lowerBound) to \(range.upperBound)" }
        )
    }

    @Sendable private static func onOff(_ text: String) -> Bool? {
        switch text {
        case "on": true
        case "off": false
        default: nil
        }
    }
}
