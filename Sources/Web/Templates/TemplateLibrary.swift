import FoundationEssentials

/// Every template of a folder, parsed once with partials resolved; a broken file stops loading
/// with its name and line. Words marked `[[key]]` come from the language's catalogue, filled in
/// here, once: rendering a page costs nothing more for them.
public struct TemplateLibrary: Sendable {
    private let templates: [String: Template]
    /// The words its templates were filled with, for what the code says on the same pages.
    public let catalogue: Catalogue?

    /// Loads every `*.html` file of `directory`; a template's name is its file name without
    /// `.html`. Its `[[key]]` words come from `directory/i18n/LANGUAGE.json` when the folder has
    /// an `i18n` folder.
    public init(directory: String, language: String = "en") throws {
        var catalogue: Catalogue?
        var isFolder = false
        if FileManager.default.fileExists(atPath: directory + "/i18n", isDirectory: &isFolder), isFolder {
            catalogue = try Catalogue(file: directory + "/i18n/\(language).json")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".html") }
        var sources: [String: String] = [:]
        for file in files {
            let path = directory + "/" + file
            guard let data = FileManager.default.contents(atPath: path) else {
                throw TemplateError(file: path, line: 0, message: "cannot be read")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw TemplateError(file: path, line: 0, message: "is not UTF-8")
            }
            sources[String(file.dropLast(5))] = text
        }
        try self.init(sources: sources, directory: directory, catalogue: catalogue)
    }

    /// Builds a library from texts by name (for tests and embedding), with `catalogue`'s words.
    public init(sources: [String: String], directory: String = "Templates", catalogue: Catalogue? = nil) throws {
        var parsed: [String: [Template.Node]] = [:]
        for (name, text) in sources {
            let file = "\(directory)/\(name).html"
            let filled = try (catalogue ?? Catalogue(strings: [:], file: "no catalogue")).fill(text, file: file)
            parsed[name] = try TemplateParser.parse(filled, file: file)
        }
        var templates: [String: Template] = [:]
        for name in parsed.keys {
            let nodes = try Self.resolve(name, parsed: parsed, directory: directory, path: [])
            templates[name] = Template(nodes: Template.mergingLiterals(nodes))
        }
        self.templates = templates
        self.catalogue = catalogue
    }

    /// The template of a name; throws when there is none (a programming error caught in tests).
    public func template(_ name: String) throws -> Template {
        guard let template = templates[name] else {
            throw TemplateError(file: name + ".html", line: 0, message: "no such template")
        }
        return template
    }

    /// The catalogue, holding every one of `keys` (the words the code says); else the error
    /// naming the catalogue and the first key it lacks.
    public func catalogue(holding keys: [String]) throws -> Catalogue {
        guard let catalogue else {
            throw TemplateError(file: "i18n", line: 0, message: "the templates have no catalogue")
        }
        if let missing = keys.first(where: { catalogue.text($0) == nil }) {
            throw TemplateError(file: catalogue.file, line: 0, message: "no string \"\(missing)\" (said by the code)")
        }
        return catalogue
    }

    /// The names of the loaded templates.
    public var names: [String] { templates.keys.sorted() }

    private static func resolve(
        _ name: String, parsed: [String: [Template.Node]], directory: String, path: [String]
    ) throws -> [Template.Node] {
        guard let nodes = parsed[name] else { return [] }
        return try inline(nodes, owner: name, parsed: parsed, directory: directory, path: path + [name])
    }

    private static func inline(
        _ nodes: [Template.Node], owner: String, parsed: [String: [Template.Node]], directory: String, path: [String]
    ) throws -> [Template.Node] {
        try nodes.flatMap { node -> [Template.Node] in
            switch node {
            case .partial(let partial, let line):
                guard parsed[partial] != nil else {
                    throw TemplateError(
                        file: "\(directory)/\(owner).html", line: line, message: "no partial named \"\(partial)\"")
                }
                guard !path.contains(partial) else {
                    throw TemplateError(
                        file: "\(directory)/\(owner).html", line: line,
                        message: "partial \"\(partial)\" includes itself")
                }
                return try resolve(partial, parsed: parsed, directory: directory, path: path)
            case .section(let name, let inner, let inverted):
                let resolved = try inline(inner, owner: owner, parsed: parsed, directory: directory, path: path)
                return [.section(name, resolved, inverted: inverted)]
            default:
                return [node]
            }
        }
    }
}
