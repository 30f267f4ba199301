import Testing
import Web

@Suite struct TemplateTests {
    private func render(_ sources: [String: String], _ name: String, _ context: TemplateContext) throws -> String {
        String(decoding: try TemplateLibrary(sources: sources).template(name).render(context), as: UTF8.self)
    }

    @Test func escapesByDefaultAndRawOnlyWithTripleBraces() throws {
        let out = try render(["t": "<p>{{v}}</p>{{{v}}}"], "t", ["v": "<b>&"])
        #expect(out == "<p>&lt;b&gt;&amp;</p><b>&")
    }

    /// A page is written where its array will hold it, with room for a kilobyte of values; one
    /// with more (a long affirmation, escaped) is whole all the same.
    @Test func aPageWithMoreValuesThanItsRoomIsWhole() throws {
        let long = String(repeating: "<&>", count: 400)
        let out = try render(["t": "<p>{{v}}</p>"], "t", ["v": .text(long)])
        #expect(out == "<p>" + String(repeating: "&lt;&amp;&gt;", count: 400) + "</p>")
        #expect(try render(["t": "<p>{{v}}</p>"], "t", ["v": "short"]) == "<p>short</p>")
    }

    @Test func sectionsShowOnTruthyAndInvertedOnFalsy() throws {
        let source = ["t": "{{#on}}yes{{/on}}{{^on}}no{{/on}}{{#s}}[{{s}}]{{/s}}"]
        #expect(try render(source, "t", ["on": true, "s": "x"]) == "yes[x]")
        #expect(try render(source, "t", ["on": false, "s": ""]) == "no")
        #expect(try render(source, "t", [:]) == "no")
    }

    @Test func listsRepeatWithItemNamesOnTop() throws {
        let source = ["t": "{{#items}}{{name}}{{sep}}{{/items}}"]
        let out = try render(source, "t", ["sep": ",", "items": .list([["name": "a"], ["name": "<b>"]])])
        #expect(out == "a,&lt;b&gt;,")
    }

    /// A list's items rendered once from the section's own body show what the list shows, and in
    /// place of the body: the body is not run again for a page.
    @Test func itemsRenderedFromTheSectionsBodyShowAsTheListWould() throws {
        let template = try TemplateLibrary(sources: [
            "t": "<ul>{{^items}}none{{/items}}{{#items}}<li>{{name}}{{#on}}!{{/on}}</li>{{/items}}</ul>"
        ]).template("t")
        let items: [TemplateContext] = [["name": "<a>", "on": true], ["name": "b", "on": false]]
        let body = try #require(template.section(named: "items"))
        #expect(body.namesUsed == ["name", "on"])
        let rendered = TemplateValue.renderedItems(items.map { body.render($0) })
        let asList = String(decoding: template.render(["items": .list(items)]), as: UTF8.self)
        #expect(asList == "<ul><li>&lt;a&gt;!</li><li>b</li></ul>")
        #expect(String(decoding: template.render(["items": rendered]), as: UTF8.self) == asList)
        #expect(String(decoding: template.render(["items": .renderedItems([])]), as: UTF8.self) == "<ul>none</ul>")
        #expect(template.section(named: "missing") == nil)
    }

    @Test func aListInsideAListSeesItsOwnItemThenTheOuterOneThenTheContext() throws {
        let source = [
            "t": "{{#groups}}{{name}}:{{#members}}{{name}}/{{group}}/{{site}} {{/members}}{{name}};{{/groups}}"
        ]
        let context: TemplateContext = [
            "site": "s", "name": "top",
            "groups": .list([
                ["name": "g1", "group": "one", "members": .list([["name": "a"], ["name": "b"]])],
                ["name": "g2", "group": "two", "members": .list([])],
            ]),
        ]
        // Inside the inner list a member's name hides its group's; after it, the group's is back.
        #expect(try render(source, "t", context) == "g1:a/one/s b/one/s g1;g2:g2;")
    }

    @Test func fixedNamesRenderAsTheirValuesWhateverTheContextSays() throws {
        let source = [
            "t": "<a href=\"{{css}}\">{{{raw}}}</a>{{#on}}+{{name}}{{/on}}{{^on}}-{{/on}}{{#items}}{{name}}{{/items}}"
        ]
        let template = try TemplateLibrary(sources: source).template("t")
            .fixing(["css": "/a?b=1&c=\"2\"", "raw": "<i>", "on": true, "items": .list([["name": "x"]])])
        let context: TemplateContext = ["css": "/other", "on": false, "name": "<n>", "items": .list([["name": "y"]])]
        let out = String(decoding: template.render(context), as: UTF8.self)
        // Escaped as a slot escapes; a fixed section shows its body with the request's names; a
        // list is not fixed: it repeats what the request gives.
        #expect(out == "<a href=\"/a?b=1&amp;c=&quot;2&quot;\"><i></a>+&lt;n&gt;y")
        let hidden = try TemplateLibrary(sources: source).template("t").fixing(["on": false])
        #expect(String(decoding: hidden.render(["name": "n"]), as: UTF8.self) == "<a href=\"\"></a>-")
    }

    @Test func partialsAreInlinedAndCommentsDropped() throws {
        let sources = ["page": "{{> head}}body{{! not shown }}{{> foot}}", "head": "<h>{{title}}</h>", "foot": "<f>"]
        #expect(try render(sources, "page", ["title": "T"]) == "<h>T</h>body<f>")
    }

    @Test func brokenTemplatesNameFileAndLine() {
        let cases: [(String, Int, String)] = [
            ("a\nb\n{{#open}}x", 3, "never closed"),
            ("line1\n{{/x}}", 2, "closes no open section"),
            ("{{#a}}\n{{/b}}", 2, "closes {{#a}}"),
            ("\n\n{{oops", 3, "never closed"),
            ("{{bad name}}", 1, "not a valid name"),
            ("x\n{{> missing}}", 2, "no partial named"),
        ]
        for (source, line, message) in cases {
            do {
                _ = try TemplateLibrary(sources: ["page": source])
                Issue.record("accepted \(source)")
            } catch let error as TemplateError {
                #expect(error.file == "Templates/page.html")
                #expect(error.line == line, "\(source)")
                #expect(error.message.contains(message), "\(error.message)")
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test func selfIncludingPartialIsRefused() {
        #expect(throws: TemplateError.self) { try TemplateLibrary(sources: ["a": "{{> b}}", "b": "{{> a}}"]) }
    }

    @Test func contextValuesAreReplacedAndRemovedByName() throws {
        var context: TemplateContext = ["who": "Skippy", "mood": "happy"]
        context["who"] = "Random"
        context["mood"] = nil
        context["flash"] = "Saved"
        #expect(try render(["t": "{{who}}|{{mood}}|{{flash}}"], "t", context) == "Random||Saved")
    }

    @Test func aContextFilledNameByNameRendersLikeALiteral() throws {
        let source = ["t": "{{who}}|{{#on}}on{{/on}}|{{mood}}"]
        var filled: TemplateContext = [:]  // grows past its room
        filled["who"] = "<Skippy>"
        filled["on"] = true
        filled["mood"] = .text("happy")
        let literal: TemplateContext = ["who": "<Skippy>", "on": true, "mood": .text("happy")]
        #expect(try render(source, "t", filled) == "&lt;Skippy&gt;|on|happy")
        #expect(try render(source, "t", filled) == render(source, "t", literal))
    }

    /// One template rendered again and again, as a page is, with contexts whose names are laid out
    /// alike, in another order, with names of the same length, with long names made at run time
    /// (the same text in other strings, and other text), and with more layouts than it keeps: each
    /// shows its own values.
    @Test func oneTemplateRendersEveryLayoutOfItsContextsWithTheirOwnValues() throws {
        let long = "aNameLongerThanFifteenBytes"
        let template = try TemplateLibrary(sources: [
            "t": "{{aa}}|{{bb}}|{{#on}}on{{/on}}|{{\(long)}}|{{\(long.uppercased())}}"
        ]).template("t")
        func rendered(_ pairs: [(String, TemplateValue)]) -> String {
            var context = TemplateContext(capacity: pairs.count)
            for (name, value) in pairs { context.add(name, value) }
            return String(decoding: template.render(context), as: UTF8.self)
        }
        for round in 0..<3 {
            #expect(rendered([("aa", "1"), ("bb", "2")]) == "1|2|||")
            #expect(rendered([("bb", "1"), ("aa", "2")]) == "2|1|||")
            #expect(rendered([("aa", "1"), ("cc", "2")]) == "1||||")
            #expect(rendered([("aa", .text("\(round)")), ("on", true)]) == "\(round)||on||")
            // Built here, not literals: other strings holding the same text, and another text of its length.
            let madeNow = String(decoding: Array(long.utf8), as: UTF8.self), other = long.uppercased()
            #expect(rendered([(madeNow, "x"), ("aa", "1")]) == "1|||x|")
            #expect(rendered([(other, "x"), ("aa", "1")]) == "1||||x")
            #expect(rendered([(long, "y"), ("aa", "1")]) == "1|||y|")
            for extra in 0..<20 {
                #expect(rendered([("aa", .text("\(extra)")), ("n\(extra)", "z")]) == "\(extra)||||")
            }
        }
    }

    /// `[[key]]` words come from the catalogue once, at load, escaped (they may stand in an
    /// attribute); a key it lacks stops loading with the file, the line and the key.
    @Test func catalogueWordsAreFilledInAtLoad() throws {
        let catalogue = Catalogue(strings: ["hi": "Hello & \"welcome\"", "who": "you"], file: "i18n/en.json")
        let library = try TemplateLibrary(
            sources: ["t": "<p title=\"[[hi]]\">[[hi]], {{name}} ([[who]])</p>"], catalogue: catalogue)
        let out = String(decoding: try library.template("t").render(["name": "Skippy"]), as: UTF8.self)
        #expect(out == "<p title=\"Hello &amp; &quot;welcome&quot;\">Hello &amp; &quot;welcome&quot;, Skippy (you)</p>")
        func failure(_ source: String) -> String {
            do {
                _ = try TemplateLibrary(sources: ["t": source], catalogue: catalogue)
                return "loaded"
            } catch { return "\(error)" }
        }
        #expect(failure("[[hi]]\n[[bye]]") == "Templates/t.html:2: no string \"bye\" in i18n/en.json")
        #expect(failure("[[hi") == "Templates/t.html:1: [[ without ]]")
        // Without a catalogue, a marked word is still an error, never shown raw.
        #expect(throws: TemplateError.self) { try TemplateLibrary(sources: ["t": "[[hi]]"]) }
    }
}
