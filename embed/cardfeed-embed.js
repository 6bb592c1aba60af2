/* CardFeed's placements (docs/embedding.md), one script for two uses:
 * - <cardfeed-placement src="https://cards.example/embed/home-hero.json" limit="2">: a web
 *   component that fetches the placement's JSON and shows its cards in its own open shadow root,
 *   with the stylesheet beside the JSON, so that neither the host's CSS reaches the cards nor
 *   theirs the host. While it loads it keeps the room the host gives it (none, or the documented
 *   min-height), and its cards come in once their stylesheet has: one change of layout, none
 *   where the host reserved their height. If the JSON or the stylesheet cannot be had it says
 *   why, once, with console.warn and a "cardfeed:error" event ({src, reason}), and takes no room.
 * - In the page embed/NAME/ that an <iframe> shows: it sets up the cards there and tells the
 *   parent its height, {type: "cardfeed:height", placement, height}, by postMessage to any
 *   parent (a height is no secret), and again when the parent asks ({type: "cardfeed:measure"});
 *   it takes the host's scheme from the frame's address (?scheme=dark) or from the parent
 *   ({type: "cardfeed:scheme", scheme: "dark"}).
 * Either way, as the site's own pages (assets/cardfeed.js, whose keys it shares): cards seen are
 * remembered as viewed ("cardfeed:viewed"), dismissible cards get a button and stay dismissed
 * ("cardfeed:dismissed"), a broken image shows the placeholder, and "cardfeed:impression",
 * "cardfeed:click" and "cardfeed:dismiss" events ({id, type, placement}) bubble out of the
 * shadow root to the host's document. No inline style or script, no eval: it runs under a
 * strict Content Security Policy.
 *
 * This is the file to read and change. The build writes embed/cardfeed-embed.min.js, made from
 * it by scripts/minify-embed.sh, as OUTPUT/embed/cardfeed-embed.js. */
(() => {
  "use strict";
  const P = "cardfeed-";

  // What CardFeed keeps in an origin's localStorage, the host's where the component runs: under
  // each key a JSON array of card ids, oldest first, as the site's own pages keep them. Each key
  // takes at most BYTES as browsers count them (two bytes a UTF-16 unit, the key's name
  // included), 64 kB for the two, the oldest ids going first: a host's own storage never fills
  // because of it. An id longer than LONG characters is kept as "hash:" and 16 hex digits.
  const BYTES = 32768, LONG = 128;

  // Two 32-bit multiplicative hashes of the id (cyrb53's mixing): 64 bits, so that no two ids of
  // a site meet. Not a defence against anyone: the ids are the site's own.
  const hash = (id) => {
    let a = 0xdeadbeef, b = 0x41c6ce57;
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      a = Math.imul(a ^ c, 2654435761);
      b = Math.imul(b ^ c, 1597334677);
    }
    a = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
    b = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
    return [a, b].map((half) => (half >>> 0).toString(16).padStart(8, "0")).join("");
  };
  const entry = (id) => (id.length > LONG ? "hash:" + hash(id) : id);

  class Stored {
    constructor(key) {
      this.key = key;
      this.ids = this.read([]);
      // A value from before the bound, or the site's own pages' longer one, comes back within it.
      if (this.trim()) this.write();
    }
    // The key's ids as stored now, each once, long ones hashed; `fallback` where storage cannot
    // be read (a sandboxed frame, a reader who turned it off).
    read(fallback) {
      try {
        const stored = JSON.parse(localStorage.getItem(this.key) || "[]");
        return Array.isArray(stored) ? [...new Set(stored.filter((id) => typeof id === "string").map(entry))] : [];
      } catch (e) {
        return fallback;
      }
    }
    has(id) { return this.set.has(entry(id)); }
    add(id) {
      id = entry(id);
      // Another tab may have added ids since this page read them: add to what is stored now.
      this.ids = this.read(this.ids).filter((other) => other !== id).concat(id);
      this.trim();
      this.write();
    }
    // Drops the oldest ids until the key fits in BYTES; true if any went.
    trim() {
      const ids = this.ids, size = (id) => JSON.stringify(id).length + 1;
      let bytes = 2 * ids.reduce((sum, id) => sum + size(id), this.key.length + 2), first = 0;
      while (bytes > BYTES) bytes -= 2 * size(ids[first++]);
      this.ids = ids.slice(first);
      this.set = new Set(this.ids);
      return first > 0;
    }
    write() {
      // A full quota (the host's own data) or no storage: remembered for this visit only.
      try { localStorage.setItem(this.key, JSON.stringify(this.ids)); } catch (e) { /* kept in memory */ }
    }
  }
  const viewed = new Stored("cardfeed:viewed"), dismissed = new Stored("cardfeed:dismissed");

  const emit = (target, name, detail) =>
    target.dispatchEvent(new CustomEvent("cardfeed:" + name, { bubbles: true, composed: true, detail }));

  // The cards under `root`, set up as on the site's pages; `placement` names them in events,
  // `placeholder` is the address of the image a broken one falls back to, `label` the dismiss
  // button's word; `changed` is called when a card is dismissed.
  const setUp = (root, placement, placeholder, label, limit, changed) => {
    const cards = [...root.querySelectorAll("[data-card-id]")];
    const detail = (card) => ({ id: card.getAttribute("data-card-id"), type: card.getAttribute("data-card-type"), placement });
    const hide = (card) => { card.hidden = true; card.style.display = "none"; };
    let shown = 0;
    for (const card of cards) {
      const id = card.getAttribute("data-card-id");
      if (dismissed.has(id) || shown >= limit) { hide(card); continue; }
      shown++;
      if (viewed.has(id)) {
        card.removeAttribute("data-unread");
        for (const dot of card.querySelectorAll("." + P + "card__unread")) dot.remove();
      }
      if (!card.hasAttribute("data-dismissible")) continue;
      const button = document.createElement("button"), title = card.querySelector("." + P + "card__title");
      const name = title ? title.textContent.trim() : "";
      button.type = "button";
      button.className = P + "card__dismiss";
      button.title = label;
      button.setAttribute("aria-label", name ? label + " \u201c" + name + "\u201d" : label);
      button.textContent = "\u00d7";
      button.addEventListener("click", (event) => {
        event.preventDefault();
        dismissed.add(id);
        emit(card, "dismiss", detail(card));
        hide(card);
        changed();
      });
      card.classList.add(P + "card--has-dismiss");
      card.append(button);
    }
    root.addEventListener("error", ({ target: image }) => {
      if (image.tagName !== "IMG" || image.hasAttribute("data-cardfeed-fallback")) return;
      image.setAttribute("data-cardfeed-fallback", "");
      image.removeAttribute("srcset");
      image.src = placeholder;
    }, true);
    root.addEventListener("click", ({ target }) => {
      const card = target.closest && target.closest("a[href]") && target.closest("[data-card-id]");
      if (card) emit(card, "click", detail(card));
    });
    // By value, not as keys of an object, where "constructor" or "__proto__" would be found
    // already.
    const seen = new Set();
    const impression = (card) => {
      const d = detail(card);
      if (seen.has(d.id)) return;
      seen.add(d.id);
      emit(card, "impression", d);
      viewed.add(d.id);
    };
    const visible = cards.filter((card) => !card.hidden);
    if (!window.IntersectionObserver) return visible.forEach(impression);
    const observer = new IntersectionObserver((entries) => {
      for (const { isIntersecting, intersectionRatio, target } of entries) {
        if (!isIntersecting || intersectionRatio < 0.5) continue;
        impression(target);
        observer.unobserve(target);
      }
    }, { threshold: [0.5] });
    visible.forEach((card) => observer.observe(card));
  };

  // The frame page: set up, and tell the parent the height whenever it changes.
  const html = document.documentElement, frame = document.body && document.body.getAttribute("data-cardfeed-frame");
  if (frame != null) {
    let last = -1;
    const changed = () => {
      const height = Math.ceil(html.getBoundingClientRect().height);
      if (height === last || parent === window) return;
      last = height;
      parent.postMessage({ type: "cardfeed:height", placement: frame, height }, "*");
    };
    // The host's scheme, when it says it (the frame cannot see the host's color-scheme): "dark"
    // or "light"; anything else leaves it to the reader's setting.
    const scheme = (value) => {
      if (value === "dark" || value === "light") html.setAttribute("data-" + P + "scheme", value);
      else html.removeAttribute("data-" + P + "scheme");
    };
    scheme(new URLSearchParams(location.search).get("scheme"));
    // The placeholder's address is relative to the page's <base>, the site's root.
    setUp(document, frame, "assets/images/appboy_cc_noimage_lrg.png",
      document.body.getAttribute("data-dismiss-label") || "Dismiss", Infinity, changed);
    if (window.ResizeObserver) new ResizeObserver(changed).observe(html);
    addEventListener("load", changed);
    // A parent whose listener came after the frame had told its height (a deferred script, a
    // framework that mounts late) asks for it again; a parent's theme switch tells the scheme.
    addEventListener("message", ({ source, data }) => {
      if (source !== parent || !data) return;
      if (data.type === "cardfeed:scheme") scheme(data.scheme);
      if (data.type !== "cardfeed:measure") return;
      last = -1;
      changed();
    });
    return changed();
  }

  if (!window.customElements || customElements.get("cardfeed-placement")) return;

  // Shown, or taking no room at all (it could not load, or it has no card left to show),
  // whatever the host's stylesheet says; shown again, with the host's own style back.
  const show = (placement, on) => {
    if (on !== placement.hidden) return;
    if (!on) placement.display = placement.style.display;
    placement.hidden = !on;
    placement.style.display = on ? placement.display || "" : "none";
  };

  class Placement extends HTMLElement {
    static observedAttributes = ["src", "limit"];
    connectedCallback() { this.load(); }
    attributeChangedCallback() { if (this.isConnected) this.load(); }

    load() {
      const src = this.getAttribute("src"), run = (this.run || 0) + 1;
      this.run = run;
      const shadow = this.shadowRoot || this.attachShadow({ mode: "open" });
      // No src yet (a framework may set it once the element is in the page): nothing to load.
      if (!src) return;
      this.setAttribute("aria-busy", "true");
      const fail = (url, reason) => {
        if (run !== this.run) return;
        this.removeAttribute("aria-busy");
        show(this, false);
        console.warn("<cardfeed-placement> could not show " + url + ": " + reason);
        emit(this, "error", { src: url, reason });
      };
      let json;
      try { json = new URL(src, document.baseURI).href; } catch (e) { return fail(src, "not an address"); }
      fetch(json, { credentials: "omit" })
        .then((response) => {
          if (!response.ok) throw "HTTP " + response.status;
          return response.text();
        }, () => {
          throw "request failed (network error, no Access-Control-Allow-Origin header, or connect-src policy)";
        })
        .then((text) => {
          let data;
          try { data = JSON.parse(text); } catch (e) { throw "invalid JSON (" + e.message + ")"; }
          if (!data || typeof data.html !== "string") throw "not a placement's JSON (it has no html)";
          if (run !== this.run) return;
          // The JSON's addresses are relative to the folder above embed/: the site's root, or a
          // language's tree (de/).
          const root = new URL("../", json), template = document.createElement("template");
          template.innerHTML = data.html;
          for (const node of template.content.querySelectorAll("[href], [src], [srcset]")) absolute(node, root);
          const sheet = document.createElement("link"), limit = parseInt(this.getAttribute("limit"), 10);
          sheet.rel = "stylesheet";
          sheet.href = new URL("cardfeed-embed.css", json).href;
          // The cards come in with their stylesheet: unstyled, they would take another height.
          sheet.addEventListener("load", () => {
            if (run !== this.run) return;
            while (shadow.firstChild !== sheet) shadow.firstChild.remove();
            this.box = template.content.querySelector("." + P + "placement");
            followScheme(this);
            shadow.append(template.content);
            const changed = () => show(this, !!shadow.querySelector("[data-card-id]:not([hidden])"));
            setUp(shadow, data.name || "", new URL(data.placeholder || "assets/images/appboy_cc_noimage_lrg.png", root).href,
              data.dismiss || "Dismiss", limit > 0 ? limit : Infinity, changed);
            this.removeAttribute("aria-busy");
            changed();
          });
          sheet.addEventListener("error", () => fail(sheet.href, "its stylesheet could not be loaded"));
          shadow.append(sheet);
        })
        .catch((reason) => fail(json, String(reason)));
    }
  }

  // The host page's scheme, which its stylesheet's color-scheme (or its <meta
  // name="color-scheme">) declares: a page that declares only dark or only light has the
  // placement so; one that declares both, or none, leaves it to the reader's setting, as the
  // site's own pages do. Followed as the host changes it (a theme switch on <html> or <body>).
  const placements = new Set();
  const applyScheme = (placement) => {
    let declared = getComputedStyle(placement).colorScheme || "normal";
    const meta = document.querySelector('meta[name="color-scheme"]');
    if (declared === "normal" && meta) declared = meta.content;
    const dark = /\bdark\b/.test(declared), light = /\blight\b/.test(declared);
    const scheme = dark !== light && (dark ? "dark" : "light");
    placement.box.toggleAttribute("data-" + P + "scheme", !!scheme);
    if (scheme) placement.box.setAttribute("data-" + P + "scheme", scheme);
  };
  const followScheme = (placement) => {
    if (!placement.box) return;
    if (!placements.size) {
      const observer = new MutationObserver(() => placements.forEach(applyScheme));
      for (const node of [html, document.body]) if (node) observer.observe(node, { attributes: true });
    }
    placements.add(placement);
    applyScheme(placement);
  };

  const absolute = (node, root) => {
    for (const name of ["href", "src"]) {
      const value = node.getAttribute(name);
      if (value !== null && value[0] !== "#") node.setAttribute(name, new URL(value, root).href);
    }
    const set = node.getAttribute("srcset");
    if (set) node.setAttribute("srcset", set.split(",").map((part) => {
      const bits = part.trim().split(/\s+/);
      bits[0] = new URL(bits[0], root).href;
      return bits.join(" ");
    }).join(", "));
  };

  customElements.define("cardfeed-placement", Placement);
})();
