// podlab's picture and the engine's loader (issue 28; docs/size.md "First
// contact"). facade-head.js has decided which picture is true; this draws a
// #v2. link's picture, starts the engine (at once on the playground, at the
// reader's first touch in an embed), and hands over to the live page,
// which removes #facade after its first render (app.rs).
//
// A link's picture is markup from the URL, so it is never set as HTML: it
// is parsed inert (DOMParser) and rebuilt element by element from an
// allow-list of the elements and attributes podlab_core::picture writes.
(function () {
  var root = document.documentElement;
  var facade = document.getElementById("facade");
  var embed = root.hasAttribute("data-pl-embed");
  var mode = root.getAttribute("data-pl-picture");
  var started = false;
  // The default text's pictures are only for the playground's own first
  // screen: elsewhere they go, so nothing reads a picture that is not true.
  if (mode !== "default") {
    var defaults = document.querySelectorAll(".facade-default");
    for (var i = 0; i < defaults.length; i++) defaults[i].remove();
  }

  var TAGS = " div main nav footer header section h1 h2 p pre span button a ul li output input details summary svg g rect line polyline text title defs pattern circle path ";
  var ATTRS = " class lang role aria-label aria-hidden aria-pressed aria-selected aria-labelledby aria-valuetext data-testid data-state data-view data-lang type target rel width height x y x1 x2 y1 y2 viewBox preserveAspectRatio points text-anchor vector-effect patternUnits patternTransform d cx cy r focusable min max step value open title ";
  var MAX_PICTURE = 256 * 1024;

  function allowed(name, value) {
    if (name === "id") return /^(pl-[a-z-]+|simulation-heading)$/.test(value);
    if (name === "style") return /^(left: [0-9.]+%|height: [0-9]+px)$/.test(value);
    if (name === "fill") return /^url\(#pl-[a-z-]+\)$/.test(value);
    if (name === "href") return value === "./";
    return ATTRS.indexOf(" " + name + " ") >= 0 && !/^\s*javascript:/i.test(value);
  }

  function rebuild(node) {
    if (node.nodeType === 3) return document.createTextNode(node.nodeValue);
    if (node.nodeType !== 1 || TAGS.indexOf(" " + node.localName + " ") < 0) return null;
    if (node.localName === "input" && node.getAttribute("type") !== "range") return null;
    var copy = document.createElementNS(node.namespaceURI, node.localName);
    for (var i = 0; i < node.attributes.length; i++) {
      var attribute = node.attributes[i];
      if (allowed(attribute.name, attribute.value)) copy.setAttribute(attribute.name, attribute.value);
    }
    for (var child = node.firstChild; child; child = child.nextSibling) {
      var built = rebuild(child);
      if (built) copy.appendChild(built);
    }
    return copy;
  }

  function bytes(base64url) {
    var text = base64url.replace(/-/g, "+").replace(/_/g, "/");
    while (text.length % 4) text += "=";
    var binary = atob(text);
    var out = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  }

  // Raw DEFLATE by the browser's own decoder, stopped at MAX_PICTURE.
  function inflate(data) {
    var stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    var reader = stream.getReader();
    var decoder = new TextDecoder();
    var out = "";
    function pump() {
      return reader.read().then(function (step) {
        if (step.done) return out + decoder.decode();
        out += decoder.decode(step.value, { stream: true });
        if (out.length > MAX_PICTURE) throw new Error("picture too large");
        return pump();
      });
    }
    return pump();
  }

  function fullPageHref() {
    var query = location.search.replace(/^\?/, "").split("&").filter(function (pair) {
      return pair && !/^(embed|view|controls|autoplay)(=|$)/.test(pair);
    });
    return location.pathname + (query.length ? "?" + query.join("&") : "") + location.hash;
  }

  function draw(payload) {
    var newline = payload.indexOf("\n");
    if (!/^podlab \S+ at=\d+ lang=\S+$/.test(payload.slice(0, newline))) throw new Error("not a picture");
    var parsed = new DOMParser().parseFromString(payload.slice(newline + 1), "text/html");
    var built = document.createDocumentFragment();
    for (var node = parsed.body.firstChild; node; node = node.nextSibling) {
      var copy = rebuild(node);
      if (copy) built.appendChild(copy);
    }
    var picture = document.createElement("div");
    picture.className = "facade-link";
    picture.appendChild(built);
    if (!embed) {
      // The full page opened from an embed's link: its stage, as the
      // playground lays it out, without the embed's tabs and invitation.
      var extra = picture.querySelectorAll(".tabs, .run-live, .embed-footer");
      for (var j = 0; j < extra.length; j++) extra[j].remove();
      var app = picture.querySelector(".app");
      var main = picture.querySelector("main");
      if (app) app.className = "app picture";
      if (main) {
        // The stage in the right column, where the live page draws it.
        main.className = "workbench";
        var side = document.createElement("div");
        side.className = "side";
        main.insertBefore(side, main.firstChild);
      }
    }
    picture.setAttribute("title", payload.slice(0, newline));
    facade.appendChild(picture);
    var open = picture.querySelector(".open-full");
    if (open) open.setAttribute("href", fullPageHref());
  }

  // The reader's first touch says what they want: a tab opens live on it,
  // play plays. The live page reads them from the query string.
  function intent(target) {
    var query = location.search;
    var tab = target.closest && target.closest("[data-view]");
    var set = function (name, value) {
      var pattern = new RegExp("([?&])" + name + "=[^&]*");
      query = pattern.test(query) ? query.replace(pattern, "$1" + name + "=" + value) : (query ? query + "&" : "?") + name + "=" + value;
    };
    if (tab) set("view", tab.getAttribute("data-view"));
    if (target.closest && target.closest("[data-testid=play]")) set("autoplay", "1");
    if (query !== location.search) history.replaceState(null, "", location.pathname + query + location.hash);
  }

  function start() {
    if (started) return;
    started = true;
    root.setAttribute("data-pl-loading", "");
    var engine = window.podlabEngine;
    if (!engine) return;
    import(engine.js)
      .then(function (module) {
        return module.default({ module_or_path: engine.wasm });
      })
      .catch(function (error) {
        root.setAttribute("data-pl-failed", "");
        console.error(error);
      });
  }

  // An embed tells the article its height (README, "Embedding").
  if (embed && window.parent !== window && window.ResizeObserver) {
    var last = 0;
    new ResizeObserver(function () {
      var height = Math.min(Math.ceil(document.body.getBoundingClientRect().height) + 8, 4000);
      if (Math.abs(height - last) > 2) {
        last = height;
        window.parent.postMessage({ type: "podlab:height", height: height }, "*");
      }
    }).observe(document.body);
  }

  if (mode === "link" && embed) {
    var wake = function (event) {
      if (started) return;
      intent(event.target);
      start();
    };
    ["pointerdown", "keydown", "focusin"].forEach(function (name) {
      facade.addEventListener(name, wake, { once: false, passive: true });
    });
  }
  if (mode === "link") {
    var parts = location.hash.split(".");
    var drawn;
    try {
      drawn = inflate(bytes(parts[2])).then(draw);
    } catch (error) {
      drawn = Promise.reject(error);
    }
    drawn.catch(function () {
      // No picture after all: the engine draws the truth.
      root.setAttribute("data-pl-picture", "none");
      start();
    });
    if (!embed) start();
  } else {
    start();
  }
})();
