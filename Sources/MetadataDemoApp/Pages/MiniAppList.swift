import Web

/// Every item the logged-in page's list of mini apps can show, rendered once at start-up from the
/// profile template's `miniApps` section (`Pages.miniAppItem`): for each app, in each language,
/// for each step it may ask first. A page view only picks its apps' items; it renders none.
struct MiniAppList: Sendable {
    /// Each app's items, in the apps' order: language by language, step by step within each.
    private let items: [[[UInt8]]]

    /// The items of `apps` in every language of `pages`.
    init(apps: [MiniApp], pages: LocalizedPages) {
        items = apps.map { app in
            Language.allCases.flatMap { language in
                MiniAppStep.allCases.map { step in
                    pages[language].miniAppItem(title: app.title(in: language), path: app.path, asksFirst: step)
                }
            }
        }
    }

    /// The item of the app at `index` (in `MiniApps.apps`) in `language`, saying it will ask `step` first.
    func item(_ index: Int, in language: Language, asking step: MiniAppStep) -> [UInt8] {
        let languageIndex = language == .zh ? 1 : 0
        return items[index][languageIndex * MiniAppStep.allCases.count + step.rawValue]
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
