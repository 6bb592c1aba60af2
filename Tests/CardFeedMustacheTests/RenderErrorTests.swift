@testable import CardFeedMustache
import Testing
@testable import CardFeedRender

/// A render that fails names the file of the template and the line and column of the tag it was
/// at, for each way a render can fail: a partial that includes itself without end, templates
/// nested past the depth limit, and a budget of bytes or steps passed.
@Suite struct RenderErrorTests {
    /// Templates by name, each parsed with its name and ".mustache" as its file.
    static func library(_ templates: [String: String]) throws -> MustacheLibrary {
        var library = MustacheLibrary(escape: HTMLEscaping.append)
        for (name, text) in templates { library.register(try MustacheTemplate(text, file: "\(name).mustache"), named: name) }
        return library
    }

    static func failure(
        _ templates: [String: String], _ root: String, _ context: JSON, budget: MustacheBudget = .unlimited
    ) throws -> MustacheRenderError {
        let library = try library(templates)
        do {
            _ = try library.render(MustacheName(root), context.value, budget: budget)
        } catch {
            return error
        }
        Issue.record("\(root) rendered without an error")
        return MustacheRenderError(message: "", limit: .depth(0))
    }

    static let title = JSON.object(["title": .string("T")])
    static let items = JSON.object(["items": .array((0..<50).map { _ in .object(["text": .string("0123456789")]) })])

    /// The partial tag that recursed, not the section around it that the limit was reached in.
    @Test func aPartialThatIncludesItselfIsAtItsPartialTag() throws {
        let error = try Self.failure([
            "card": "<article>\n{{>loop}}\n</article>",
            "loop": "<b>\n  {{#title}}{{>loop}}{{/title}}\n</b>\n",
        ], "card", Self.title)
        #expect(error.limit == .depth(MustacheLibrary.maximumDepth))
        #expect(error.message.hasPrefix("templates include each other without end (… > loop > loop > loop > loop > loop > loop) (deeper than 200)"), "\(error)")
        #expect((error.file, error.line, error.column) == ("loop.mustache", 2, 13), "\(error)")
        #expect(error.description == "loop.mustache:2:13: \(error.message)")
    }

    /// Two partials that include each other: the depth limit is reached in `a`'s section (every
    /// fourth level), so the error is at the partial tag that entered `a`, which is in `b`.
    @Test func partialsThatIncludeEachOtherAreAtTheInnermostPartialTag() throws {
        let error = try Self.failure([
            "a": "{{#title}}{{>b}}{{/title}}",
            "b": "b:\n {{#title}}{{>a}}{{/title}}",
        ], "a", Self.title)
        #expect(error.message.hasPrefix("templates include each other without end (… > b > a > b > a > b > a)"), "\(error)")
        #expect((error.file, error.line, error.column) == ("b.mustache", 2, 12), "\(error)")
    }

    @Test func templatesNestedTooDeepAreAtThePartialTagThatWentDeeper() throws {
        // p0 is rendered at depth 0, p200 at the limit: its partial tag goes past it.
        var templates = ["p201": "end"]
        for level in 0...200 { templates["p\(level)"] = "p\(level): {{>p\(level + 1)}}" }
        let error = try Self.failure(templates, "p0", .null)
        #expect(error.message == "templates nest more than 200 deep (… > p196 > p197 > p198 > p199 > p200 > p201)", "\(error)")
        #expect((error.file, error.line, error.column) == ("p200.mustache", 1, 7), "\(error)")
    }

    @Test func writingTooMuchIsAtTheTagThatWrotePastTheLimit() throws {
        let error = try Self.failure(["list": "a\n  {{#items}}{{text}}{{/items}}"], "list", Self.items, budget: MustacheBudget(bytes: 100, steps: .max))
        #expect(error.limit == .bytes(100))
        #expect(error.message == "the templates wrote more than 100 bytes (list)")
        #expect((error.file, error.line, error.column) == ("list.mustache", 2, 13), "\(error)")
    }

    /// Text is no tag: the section it is the content of is where it was written.
    @Test func textThatWritesTooMuchIsAtTheTagAroundIt() throws {
        let error = try Self.failure(["list": "a\n  {{#items}}0123456789{{/items}}"], "list", Self.items, budget: MustacheBudget(bytes: 100, steps: .max))
        #expect((error.file, error.line, error.column) == ("list.mustache", 2, 3), "\(error)")
    }

    /// A template's own text outside any tag: the file, without a line.
    @Test func textOutsideAnyTagNamesTheFileAlone() throws {
        let error = try Self.failure(["long": "0123456789"], "long", .null, budget: MustacheBudget(bytes: 5, steps: .max))
        #expect(error.limit == .bytes(5))
        #expect((error.file, error.line, error.column) == ("long.mustache", nil, nil), "\(error)")
        #expect(error.description == "long.mustache: the templates wrote more than 5 bytes (long)")
    }

    /// 20 steps: the text, the section, then the 19th `{{text}}` is the 21st step.
    @Test func takingTooManyStepsIsAtTheTagOfTheStepPastTheLimit() throws {
        let error = try Self.failure(["list": "a\n  {{#items}}{{text}}{{/items}}"], "list", Self.items, budget: MustacheBudget(bytes: .max, steps: 20))
        #expect(error.limit == .steps(20))
        #expect(error.message == "the templates took more than 20 steps (list)")
        #expect((error.file, error.line, error.column) == ("list.mustache", 2, 13), "\(error)")
    }

    /// A block given to a parent is rendered inside the parent, but its tags are the child's: the
    /// error names the child's file, though the innermost template entered is the parent.
    @Test func aBlockGivenToAParentIsInTheChildsFile() throws {
        let error = try Self.failure([
            "parent": "<main>{{$body}}default{{/body}}</main>",
            "child": "{{<parent}}\n{{$body}}\n{{#items}}\n   {{text}}\n{{/items}}\n{{/body}}\n{{/parent}}",
        ], "child", Self.items, budget: MustacheBudget(bytes: 100, steps: .max))
        #expect(error.templates == ["child", "parent"])
        #expect((error.file, error.line, error.column) == ("child.mustache", 4, 4), "\(error)")
    }

    /// What a section over a deferred list writes for an item is rendered later, from the hole;
    /// an error there is at the tag it happened at, or at the section when it was in its text.
    @Test func anItemOfADeferredListIsAtItsTag() throws {
        final class Page: MustacheObject {
            func value(for name: MustacheName) -> MustacheValue? { name.string == "cards" ? .deferredList(count: 1) : nil }
        }
        let library = try Self.library(["page": "<ul>\n{{#cards}}<li>{{{.}}}{{>item}}</li>{{/cards}}</ul>", "item": "<p>0123456789</p>"])
        let page = try library.render(MustacheName("page"), .object(Page()), budget: MustacheBudget(bytes: 20, steps: .max))
        var out: [UInt8] = []
        do {
            try page.holes[0].render(item: .text("abc"), into: &out)
            Issue.record("the item rendered without an error")
        } catch {
            #expect((error.file, error.line, error.column) == ("page.mustache", 2, 22), "\(error)")
        }
        let inText = try Self.library(["page": "<ul>\n{{#cards}}<li>{{{.}}}0123456789012345</li>{{/cards}}</ul>"])
        let textPage = try inText.render(MustacheName("page"), .object(Page()), budget: MustacheBudget(bytes: 20, steps: .max))
        do {
            try textPage.holes[0].render(item: .text("abc"), into: &out)
            Issue.record("the item rendered without an error")
        } catch {
            #expect((error.file, error.line, error.column) == ("page.mustache", 2, 1), "\(error)")
        }
    }

    /// A template parsed without a file still has the tag's line and column.
    @Test func aTemplateWithoutAFileHasThePlaceAlone() throws {
        var library = MustacheLibrary(escape: HTMLEscaping.append)
        library.register(try MustacheTemplate("{{#items}}{{text}}{{/items}}"), named: "anonymous")
        do {
            _ = try library.render(MustacheName("anonymous"), Self.items.value, budget: MustacheBudget(bytes: 10, steps: .max))
            Issue.record("rendered without an error")
        } catch {
            #expect((error.file, error.line, error.column) == (nil, 1, 11), "\(error)")
            #expect(error.description == "1:11: the templates wrote more than 10 bytes (anonymous)")
        }
    }

    /// Within its budget a template renders as before: the checks moved, not the limits.
    @Test func exactlyTheBudgetIsNoError() throws {
        let library = try Self.library(["list": "{{#items}}{{text}}{{/items}}"])
        let output = try library.render(MustacheName("list"), Self.items.value, budget: MustacheBudget(bytes: 500, steps: 51))
        #expect(output.bytes.count == 500)
    }
}
