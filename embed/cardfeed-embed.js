/* CardFeed's placements (docs/embedding.md), one script for two uses:
 * - <cardfeed-placement src="https://cards.example/embed/home-hero.json" limit="2">: a web
 *   component that fetches the placement's JSON and shows its cards in its own open shadow root,
 *   with the stylesheet beside the JSON, so that neither the host's CSS reaches the cards nor
 *   theirs the host. While it loads it takes no room; if the JSON cannot be had it stays hidden.
 * - In the page embed/NAME/ that an <iframe> shows: it sets up the cards there and tells the
 *   parent its height, {type: "cardfeed:height", placement, height}, by postMessage to any
 *   parent (a height is no secret), and again when the parent asks ({type: "cardfeed:measure"}).
 * Either way, as the site's own pages (assets/cardfeed.js, whose keys it shares): cards seen are
 * remembered as viewed ("cardfeed:viewed"), dismissible cards get a button and stay dismissed
 * ("cardfeed:dismissed"), a broken image shows the placeholder, and "cardfeed:impression",
 * "cardfeed:click" and "cardfeed:dismiss" events ({id, type, placement}) bubble out of the
 * shadow root to the host's document. No inline style or script, no eval: it runs under a
 * strict Content Security Policy. */
(function () {
  "use strict";
  var P = "cardfeed-", MAX = 2000;

  function Stored(key) {
    this.key = key;
    this.ids = [];
    try {
      var v = JSON.parse(localStorage.getItem(key) || "[]");
      if (Array.isArray(v)) this.ids = v.filter(function (id) { return typeof id === "string"; });
    } catch (e) { /* no storage: in memory only */ }
  }
  Stored.prototype.has = function (id) { return this.ids.indexOf(id) >= 0; };
  Stored.prototype.add = function (id) {
    if (this.has(id)) return;
    this.ids.push(id);
    while (this.ids.length > MAX) this.ids.shift();
    try { localStorage.setItem(this.key, JSON.stringify(this.ids)); } catch (e) { /* full */ }
  };
  var viewed = new Stored("cardfeed:viewed"), dismissed = new Stored("cardfeed:dismissed");

  function emit(target, name, detail) {
    target.dispatchEvent(new CustomEvent("cardfeed:" + name, { bubbles: true, composed: true, detail: detail }));
  }

  // The cards under `root`, set up as on the site's pages; `placement` names them in events,
  // `placeholder` is the address of the image a broken one falls back to, `label` the dismiss
  // button's word.
  function setUp(root, placement, placeholder, label, limit) {
    var cards = Array.prototype.slice.call(root.querySelectorAll("[data-card-id]"));
    function detail(card) {
      return { id: card.getAttribute("data-card-id"), type: card.getAttribute("data-card-type"), placement: placement };
    }
    function hide(card) { card.hidden = true; card.style.display = "none"; }
    var shown = 0;
    cards.forEach(function (card) {
      var id = card.getAttribute("data-card-id");
      if (dismissed.has(id) || shown >= limit) return hide(card);
      shown++;
      if (viewed.has(id)) {
        card.removeAttribute("data-unread");
        var dots = card.querySelectorAll("." + P + "card__unread");
        for (var i = 0; i < dots.length; i++) dots[i].remove();
      }
      if (card.hasAttribute("data-dismissible")) {
        var button = document.createElement("button"), title = card.querySelector("." + P + "card__title");
        var name = title ? title.textContent.trim() : "";
        button.type = "button";
        button.className = P + "card__dismiss";
        button.title = label;
        button.setAttribute("aria-label", name ? label + " \u201c" + name + "\u201d" : label);
        button.textContent = "\u00d7";
        button.addEventListener("click", function (event) {
          event.preventDefault();
          dismissed.add(id);
          emit(card, "dismiss", detail(card));
          hide(card);
          changed();
        });
        card.classList.add(P + "card--has-dismiss");
        card.appendChild(button);
      }
    });
    root.addEventListener("error", function (event) {
      var image = event.target;
      if (image.tagName !== "IMG" || image.hasAttribute("data-cardfeed-fallback")) return;
      image.setAttribute("data-cardfeed-fallback", "");
      image.removeAttribute("srcset");
      image.src = placeholder;
    }, true);
    root.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest("a[href]");
      var card = link && link.closest("[data-card-id]");
      if (card) emit(card, "click", detail(card));
    });
    var seen = {};
    function impression(card) {
      var d = detail(card);
      if (seen[d.id]) return;
      seen[d.id] = true;
      emit(card, "impression", d);
      viewed.add(d.id);
    }
    var visible = cards.filter(function (card) { return !card.hidden; });
    if (!("IntersectionObserver" in window)) return visible.forEach(impression);
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (entry.isIntersecting && entry.intersectionRatio >= 0.5) {
          impression(entry.target);
          observer.unobserve(entry.target);
        }
      });
    }, { threshold: [0.5] });
    visible.forEach(function (card) { observer.observe(card); });
  }

  // What the frame page calls after a card is dismissed, to send its new height.
  var changed = function () {};

  // The frame page: set up, and tell the parent the height whenever it changes.
  var frame = document.body && document.body.getAttribute("data-cardfeed-frame");
  if (frame !== null && frame !== undefined && document.body) {
    var placeholder = new URL("assets/images/appboy_cc_noimage_lrg.png", document.baseURI).href;
    setUp(document, frame, placeholder, document.body.getAttribute("data-dismiss-label") || "Dismiss", Infinity);
    var last = -1;
    changed = function () {
      var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (height === last || window.parent === window) return;
      last = height;
      window.parent.postMessage({ type: "cardfeed:height", placement: frame, height: height }, "*");
    };
    if ("ResizeObserver" in window) new ResizeObserver(changed).observe(document.documentElement);
    window.addEventListener("load", changed);
    // A parent whose listener came after the frame had told its height (a deferred script, a
    // framework that mounts late) asks for it again.
    window.addEventListener("message", function (event) {
      if (event.source !== window.parent || !event.data || event.data.type !== "cardfeed:measure") return;
      last = -1;
      changed();
    });
    changed();
    return;
  }

  if (!window.customElements || customElements.get("cardfeed-placement")) return;

  class Placement extends HTMLElement {
    static get observedAttributes() { return ["src", "limit"]; }
    connectedCallback() { this.load(); }
    attributeChangedCallback() { if (this.isConnected) this.load(); }
  }

  Placement.prototype.load = function () {
    var self = this, src = this.getAttribute("src"), run = (this.run || 0) + 1;
    this.run = run;
    if (!this.shadowRoot) this.attachShadow({ mode: "open" });
    var shadow = this.shadowRoot;
    // Loading: no room taken, and nothing announced, until the cards are there.
    this.hidden = true;
    this.style.display = "none";
    this.setAttribute("aria-busy", "true");
    if (!src) return;
    var json;
    try { json = new URL(src, document.baseURI); } catch (e) { return; }
    fetch(json.href, { credentials: "omit" })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.json();
      })
      .then(function (data) {
        if (run !== self.run || typeof data.html !== "string") return;
        // The JSON's addresses are relative to the folder above embed/: the site's root, or a
        // language's tree (de/).
        var root = new URL("../", json);
        var template = document.createElement("template");
        template.innerHTML = data.html;
        var fixes = template.content.querySelectorAll("[href], [src], [srcset]");
        for (var i = 0; i < fixes.length; i++) absolute(fixes[i], root);
        var sheet = document.createElement("link");
        sheet.rel = "stylesheet";
        sheet.href = new URL("cardfeed-embed.css", json).href;
        var limit = parseInt(self.getAttribute("limit"), 10);
        sheet.addEventListener("load", function () {
          if (run !== self.run) return;
          self.hidden = false;
          self.style.removeProperty("display");
          self.removeAttribute("aria-busy");
        });
        self.box = template.content.querySelector("." + P + "placement");
        followScheme(self);
        shadow.replaceChildren(sheet, template.content);
        var placeholder = typeof data.placeholder === "string" ? data.placeholder : "assets/images/appboy_cc_noimage_lrg.png";
        setUp(shadow, data.name || "", new URL(placeholder, root).href,
          data.dismiss || "Dismiss", limit > 0 ? limit : Infinity);
      })
      .catch(function () { /* stays hidden: a placement that cannot load takes no room */ });
  };

  // The host page's scheme, which its stylesheet's color-scheme (or its <meta
  // name="color-scheme">) declares: a page that declares only dark or only light has the
  // placement so; one that declares both, or none, leaves it to the reader's setting, as the
  // site's own pages do. Followed as the host changes it (a theme switch on <html> or <body>).
  var placements = [];
  function followScheme(placement) {
    if (placements.indexOf(placement) < 0) placements.push(placement);
    if (placements.length === 1 && window.MutationObserver) {
      var observer = new MutationObserver(function () { placements.forEach(applyScheme); });
      [document.documentElement, document.body].forEach(function (node) {
        if (node) observer.observe(node, { attributes: true });
      });
    }
    applyScheme(placement);
  }
  function applyScheme(placement) {
    if (!placement.box) return;
    var declared = getComputedStyle(placement).colorScheme || "normal";
    var meta = document.querySelector('meta[name="color-scheme"]');
    if (declared === "normal" && meta) declared = meta.content;
    var dark = /\bdark\b/.test(declared), light = /\blight\b/.test(declared);
    var scheme = dark && !light ? "dark" : light && !dark ? "light" : "";
    if (scheme) placement.box.setAttribute("data-" + P + "scheme", scheme);
    else placement.box.removeAttribute("data-" + P + "scheme");
  }

  function absolute(node, root) {
    ["href", "src"].forEach(function (name) {
      var value = node.getAttribute(name);
      if (value !== null && value.charAt(0) !== "#") node.setAttribute(name, new URL(value, root).href);
    });
    var set = node.getAttribute("srcset");
    if (set) node.setAttribute("srcset", set.split(",").map(function (part) {
      var bits = part.trim().split(/\s+/);
      bits[0] = new URL(bits[0], root).href;
      return bits.join(" ");
    }).join(", "));
  }

  customElements.define("cardfeed-placement", Placement);
})();
