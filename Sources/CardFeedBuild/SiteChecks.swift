import Foundation
import Logging
import CardFeedLoad
import CardFeedModel
import CardFeedSelect
import CardFeedRender
import CardFeedWrite

/// The checks that warn about a site, or stop its build.
extension SiteBuilder {
    /// A warning for each card that would be shown although it is dated after the build's
    /// time: it sorts at the top, as if published already; a terminal shows them once a file
    /// (`Diagnostic.summary`). (With `future: hide` such a card waits instead, and the select
    /// step names it.)
    func warnAboutFutureCards(_ cards: [Card], _ selector: FeedSelector, _ diagnostics: inout Diagnostics) {
        for card in cards where selector.isFuture(card) && selector.hiddenReason(card) == nil {
            var diagnostic = Diagnostic(
                .warning, file: card.source.file, cardIndex: card.source.index, cardID: card.id, field: "created",
                message: "dated \(Formatting.iso(card.created ?? 0)), after the build's time (\(Formatting.iso(selector.now)), --now); shown at the top as if published. To keep such cards until their date, set future: hide in cardfeed.yml")
            diagnostic.summary = "dated after the build's time (\(Formatting.iso(selector.now)), --now); shown at the top as if published. To keep such cards until their date, set future: hide in cardfeed.yml"
            diagnostic.cardOffset = card.source.offset
            diagnostics.append(diagnostic)
        }
    }

    /// A card whose `template` extra names a template the site does not have is rendered with
    /// its type's template, with a warning.
    func checkCardTemplates(_ cards: [Card], _ templates: TemplateSet, _ diagnostics: inout Diagnostics) {
        for card in cards {
            guard let name = card.templateName, !templates.hasCardTemplate(name) else { continue }
            var diagnostic = Diagnostic(
                .warning, file: card.source.file, cardIndex: card.source.index, cardID: card.id, field: "extras.template",
                message: "no template templates/cards/\(name).mustache in the site; the card's \(card.type.rawValue) template is used")
            diagnostic.cardOffset = card.source.offset
            diagnostics.append(diagnostic)
        }
    }

    /// A banner's image is all it shows (and so is that of a card with neither title nor
    /// description), so a screen reader needs words for it: a warning for each such card without
    /// `image_alt` (after the rules, which may set it), which a terminal shows once a file
    /// (`Diagnostic.summary`), since Braze's own banners seldom carry it.
    func checkBannerDescriptions(_ cards: [Card], _ diagnostics: inout Diagnostics) {
        for card in cards where card.showsOnlyItsImage && card.image != nil && card.imageAlt == nil {
            let why = card.type == .bannerImage
                ? "a banner's image is all it shows, so screen readers read "
                : "with neither title nor description, the image is all the card shows, so screen readers read "
            let instead = card.wordsForItsImage.map { "the card's title, domain or link's host or address instead (\(Diagnostic.quoted($0)))" } ?? "nothing for it"
            let advice = "; add image_alt to say what the image shows"
            var diagnostic = Diagnostic(
                .warning, file: card.source.file, cardIndex: card.source.index, cardID: card.id, field: "image_alt",
                message: "missing: " + why + instead + advice)
            diagnostic.summary = "missing: " + why + "the card's title, domain or link's host or address instead, if it has one" + advice
            diagnostic.cardOffset = card.source.offset
            diagnostics.append(diagnostic)
        }
    }

    /// A card whose file gave its link as spaces only has no link (`CardSource.blankLinkKey`),
    /// so its domain, the link's words, which its writer meant to be seen, shows nowhere: a
    /// warning for each such card that still has a domain and no link after the rules (which
    /// may set either), which a terminal shows once a file.
    func checkBlankLinks(_ cards: [Card], _ diagnostics: inout Diagnostics) {
        for card in cards where card.url == nil {
            guard let key = card.source.blankLinkKey, let domain = card.domain else { continue }
            let advice = "give the card a url, or leave out domain"
            var diagnostic = Diagnostic(
                .warning, file: card.source.file, cardIndex: card.source.index, cardID: card.id, field: key,
                message: "blank, so the card has no link, and its domain (\(Diagnostic.quoted(domain))), the link's words, is not shown either; " + advice)
            diagnostic.summary = "blank, so the card has no link, and its domain, the link's words, is not shown either; " + advice
            diagnostic.cardOffset = card.source.offset
            diagnostics.append(diagnostic)
        }
    }

    /// The warnings about one tree's pages: anchors alike, pages that cannot be cut where the cards say.
    func warnAboutPages(_ selection: Selection, _ ruled: RuleEngine.RuledCards, _ setup: Setup, _ report: inout BuildReport) {
        for (earlier, later, anchor) in selection.cards.anchorCollisions {
            let (first, second) = (selection.cards[earlier], selection.cards[later])
            // With card pages, anchors that differ only in case collide too: they name files.
            let butForCase = Formatting.anchor(for: first.id) != Formatting.anchor(for: second.id)
            var warning = Diagnostic(
                .warning, file: second.source.file, cardIndex: second.source.index, cardID: second.id, field: "id",
                message: "its anchor would be the same as that of card \(Diagnostic.quoted(first.id)) (\(first.source.file), shown first)"
                    + (butForCase ? " but for case, and so would its page's file on file systems that ignore case (macOS, Windows)" : "")
                    + "; this card's anchor is \(anchor)")
            warning.cardOffset = second.source.offset
            record([located(warning)], in: &report)
        }
        for feed in selection.feeds {
            guard let pageEnds = feed.pageEndsWhenPagedByCount else { continue }
            let pageSize = setup.config.pageSize
            record([Diagnostic(
                .warning, file: options.site.display(options.site.root),
                message: "the \(feed.feed.slug)\(feed.feed.tree.isEmpty ? "" : " (\(feed.feed.tree)/)") feed's card ids defeat pages cut where the cards say (ids chosen, or all alike): \(pageEnds) of its \(feed.cards.count) cards are page ends where chance gives about \(feed.cards.count / pageSize), or many cards in a row are none; its pages are cut every \(pageSize) cards from the oldest instead, so a card coming or going may change every page of the feed")], in: &report)
        }
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
            for (format, _) in OutputFormat.perFeed where syndication {
                generated[format.path(for: feed.feed)] = "the \(feed.feed.slug) feed's \(format.name) file"
            }
        }
        for (format, _) in OutputFormat.perSite where syndication { generated[format.path(for: nil)] = "the \(format.name)" }
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
