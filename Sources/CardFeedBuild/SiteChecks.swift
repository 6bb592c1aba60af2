import Foundation
import Logging
import CardFeedLoad
import CardFeedModel
import CardFeedSelect
import CardFeedRender
import CardFeedWrite

/// A check that warns about a site, or stops its build: one entry of `SiteCheck.all`, the one
/// place a new warning goes. Each looks at what a step has made, and that step runs it.
struct SiteCheck: Sendable {
    enum Over: Sendable {
        /// The cards as the rules left them (the rules step), located in their files with the
        /// load's diagnostics and reported with them at the checkpoint.
        case cards(@Sendable (SiteBuilder, CheckedCards) -> [Diagnostic])
        /// The folder a build writes to (the checkpoint; not for a build that writes no folder),
        /// reported with the cards'; an error ends the build there.
        case outputFolder(@Sendable (SiteBuilder, URL) -> [Diagnostic])
        /// One tree's selection (the select step), reported as each is found.
        case selection(@Sendable (SiteBuilder, Selection, SiteConfig) -> [Diagnostic])
        /// The files the build copies under their own names, from `SITE/assets/` and `static/`
        /// (the render step, before any page is written); an error ends the build.
        case copiedFiles(@Sendable (SiteBuilder, CopiedFiles) -> [Diagnostic])
        /// What the render step made of every tree (once it has rendered them all), reported
        /// after the placements' stylesheet warnings.
        case rendered(@Sendable (SiteBuilder, RenderedTrees) -> [Diagnostic])
    }

    /// What it checks, for the reader of this list.
    let name: String
    let over: Over

    init(_ name: String, _ over: Over) {
        self.name = name
        self.over = over
    }

    /// What the checks of the cards look at.
    struct CheckedCards {
        var cards: [Card]
        var config: SiteConfig
        /// nil when the templates have errors.
        var templates: TemplateSet?
        var selector: FeedSelector
        /// The load had errors: the cards are not all there.
        var loadFailed: Bool
    }

    /// What the checks of the copied files look at.
    struct CopiedFiles {
        /// The site's own files of `SITE/assets/`, and those of `static/`.
        var siteAssets: [String]
        var staticFiles: [String]
        var selections: [Selection]
        /// Every asset's path in the output, built in or the site's.
        var assetPaths: [String]
        var syndication: Bool
        var search: Bool
        var hidden: OutputHiddenFiles
    }

    /// What the checks of the rendered trees look at.
    struct RenderedTrees {
        /// The frame pages of language trees that load the root's placements' files
        /// (`PlacementFiles.framesLoadingTheRootsFiles`), in the trees' order.
        var framesLoadingTheRootsFiles: [String]
    }

    static let all: [SiteCheck] = [
        SiteCheck("cards dated after the build's time, shown (future: show)", .cards { builder, checked in
            checked.config.future == .show ? builder.futureCards(checked.cards, checked.selector) : []
        }),
        SiteCheck("a card's template extra naming a template the site lacks", .cards { builder, checked in
            checked.templates.map { builder.missingCardTemplates(checked.cards, $0) } ?? []
        }),
        SiteCheck("a text announcement's image that a site template shows nowhere", .cards { builder, checked in
            checked.templates.map { builder.textAnnouncementImagesNotShown(checked.cards, $0) } ?? []
        }),
        SiteCheck("an image that is all its card shows, without image_alt", .cards { builder, checked in builder.imagesWithoutWords(checked.cards) }),
        SiteCheck("a blank link whose domain then shows nowhere", .cards { builder, checked in builder.blankLinks(checked.cards) }),
        SiteCheck("ids too long for readers' browsers to keep", .cards { builder, checked in builder.longIDs(checked.cards) }),
        SiteCheck("configured feeds that show nothing or match nothing", .cards { _, checked in
            guard let feeds = checked.config.feeds, !checked.cards.isEmpty, !checked.loadFailed else { return [] }
            return FeedCheck(cards: checked.cards).warnings(feeds)
        }),
        SiteCheck("cards in no language's tree", .cards { _, checked in
            guard let languages = checked.config.languages else { return [] }
            let selector = checked.selector
            return LanguageTrees(languages).warnings(checked.cards) { selector.hiddenReason($0) != nil }
        }),
        SiteCheck("an output folder that would destroy or feed back into the site, or holds files cardfeed did not write", .outputFolder { builder, folder in
            do throws(SiteWriter.Refusal) { try SiteWriter(output: folder).checkOutput(site: builder.options.site) } catch {
                return [Diagnostic(.error, file: SiteFolder.display(folder), message: error.description)]
            }
            return []
        }),
        SiteCheck("cards whose anchors are alike", .selection { builder, selection, _ in builder.anchorsAlike(selection) }),
        SiteCheck("feeds whose pages cannot be cut where the cards say", .selection { builder, selection, config in
            builder.pagesCutByCount(selection, pageSize: config.pageSize)
        }),
        SiteCheck("placements that show no card", .selection { builder, selection, _ in builder.emptyPlacements(selection) }),
        SiteCheck("copied files with a name Windows keeps for a device", .copiedFiles { builder, files in
            builder.unportableNames(assets: files.siteAssets, static: files.staticFiles)
        }),
        SiteCheck("files of static/ where the build writes", .copiedFiles { builder, files in
            guard !files.staticFiles.isEmpty else { return [] }
            return builder.staticCollisions(
                files.staticFiles, selections: files.selections, assets: files.assetPaths, syndication: files.syndication, search: files.search, hidden: files.hidden)
        }),
        SiteCheck("language trees' frame pages that load the root's placements' files", .rendered { builder, trees in
            trees.framesLoadingTheRootsFiles.first.map { [builder.frameWarning($0, others: trees.framesLoadingTheRootsFiles.count - 1)] } ?? []
        }),
    ]
}

extension SiteBuilder {
    /// What the checks of the cards say, in the list's order.
    func check(_ cards: SiteCheck.CheckedCards) -> [Diagnostic] {
        SiteCheck.all.flatMap { check -> [Diagnostic] in
            if case .cards(let run) = check.over { run(self, cards) } else { [] }
        }
    }

    /// What the checks of the output folder say, in the list's order.
    func check(outputFolder folder: URL) -> [Diagnostic] {
        SiteCheck.all.flatMap { check -> [Diagnostic] in
            if case .outputFolder(let run) = check.over { run(self, folder) } else { [] }
        }
    }

    /// What the checks of one tree's selection say, in the list's order.
    func check(_ selection: Selection, _ config: SiteConfig) -> [Diagnostic] {
        SiteCheck.all.flatMap { check -> [Diagnostic] in
            if case .selection(let run) = check.over { run(self, selection, config) } else { [] }
        }
    }

    /// What the checks of the copied files say, in the list's order.
    func check(_ files: SiteCheck.CopiedFiles) -> [Diagnostic] {
        SiteCheck.all.flatMap { check -> [Diagnostic] in
            if case .copiedFiles(let run) = check.over { run(self, files) } else { [] }
        }
    }

    /// What the checks of the rendered trees say, in the list's order.
    func check(_ trees: SiteCheck.RenderedTrees) -> [Diagnostic] {
        SiteCheck.all.flatMap { check -> [Diagnostic] in
            if case .rendered(let run) = check.over { run(self, trees) } else { [] }
        }
    }
}

/// The checks themselves.
extension SiteBuilder {
    /// A warning for each card that would be shown although it is dated after the build's
    /// time: it sorts at the top, as if published already; a terminal shows them once a file
    /// (`Diagnostic.summary`). (With `future: hide` such a card waits instead, and the select
    /// step names it.)
    func futureCards(_ cards: [Card], _ selector: FeedSelector) -> [Diagnostic] {
        let after = "after the build's time (\(Formatting.iso(selector.now)), --now); shown at the top as if published. To keep such cards until their date, set future: hide in cardfeed.yml"
        return cards.filter { selector.isFuture($0) && selector.hiddenReason($0) == nil }.map { card in
            Diagnostic(.warning, card: card, field: "created", message: "dated \(Formatting.iso(card.created ?? 0)), " + after, summary: "dated " + after)
        }
    }

    /// A text announcement with an image shows it, as Braze's Classic card does; through a site
    /// template that shows no image it does not: one warning for each such template, naming the
    /// cards it leaves without their image.
    func textAnnouncementImagesNotShown(_ cards: [Card], _ templates: TemplateSet) -> [Diagnostic] {
        var byFile: [String: [Card]] = [:]
        for card in cards where card.type == .textAnnouncement && card.image != nil {
            if let file = templates.fileShowingNoImage(for: card) { byFile[file, default: []].append(card) }
        }
        return byFile.sorted(by: { $0.key < $1.key }).map { file, affected in
            let named = affected.prefix(3).map { "\($0.source) (id \(Diagnostic.quoted($0.id)))" }.joined(separator: ", ")
            let cards = affected.count == 1 ? "the card \(named)" : "\(affected.count) cards (\(named)\(affected.count > 3 ? ", …" : ""))"
            return Diagnostic(
                .warning, file: file,
                message: "shows no image, so \(cards) of type text_announcement with an image \(affected.count == 1 ? "shows" : "show") it nowhere (Braze's Web SDK shows it, as a Classic card); add {{>partials/image}} to the template's media block, or extend builtin.cards.text_announcement")
        }
    }

    /// A card whose `template` extra names a template the site does not have is rendered with
    /// its type's template, with a warning.
    func missingCardTemplates(_ cards: [Card], _ templates: TemplateSet) -> [Diagnostic] {
        cards.compactMap { card in
            guard let name = card.templateName, !templates.hasCardTemplate(name) else { return nil }
            return Diagnostic(
                .warning, card: card, field: "extras.template",
                message: "no template templates/cards/\(name).mustache in the site; the card's \(card.type.rawValue) template is used")
        }
    }

    /// A banner's image is all it shows (and so is that of a card with neither title nor
    /// description), so a screen reader needs words for it: a warning for each such card without
    /// `image_alt` (after the rules, which may set it), which a terminal shows once a file
    /// (`Diagnostic.summary`), since Braze's own banners seldom carry it.
    func imagesWithoutWords(_ cards: [Card]) -> [Diagnostic] {
        // The words that do not name the card made once, not once a card: the bench's 100,000
        // cards have 19,964 such banners, on the main thread before the selection.
        let advice = "; add image_alt to say what the image shows"
        let (banner, other) = ("missing: a banner's image is all it shows, so screen readers read ",
                               "missing: with neither title nor description, the image is all the card shows, so screen readers read ")
        let read = "the card's title, domain or link's host or address instead"
        let summaryEnd = read + ", if it has one" + advice
        let (bannerSummary, otherSummary) = (banner + summaryEnd, other + summaryEnd)
        return cards.compactMap { card in
            guard card.showsOnlyItsImage, card.image != nil, card.imageAlt == nil else { return nil }
            let isBanner = card.type == .bannerImage
            let instead = card.wordsForItsImage.map { read + " (\(Diagnostic.quoted($0)))" } ?? "nothing for it"
            return Diagnostic(
                .warning, card: card, field: "image_alt", message: (isBanner ? banner : other) + instead + advice,
                summary: isBanner ? bannerSummary : otherSummary)
        }
    }

    /// A card whose file gave its link as spaces only has no link (`CardSource.blankLinkKey`),
    /// so its domain, the link's words, which its writer meant to be seen, shows nowhere: a
    /// warning for each such card that still has a domain and no link after the rules (which
    /// may set either), which a terminal shows once a file.
    func blankLinks(_ cards: [Card]) -> [Diagnostic] {
        cards.compactMap { card in
            guard card.url == nil, let key = card.source.blankLinkKey, let domain = card.domain else { return nil }
            let advice = "give the card a url, or leave out domain"
            return Diagnostic(
                .warning, card: card, field: key,
                message: "blank, so the card has no link, and its domain (\(Diagnostic.quoted(domain))), the link's words, is not shown either; " + advice,
                summary: "blank, so the card has no link, and its domain, the link's words, is not shown either; " + advice)
        }
    }

    /// A warning for each card whose anchor would be that of a card shown before it in the tree.
    func anchorsAlike(_ selection: Selection) -> [Diagnostic] {
        selection.cards.anchorCollisions.map { earlier, later, anchor in
            let (first, second) = (selection.cards[earlier], selection.cards[later])
            // With card pages, anchors that differ only in case collide too: they name files.
            let butForCase = Formatting.anchor(for: first.id) != Formatting.anchor(for: second.id)
            return located(Diagnostic(
                .warning, card: second, field: "id",
                message: "its anchor would be the same as that of card \(Diagnostic.quoted(first.id)) (\(first.source.file), shown first)"
                    + (butForCase ? " but for case, and so would its page's file on file systems that ignore case (macOS, Windows)" : "")
                    + "; this card's anchor is \(anchor)"))
        }
    }

    /// A warning for each feed of the tree whose pages cannot be cut where the cards say.
    func pagesCutByCount(_ selection: Selection, pageSize: Int) -> [Diagnostic] {
        selection.feeds.compactMap { feed in
            guard let pageEnds = feed.pageEndsWhenPagedByCount else { return nil }
            return Diagnostic(
                .warning, file: options.site.display(options.site.root),
                message: "the \(feed.feed.slug)\(feed.feed.tree.isEmpty ? "" : " (\(feed.feed.tree)/)") feed's card ids defeat pages cut where the cards say (ids chosen, or all alike): \(pageEnds) of its \(feed.cards.count) cards are page ends where chance gives about \(feed.cards.count / pageSize), or many cards in a row are none; its pages are cut every \(pageSize) cards from the oldest instead, so a card coming or going may change every page of the feed")
        }
    }

    /// A warning for each placement of the tree that shows no card, saying why (`whyEmpty`).
    func emptyPlacements(_ selection: Selection) -> [Diagnostic] {
        selection.placements.compactMap { placed in
            guard let why = placed.whyEmpty(in: selection) else { return nil }
            let placement = placed.placement
            let fragment = PlacementFiles.paths(of: placement.name, tree: selection.tree)[0]
            return Diagnostic(
                .warning, file: placement.file, line: placement.line, column: placement.column, field: "placements.\(placement.name)",
                message: "the placement \(Diagnostic.quoted(placement.name))\(selection.tree.isEmpty ? "" : " (\(selection.tree)/)") shows no card: \(why), so \(fragment), its JSON and its frame page are empty")
        }
    }

    /// Ids longer than this (in UTF-16 units, as browsers count) are a warning.
    static let longestCardID = 256

    /// A warning for each card whose id is longer than `longestCardID`: readers' browsers keep
    /// the ids of the cards they read and dismissed, on the site's pages and in placements on
    /// other sites' pages, which keep at most 64 kB of them there (docs/embedding.md).
    func longIDs(_ cards: [Card]) -> [Diagnostic] {
        cards.filter { $0.id.utf16.count > Self.longestCardID }.map { card in
            let why = "readers' browsers keep the ids of the cards they read and dismissed (placements on other sites' pages keep at most 64 kB of them, and an id over 128 characters as a hash); give the card a shorter id"
            return Diagnostic(
                .warning, card: card, field: "id", message: "\(card.id.utf16.count) characters long, over \(Self.longestCardID): " + why,
                summary: "over \(Self.longestCardID) characters long: " + why)
        }
    }

    /// The warning at the site's own `placement_frame` when the frame pages of language trees
    /// (`first` and `others` more) load the root's placements' files (`PlacementFiles.framesLoadingTheRootsFiles`).
    func frameWarning(_ first: String, others: Int) -> Diagnostic {
        let template = options.site.display(options.site.templateFile("placement_frame"))
        let pages = first + (others == 0 ? " loads" : " and \(others) more frame page\(others == 1 ? "" : "s") load")
        return Diagnostic(.warning, file: template, message: "\(pages) \(PlacementFiles.stylesheet()) or \(PlacementFiles.script()), the placements' files of the root, where each language's frame page loads its own tree's (there are none at the root with default_language_folder: true); write {{embed}}cardfeed-embed.css and {{embed}}cardfeed-embed.js, as the built-in template does")
    }

    /// Errors for the files the build copies under their own names, of `SITE/assets/` and
    /// `static/`, whose path holds a name Windows keeps for a device (`PortableName`).
    func unportableNames(assets: [String], static staticFiles: [String]) -> [Diagnostic] {
        let copied = assets.map { (options.site.assetsFolder, $0, "assets/" + $0) } + staticFiles.map { (options.site.staticFolder, $0, $0) }
        return copied.compactMap { folder, path, outputPath in
            guard let (name, device) = PortableName.windowsDevice(alongPath: path) else { return nil }
            return Diagnostic(.error, file: options.site.display(folder.appendingPathComponent(path)), message: "would be copied to \(outputPath), but \(Diagnostic.quoted(name)) is a name Windows keeps for a device (\(device)), which a site copied, checked out or unzipped there loses; rename it")
        }
    }

    /// Errors for files of `static/` that would land where the build writes a file (or a folder
    /// of files), in a `.git`, or on or inside a hidden path of the output that the build keeps,
    /// each naming both.
    func staticCollisions(_ files: [String], selections: [Selection], assets: [String], syndication: Bool, search: Bool, hidden: OutputHiddenFiles) -> [Diagnostic] {
        var generated: [String: String] = [SiteWriter.markerName: "the marker of cardfeed's output folder"]
        for feed in selections.flatMap(\.feeds) {
            generated[feed.front.path] = "the front page of the \(feed.feed.slug) feed"
            for page in feed.archive { generated[page.path] = "a page of the \(feed.feed.slug) feed" }
            for format in OutputFormat.written(withBaseURL: syndication) where format.view == .feed {
                generated[format.path(for: feed.feed)] = "the \(feed.feed.slug) feed's \(format.name) file"
            }
        }
        for format in OutputFormat.written(withBaseURL: syndication) where format.view == .site { generated[format.path(for: nil)] = "the \(format.name)" }
        for selection in selections where !selection.placements.isEmpty {
            for placement in selection.placements {
                for path in PlacementFiles.paths(of: placement.placement.name, tree: selection.tree) { generated[path] = "a file of the placement \(placement.placement.name)" }
            }
            generated[PlacementFiles.script(tree: selection.tree)] = "the placements' script"
            generated[PlacementFiles.stylesheet(tree: selection.tree)] = "the placements' stylesheet"
        }
        for path in assets { generated[path] = path.hasPrefix("assets/") ? "an asset (from SITE/assets/ or built in)" : "a generated file" }
        let folders = Set(generated.keys.flatMap { path in
            var prefixes: [String] = []
            var folder = PagePaths.folder(path)
            while !folder.isEmpty { prefixes.append(folder); folder = PagePaths.folder(folder) }
            return prefixes
        })
        var problems: [Diagnostic] = []
        for path in files {
            let file = options.site.display(options.site.staticFolder.appendingPathComponent(path))
            let cardPagesFolders = selections.map { PagePaths.cardPagesFolder(tree: $0.tree) }
            if let cardPages = cardPagesFolders.first(where: { path == $0 || path.hasPrefix($0 + "/") }) {
                problems.append(Diagnostic(.error, file: file, message: "would be copied \(path == cardPages ? "to" : "into") \(cardPages)\(path == cardPages ? "" : "/"), the folder of the cards' own pages, which is the build's alone (even with card_pages: false); move it"))
            } else if OutputHiddenFiles.isInsideGit(path) {
                problems.append(Diagnostic(.error, file: file, message: "would be copied to \(path), inside the output's .git, which is git's own (a deployment branch's repository and its config), never a file of the site; remove it from static/"))
            } else if let kept = hidden.keptPath(touchedBy: path) {
                // Only a folder replaced as a whole keeps hidden paths of its own (`OutputTransaction`).
                let output = destination.folder.map { SiteFolder.display($0.appendingPathComponent(kept)) } ?? kept
                problems.append(Diagnostic(.error, file: file, message: "would be copied to \(path), \(kept == path ? "over" : path.hasPrefix(kept + "/") ? "inside" : "in place of the folder holding") \(output), a hidden path of the output that every build keeps and none wrote; remove one of them (or move the output's into static/, so that the build writes it)"))
            } else if search, path == Pagefind.folder || path.hasPrefix(Pagefind.folder + "/") {
                problems.append(Diagnostic(.error, file: file, message: "would be copied to \(path), in \(Pagefind.folder)/, where the build writes the search index (search: true); rename or remove it"))
            } else if let what = generated[path] {
                problems.append(Diagnostic(.error, file: file, message: "would be copied to \(path), where the build writes \(what); rename or remove one of them"))
            } else if folders.contains(path) {
                problems.append(Diagnostic(.error, file: file, message: "would be copied to \(path), where the build writes the folder \(path)/; rename or remove it"))
            } else if let clash = generated.keys.sorted().first(where: { path.hasPrefix($0 + "/") }) {
                problems.append(Diagnostic(.error, file: file, message: "would be copied into \(clash)/, but the build writes \(clash) as a file (\(generated[clash]!)); move it"))
            }
        }
        return problems
    }
}
