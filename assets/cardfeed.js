/* CardFeed's client script: in the browser, what the Braze SDK does in an app.
 *
 * - Viewed state: a card at least half on screen counts as viewed and its id is kept in
 *   localStorage ("cardfeed:viewed"), across visits and pages. As in the Braze feeds, its
 *   unread indicator stays for the rest of the visit in which it was first seen, so that the
 *   reader can tell what is new; on the next visit (a reload, another page) it is gone.
 * - On phones the feed chips scroll sideways: the current feed's chip is scrolled into view.
 * - Events for analytics, dispatched from the card and bubbling to `document`, each with
 *   `detail: {id, type}`: "cardfeed:impression" (first time a card is half visible on a page;
 *   Braze's logCardImpressions), "cardfeed:click" (a link in the card; logCardClick),
 *   "cardfeed:dismiss" (logCardDismissal); and on `document`, "cardfeed:feeddisplayed" with
 *   `detail: {feed}` once a page (logFeedDisplayed).
 * - Dismissible cards (data-dismissible) get a dismiss button; dismissed ids are kept
 *   ("cardfeed:dismissed") and those cards stay hidden.
 * - A card image that fails to load is replaced by the placeholder image.
 * - Where the feed shows cards side by side, each card is packed under the one above it in its
 *   column (see `pack`), so that a short card beside a tall one leaves no gap below it.
 * - Under `cardfeed serve`, a page updated in place after a rebuild ("cardfeed:pagereplaced" on
 *   `document`) is shown as a new page: its cards are set up and the events above fire again.
 *
 * No framework, no third-party code; the pages work without it. */
(function () {
  "use strict";

  var VIEWED_KEY = "cardfeed:viewed";
  var DISMISSED_KEY = "cardfeed:dismissed";
  var MAX_REMEMBERED = 2000;
  var PLACEHOLDER = "assets/images/appboy_cc_noimage_lrg.png";

  // A set of card ids kept in localStorage (or only in memory where storage is unavailable).
  function StoredSet(key) {
    this.key = key;
    this.ids = [];
    try {
      var parsed = JSON.parse(window.localStorage.getItem(key) || "[]");
      if (Array.isArray(parsed)) this.ids = parsed.filter(function (id) { return typeof id === "string"; });
    } catch (e) { /* private mode, disabled storage or a damaged value: start empty */ }
    this.lookup = {};
    for (var i = 0; i < this.ids.length; i++) this.lookup["#" + this.ids[i]] = true;
  }
  StoredSet.prototype.has = function (id) { return this.lookup["#" + id] === true; };
  StoredSet.prototype.add = function (id) {
    if (this.has(id)) return;
    this.lookup["#" + id] = true;
    this.ids.push(id);
    // Keep the most recent ones: old cards expire anyway.
    while (this.ids.length > MAX_REMEMBERED) delete this.lookup["#" + this.ids.shift()];
    try { window.localStorage.setItem(this.key, JSON.stringify(this.ids)); } catch (e) { /* full or unavailable */ }
  };

  var viewed = new StoredSet(VIEWED_KEY);
  var dismissed = new StoredSet(DISMISSED_KEY);

  function cardDetail(card) {
    return { id: card.getAttribute("data-card-id"), type: card.getAttribute("data-card-type") };
  }

  function emit(target, name, detail) {
    target.dispatchEvent(new CustomEvent("cardfeed:" + name, { bubbles: true, detail: detail }));
  }

  function cards() {
    return Array.prototype.slice.call(document.querySelectorAll("[data-card-id]"));
  }

  // A card viewed on an earlier visit: no indicator, as Braze shows a card read.
  function markViewed(card) {
    card.removeAttribute("data-unread");
    card.setAttribute("data-viewed", "");
    var indicators = card.querySelectorAll(".card__unread");
    for (var i = 0; i < indicators.length; i++) indicators[i].remove();
  }

  // The chips' strip scrolls by itself (not the page), and only when the chip is out of it or
  // under one of its faded ends (as wide as its end padding): then the chip is centred. The
  // distance is measured on the screen, so it holds right to left too, where scrollLeft runs
  // from 0 down; the browser stops the scroll at either end.
  function revealCurrentFeed() {
    var current = document.querySelector(".feed-nav [aria-current='page']");
    var strip = current && current.closest("ul, ol");
    if (!strip || strip.scrollWidth <= strip.clientWidth) return;
    var chip = current.getBoundingClientRect(), box = strip.getBoundingClientRect();
    var fade = parseFloat(getComputedStyle(strip).paddingInlineEnd) || 0;
    if (chip.left >= box.left + fade && chip.right <= box.right - fade) return;
    strip.scrollLeft += (chip.left + chip.right) / 2 - (box.left + box.right) / 2;
  }

  // Dismissal: a real button, named after the card for screen readers.
  function addDismissButton(card) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "card__dismiss";
    var title = card.querySelector(".card__title");
    var name = title ? title.textContent.trim() : "";
    // The page's language gives the word (strings/<locale>.json "dismiss").
    var label = document.body.getAttribute("data-dismiss-label") || "Dismiss";
    button.setAttribute("aria-label", name ? label + " \u201c" + name + "\u201d" : label);
    button.title = label;
    button.textContent = "\u00d7";
    button.addEventListener("click", function (event) {
      event.preventDefault();
      dismiss(card);
    });
    card.classList.add("card--has-dismiss");
    card.appendChild(button);
  }

  function dismiss(card) {
    var detail = cardDetail(card);
    dismissed.add(detail.id);
    // Keep keyboard focus in the feed: on the next card, else the previous, else the heading.
    var next = nextVisibleCard(card, "nextElementSibling") || nextVisibleCard(card, "previousElementSibling");
    emit(card, "dismiss", detail);
    hide(card);
    var focusTarget = next || document.querySelector(".feed__title");
    if (focusTarget) {
      if (!focusTarget.hasAttribute("tabindex")) focusTarget.setAttribute("tabindex", "-1");
      focusTarget.focus();
    }
  }

  // `hidden` alone loses to a stylesheet that sets `display` on cards (the built-in one does).
  function hide(card) {
    card.hidden = true;
    card.style.display = "none";
  }

  function nextVisibleCard(card, direction) {
    var node = card[direction];
    while (node && (node.hidden || !node.hasAttribute("data-card-id"))) node = node[direction];
    return node;
  }

  // Broken images: the placeholder takes the image's place (once: if it fails too, it stays).
  function replaceBrokenImage(image) {
    if (image.getAttribute("data-cardfeed-fallback") !== null) return;
    image.setAttribute("data-cardfeed-fallback", "");
    image.removeAttribute("srcset");
    image.classList.add("card__image--placeholder");
    image.src = new URL(PLACEHOLDER, document.baseURI).href;
  }

  function isCardImage(node) {
    return node && node.tagName === "IMG" && node.classList.contains("card__image");
  }

  // Error events do not bubble, but they can be caught on the way down.
  document.addEventListener("error", function (event) {
    if (isCardImage(event.target)) replaceBrokenImage(event.target);
  }, true);

  function feedName() {
    var match = /(?:^|\s)feed-(\S+)/.exec(document.body.className);
    return match ? match[1] : "all";
  }

  // Cards side by side keep their own heights (stretched to the tallest of their row, a short
  // card would show an empty box), so a grid of rows leaves a gap under each short one. The
  // grid's rows become a few pixels high (`feed__cards--packed`) and each card spans its own
  // height and the gap: the grid places each card, in order, in the column whose bottom is the
  // highest, the way a reader's eye goes down the page, and their order in the page stays the
  // reading order. A card's height changes with its column's width, its images and the fonts,
  // so the cards are watched. Without this script the rows stay rows.
  var packing = null;
  // Browsers keep a grid to so many lines (Firefox to 10,000, placing the rest on the last):
  // the rows are made tall enough that a feed of any length needs fewer than this many.
  var MOST_ROWS = 9000;

  function pack(list) {
    if (!list || !("ResizeObserver" in window)) return;
    if (packing) packing.disconnect();
    var cards = Array.prototype.slice.call(list.children);
    function layout() {
      var style = getComputedStyle(list);
      var columns = style.gridTemplateColumns.split(" ").length;
      var packed = columns > 1;
      list.classList.toggle("feed__cards--packed", packed);
      var gap = parseFloat(style.columnGap) || 0;
      var heights = cards.map(function (card) { return card.getBoundingClientRect().height + gap; });
      var row = Math.max(1, Math.ceil(heights.reduce(function (sum, height) { return sum + height; }, 0) / columns / MOST_ROWS));
      list.style.gridAutoRows = packed ? row + "px" : "";
      cards.forEach(function (card, index) {
        card.style.gridRowEnd = packed ? "span " + Math.max(1, Math.ceil(heights[index] / row)) : "";
      });
    }
    packing = new ResizeObserver(layout);
    cards.forEach(function (card) { packing.observe(card); });
  }

  var observer = null;

  // What each display of a page does: set up its cards, report the feed and the impressions.
  function show() {
    if (observer) observer.disconnect();
    observer = null;
    var all = cards();

    all.forEach(function (card) {
      var id = card.getAttribute("data-card-id");
      if (dismissed.has(id)) {
        hide(card);
        return;
      }
      if (viewed.has(id)) markViewed(card);
      if (card.hasAttribute("data-dismissible")) addDismissButton(card);
    });

    // Images that failed before this script ran.
    Array.prototype.forEach.call(document.querySelectorAll("img.card__image"), function (image) {
      if (image.complete && image.naturalWidth === 0 && image.getAttribute("src")) replaceBrokenImage(image);
    });

    pack(document.querySelector(".feed__cards"));
    emit(document, "feeddisplayed", { feed: feedName() });

    var impressed = {};
    function impression(card) {
      var detail = cardDetail(card);
      if (impressed["#" + detail.id]) return;
      impressed["#" + detail.id] = true;
      emit(card, "impression", detail);
      // Remembered for the next visit; this one keeps showing the indicator.
      if (!viewed.has(detail.id)) {
        viewed.add(detail.id);
        card.setAttribute("data-viewed", "");
      }
    }

    var visible = all.filter(function (card) { return !card.hidden; });
    if (!("IntersectionObserver" in window)) {
      visible.forEach(impression);
      return;
    }
    // At least half of the card on screen; a card taller than twice the screen counts when it
    // fills half of it.
    observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        var fillsHalf = entry.rootBounds && entry.intersectionRect.height >= entry.rootBounds.height / 2;
        if (entry.isIntersecting && (entry.intersectionRatio >= 0.5 || fillsHalf)) {
          impression(entry.target);
          observer.unobserve(entry.target);
        }
      });
    }, { threshold: [0.1, 0.25, 0.5] });
    visible.forEach(function (card) { observer.observe(card); });
  }

  function start() {
    document.addEventListener("click", function (event) {
      var link = event.target.closest ? event.target.closest("a[href]") : null;
      var card = link ? link.closest("[data-card-id]") : null;
      if (card) emit(card, "click", cardDetail(card));
    });
    document.addEventListener("cardfeed:pagereplaced", show);
    revealCurrentFeed();
    show();
  }

  // Start once the page is parsed and every other deferred script has run, so that listeners
  // those scripts add hear "cardfeed:feeddisplayed" too.
  var started = false;
  function startOnce() {
    if (started) return;
    started = true;
    start();
  }
  if (document.readyState === "complete") {
    window.setTimeout(startOnce, 0);
  } else {
    document.addEventListener("DOMContentLoaded", startOnce);
    window.addEventListener("load", startOnce);
  }
})();
