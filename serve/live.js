// cardfeed serve: live reload and build errors. Added by `cardfeed serve` only.
(function () {
  "use strict";
  var script = document.currentScript;
  var pageBuild = script ? script.getAttribute("data-build") : null;
  var overlay = null;
  var scrollKey = "cardfeed:serve:scroll";

  // Keep the reading position across a reload.
  try {
    var saved = JSON.parse(sessionStorage.getItem(scrollKey) || "null");
    sessionStorage.removeItem(scrollKey);
    if (saved && saved.path === location.pathname) {
      window.addEventListener("load", function () { window.scrollTo(saved.x, saved.y); });
    }
  } catch (e) { /* storage unavailable */ }

  function reload() {
    try {
      sessionStorage.setItem(scrollKey, JSON.stringify({ path: location.pathname, x: window.scrollX, y: window.scrollY }));
    } catch (e) { /* storage unavailable */ }
    location.reload();
  }

  // What must be the same for an update in place: the page's language and its head, but
  // for the title and what serve itself adds (its script, its stylesheet, and the query
  // of a stylesheet it fetched again).
  function headKey(doc) {
    var parts = [doc.documentElement.lang];
    Array.prototype.forEach.call(doc.head.children, function (node) {
      var source = node.getAttribute("href") || node.getAttribute("src") || "";
      if (node.tagName === "TITLE" || source.indexOf("/_cardfeed/") === 0) return;
      if (node.hasAttribute(originalAttribute)) {
        node = node.cloneNode(false);
        node.setAttribute("href", node.getAttribute(originalAttribute));
        node.removeAttribute(originalAttribute);
      }
      parts.push(node.outerHTML);
    });
    return parts.join("\n");
  }

  // Files the rebuild wrote or removed, as paths from the site's root ("/assets/x.css").
  var originalAttribute = "data-cardfeed-href";

  function pathOf(url) {
    try { return new URL(url, document.baseURI).pathname; } catch (e) { return null; }
  }

  function fresh(url, stamp) {
    var parsed = new URL(url, document.baseURI);
    parsed.searchParams.set("cardfeed-build", stamp);
    return parsed.href;
  }

  // A stylesheet rewritten under the same name: load it again beside the old one and
  // remove the old one once the new one applies, so nothing flashes unstyled.
  function refreshStylesheets(changed, stamp, all) {
    Array.prototype.forEach.call(document.querySelectorAll('link[rel~="stylesheet"][href]'), function (link) {
      var original = link.getAttribute(originalAttribute) || link.getAttribute("href");
      if (original.indexOf("/_cardfeed/") === 0) return;
      if (!all && !changed[pathOf(original)]) return;
      var next = link.cloneNode(false);
      next.setAttribute(originalAttribute, original);
      next.setAttribute("href", fresh(original, stamp));
      var done = function () { link.remove(); };
      next.addEventListener("load", done);
      next.addEventListener("error", done);
      link.after(next);
    });
  }

  // An image rewritten under the same name: fetched again, and swapped in once loaded.
  // Returns whether any image of the page was one of them.
  function refreshImages(changed, stamp) {
    var found = false;
    Array.prototype.forEach.call(document.querySelectorAll("img[src]"), function (image) {
      var original = image.getAttribute("data-cardfeed-src") || image.getAttribute("src");
      var originalSet = image.getAttribute("data-cardfeed-srcset") || image.getAttribute("srcset");
      var setChanged = false;
      var nextSet = originalSet && originalSet.split(",").map(function (candidate) {
        var parts = candidate.trim().split(/\s+/);
        if (!changed[pathOf(parts[0])]) return candidate.trim();
        setChanged = true;
        parts[0] = fresh(parts[0], stamp);
        return parts.join(" ");
      }).join(", ");
      if (!changed[pathOf(original)] && !setChanged) return;
      found = true;
      var url = changed[pathOf(original)] ? fresh(original, stamp) : image.src;
      var loader = new Image();
      loader.onload = loader.onerror = function () {
        image.setAttribute("data-cardfeed-src", original);
        if (originalSet) {
          image.setAttribute("data-cardfeed-srcset", originalSet);
          image.setAttribute("srcset", nextSet);
        }
        image.src = url;
      };
      if (originalSet) loader.srcset = nextSet;
      loader.src = url;
    });
    return found;
  }

  function rebuilt(event) {
    var status = {};
    try { status = JSON.parse(event.data); } catch (e) { /* an older server: update */ }
    if (!status.changed || !window.URL) { update(); return; }
    // A good build: its errors are gone, even when it wrote nothing new.
    hideErrors();
    var changed = {}, pages = false, styles = false, images = false, other = false;
    status.changed.forEach(function (path) {
      changed["/" + path] = true;
      if (/\.html?$/i.test(path)) pages = true;
      else if (/\.css$/i.test(path)) styles = true;
      else if (/\.(png|jpe?g|gif|webp|avif|svg|ico)$/i.test(path)) images = true;
      else if (/\.m?js$/i.test(path)) other = true;
    });
    if (other) { reload(); return; }
    var stamp = status.build;
    var finish = function () {
      // An image the page does not show as <img> may be a stylesheet's background.
      var shown = images && refreshImages(changed, stamp);
      refreshStylesheets(changed, stamp, images && !shown);
    };
    if (pages) update(finish); else { pageBuild = status.build; finish(); }
  }

  function update(then) {
    fetch(location.href, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      })
      .then(function (html) {
        var next = new DOMParser().parseFromString(html, "text/html");
        if (headKey(next) !== headKey(document)) { reload(); return; }
        var nextScript = next.querySelector('script[src="/_cardfeed/live.js"]');
        if (nextScript) pageBuild = nextScript.getAttribute("data-build");
        var x = window.scrollX, y = window.scrollY;
        overlay = null;
        document.title = next.title;
        // Scripts of a parsed document do not run when moved: live.js stays this one.
        document.body.replaceWith(document.adoptNode(next.body));
        window.scrollTo(x, y);
        document.dispatchEvent(new CustomEvent("cardfeed:pagereplaced"));
        if (then) then();
      })
      .catch(reload);
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  // A build named "<run>-0" is the first one failing: there is no last good build.
  function showErrors(errors, build) {
    var built = !/-0$/.test(build || "");
    hideErrors();
    overlay = element("div", "cardfeed-live");
    overlay.id = "cardfeed-live-overlay";
    overlay.setAttribute("role", "alertdialog");
    overlay.setAttribute("aria-labelledby", "cardfeed-live-title");
    var box = element("div", "cardfeed-live__box");
    var title = element("h2", "cardfeed-live__title",
      errors.length === 1 ? "The build failed with 1 error" : "The build failed with " + errors.length + " errors");
    title.id = "cardfeed-live-title";
    var note = element("p", "cardfeed-live__note", built
      ? "The page shows the last good build. Fix the file and save: this message goes away by itself."
      : "The site has not built yet, so there is no page to show. Fix the file and save: the site appears by itself.");
    var list = element("ol", "cardfeed-live__errors");
    errors.forEach(function (error) {
      var item = element("li", "cardfeed-live__error");
      var place = error.file + (error.line ? ":" + error.line + (error.column ? ":" + error.column : "") : "");
      item.appendChild(element("code", "cardfeed-live__place", place));
      var detail = error.text.indexOf(place + ": ") === 0 ? error.text.slice(place.length + 2) : error.text;
      item.appendChild(element("pre", "cardfeed-live__message", detail));
      list.appendChild(item);
    });
    var close = element("button", "cardfeed-live__close", "Hide");
    close.type = "button";
    close.addEventListener("click", hideErrors);
    box.appendChild(title);
    box.appendChild(note);
    box.appendChild(list);
    box.appendChild(close);
    overlay.appendChild(box);
    document.body.appendChild(overlay);
  }

  function hideErrors() {
    if (overlay) overlay.remove();
    overlay = null;
  }

  var style = document.createElement("link");
  style.rel = "stylesheet";
  style.href = "/_cardfeed/live.css";
  document.head.appendChild(style);

  if (!window.EventSource) return;
  var source = new EventSource("/_cardfeed/events");
  source.addEventListener("hello", function (event) {
    var status = JSON.parse(event.data);
    if (pageBuild && status.build !== pageBuild && !/-0$/.test(status.build)) { reload(); return; }
    if (status.errors.length) showErrors(status.errors, status.build); else hideErrors();
  });
  source.addEventListener("reload", window.fetch && window.DOMParser ? rebuilt : reload);
  // A new search index (made after the pages): the search box uses it from its next search.
  source.addEventListener("search", function () {
    document.dispatchEvent(new CustomEvent("cardfeed:searchindexed"));
  });
  source.addEventListener("failed", function (event) {
    var status = JSON.parse(event.data);
    showErrors(status.errors, status.build);
  });
  window.addEventListener("pagehide", function () { source.close(); });
})();
