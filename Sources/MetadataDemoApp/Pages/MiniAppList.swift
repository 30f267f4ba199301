import Web

/// Every item the logged-in page's list of mini apps can show, rendered once at start-up from the
/// profile template's `miniApps` section (`Pages.miniAppItem`): for each app, in each language,
/// for each step it may ask first. A page view only picks its apps' items; it renders none.
struct MiniAppList: Sendable {
    /// Each app's items, at `slot(_:_:)` for each language and step.
    private let items: [[[UInt8]]]

    /// The items of `apps` in every language of `pages`.
    init(apps: [MiniApp], pages: LocalizedPages) {
        items = apps.map { app in
            var appItems = [[UInt8]](repeating: [], count: Language.allCases.count * Self.steps)
            for language in Language.allCases {
                for step in MiniAppStep.allCases {
                    appItems[Self.slot(language, step)] = pages[language].miniAppItem(
                        title: app.title(in: language), path: app.path, asksFirst: step)
                }
            }
            return appItems
        }
    }

    /// The item of the app at `index` (in `MiniApps.apps`) in `language`, saying it will ask `step` first.
    func item(_ index: Int, in language: Language, asking step: MiniAppStep) -> [UInt8] {
        items[index][Self.slot(language, step)]
    }

    /// How many steps an app may ask first (counted once: `allCases` makes an array each time).
    private static let steps = MiniAppStep.allCases.count

    /// Where an app's item in `language` for `step` is among its items.
    private static func slot(_ language: Language, _ step: MiniAppStep) -> Int {
        let row =
            switch language {
            case .en: 0
            case .zh: 1
            }
        return row * steps + step.rawValue
    }
}

/// What opening a mini app will ask of the person first, as the logged-in page says beside it.
enum MiniAppStep: Int, Sendable, CaseIterable {
    /// Nothing: it opens.
    case nothing
    /// Logging in again with a second factor.
    case secondFactor
    /// Logging in again (the app wants a recent login).
    case loginAgain
}
