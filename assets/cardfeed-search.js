/* CardFeed's search box, on the pages of a site built with `search: true`.
 *
 * It asks Pagefind's JavaScript API (pagefind/pagefind.js, with the index the build made beside
 * it) and shows each card found in CardFeed's own markup, styled by the site's stylesheet and
 * theme: Pagefind's ready-made interface weighs more than the API it is built on and brings a
 * look of its own. Each result is a card's own page (cards/card-….html), which the index gives
 * from the site's root ("/cards/…"): the link is made relative to the page's <base>, so that a
 * site served from a folder (https://example.org/news/) links within it.
 *
 * Keyboard: type to search; Down and Up move through the results, Enter in the box opens the
 * first, Escape closes the list and goes back to the box. The count of cards found is
 * announced to screen readers.
 *
 * The box stays hidden without JavaScript. Pagefind loads its index with fetch and a module
 * import, which browsers refuse to pages opened from files: there the box says that search
 * works once the site is served over http(s). Under `cardfeed serve`, a page replaced after a
 * rebuild gets its box again, and a new index (made after the pages) is used from the next
 * search on ("cardfeed:searchindexed" on `document`). */
(function () {
  "use strict";

  var MAX_RESULTS = 10;
  var loading = null;

  // Pagefind's module, loaded once, when a search is first typed. A large site's index comes in
  // parts (pagefind/cardfeed-parts.json lists the others' folders), each merged into the first,
  // so that one search looks through every card. The build always writes that list: without it
  // (or with a part that does not load) search is unavailable rather than quietly partial, and
  // the next search starts again from nothing (Pagefind keeps a merged index that failed).
  function pagefind() {
    if (!loading) {
      var index = new URL("pagefind/", document.baseURI);
      var parts = fetch(new URL("cardfeed-parts.json", index).href).then(function (response) {
        if (!response.ok) throw new Error("no cardfeed-parts.json");
        return response.json();
      });
      var module = null;
      loading = Promise.all([import(new URL("pagefind.js", index).href), parts]).then(function (loaded) {
        module = loaded[0];
        return module.options({ excerptLength: 20 }).then(function () {
          return Promise.all((loaded[1].parts || []).filter(searchesIn(loaded[1].languages)).map(function (part) {
            return module.mergeIndex(new URL(part, index).href);
          }));
        }).then(function () { return module; });
      });
      loading.catch(function () {
        loading = null;
        if (module) module.destroy().catch(function () {});
      });
    }
    return loading;
  }

  // On a site in several languages, whether a part has an index for the page's language, as
  // Pagefind picks it (the whole tag, else its first part): a part without one would answer with
  // its largest language's cards, so it is left out. The list names each part's languages there
  // only; every part of a site in one language is merged.
  function searchesIn(languages) {
    var tag = (document.documentElement.getAttribute("lang") || "unknown").toLowerCase();
    return function (part) {
      var has = languages && languages[part];
      return !has || has.indexOf(tag) >= 0 || has.indexOf(tag.split("-")[0]) >= 0;
    };
  }

  // The next search loads the index anew (and sets the options again, which destroy forgets).
  function forgetIndex() {
    var loaded = loading;
    loading = null;
    if (loaded) loaded.then(function (module) { return module.destroy(); }).catch(function () {});
  }

  // "3 cards", in the form the page's language gives that number (data-count-one, -few, …).
  function countText(box, count) {
    var form = "other";
    try { form = new Intl.PluralRules(document.documentElement.lang || "en").select(count); } catch (e) { /* old browser */ }
    var text = box.getAttribute("data-count-" + form) || box.getAttribute("data-count-other") || "{count}";
    return text.replace("{count}", count.toLocaleString(document.documentElement.lang || undefined));
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  // Pagefind's excerpt is HTML: the card's words, escaped, with <mark> around those that matched.
  // It is read in an inert document and only its text and marks are copied.
  function excerpt(html) {
    var node = element("p", "site-search__excerpt");
    var parsed = new DOMParser().parseFromString("<body>" + html, "text/html").body;
    Array.prototype.forEach.call(parsed.childNodes, function (child) {
      if (child.nodeType === Node.TEXT_NODE) node.appendChild(document.createTextNode(child.textContent));
      else if (child.nodeName === "MARK") node.appendChild(element("mark", null, child.textContent));
      else node.appendChild(document.createTextNode(child.textContent || ""));
    });
    return node;
  }

  function result(data) {
    var meta = data.meta || {};
    var item = element("li", "site-search__result");
    if (meta.image) {
      var image = element("img", "site-search__image");
      image.src = meta.image;
      image.alt = "";
      image.loading = "lazy";
      item.appendChild(image);
    }
    var text = element("div", "site-search__text");
    var link = element("a", "site-search__link", meta.title || data.url);
    link.href = data.url.replace(/^\/+/, "");
    text.appendChild(link);
    text.appendChild(excerpt(data.excerpt || ""));
    if (meta.date) text.appendChild(element("p", "site-search__date", meta.date));
    item.appendChild(text);
    return item;
  }

  function setUp(box) {
    if (box.getAttribute("data-ready") !== null) return;
    box.setAttribute("data-ready", "");
    box.hidden = false;
    var input = box.querySelector(".site-search__input");
    var panel = box.querySelector(".site-search__panel");
    var list = box.querySelector(".site-search__results");
    var status = box.querySelector("[role='status']");
    var shown = "";

    function show(items, said) {
      list.replaceChildren.apply(list, items);
      status.textContent = said;
      panel.hidden = items.length === 0;
    }

    function search() {
      var query = input.value.trim();
      if (query === shown) return;
      shown = query;
      if (!query) { show([], ""); return; }
      pagefind().then(function (module) {
        return module.debouncedSearch(query, {}, 150).then(function (found) {
          if (found === null || input.value.trim() !== query) return null;  // a later search replaces it
          return Promise.all(found.results.slice(0, MAX_RESULTS).map(function (r) { return r.data(); })).then(function (datas) {
            if (input.value.trim() !== query) return;
            var said = found.results.length ? countText(box, found.results.length)
              : (box.getAttribute("data-none") || "").replace("{query}", query);
            var items = datas.map(result);
            if (!items.length) items = [element("li", "site-search__none", said)];
            show(items, said);
          });
        });
      }).catch(function () {
        var said = box.getAttribute("data-unavailable") || "";
        show([element("li", "site-search__none", said)], said);
      });
    }

    function links() { return Array.prototype.slice.call(list.querySelectorAll(".site-search__link")); }

    input.addEventListener("input", search);
    input.addEventListener("focus", function () { pagefind().catch(function () {}); if (list.children.length) panel.hidden = false; });
    input.addEventListener("keydown", function (event) {
      var found = links();
      if (event.key === "ArrowDown" && found.length) { event.preventDefault(); found[0].focus(); }
      else if (event.key === "Enter" && found.length) { event.preventDefault(); found[0].click(); }
      else if (event.key === "Escape") { panel.hidden = true; }
    });
    list.addEventListener("keydown", function (event) {
      var found = links();
      var at = found.indexOf(document.activeElement);
      if (event.key === "ArrowDown" && at >= 0 && at < found.length - 1) { event.preventDefault(); found[at + 1].focus(); }
      else if (event.key === "ArrowUp" && at > 0) { event.preventDefault(); found[at - 1].focus(); }
      else if (event.key === "ArrowUp" && at === 0) { event.preventDefault(); input.focus(); }
      else if (event.key === "Escape") { event.preventDefault(); input.focus(); panel.hidden = true; }
    });
    // A result that is the page already shown only scrolls: the list gets out of the way.
    list.addEventListener("click", function (event) {
      if (event.target.closest(".site-search__link")) panel.hidden = true;
    });
    box.addEventListener("focusout", function (event) {
      if (!box.contains(event.relatedTarget)) panel.hidden = true;
    });
  }

  function setUpAll() {
    Array.prototype.forEach.call(document.querySelectorAll(".site-search"), setUp);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUpAll);
  else setUpAll();
  document.addEventListener("cardfeed:pagereplaced", setUpAll);
  document.addEventListener("cardfeed:searchindexed", forgetIndex);
})();
