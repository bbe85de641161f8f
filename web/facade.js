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
  // On the playground only the reader's language's copy stays (both hold
  // the same ids and sliders).
  var defaults = document.querySelectorAll(".facade-default");
  for (var i = 0; i < defaults.length; i++) {
    if (mode !== "default" || defaults[i].getAttribute("data-lang") !== root.getAttribute("data-pl-lang")) {
      defaults[i].remove();
    }
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

  // The first screen's engine (web/src/stage.rs, docs/size.md "The
  // slider's path"): on the playground's default picture it is fetched
  // before the page's engine and answers a slider moved on the picture. The
  // text the picture shows is its editor's; a move writes the slider's
  // number into it (as the live page does), redraws the Scenario panel and
  // the stage, and saves it where the live page opens it (the autosave, and
  // the picture's editor, which persist::picture_text reads).
  var stage = null;
  var moved = null;
  var answering = false;
  var STAGE_JS = "./stage-engine.js";
  var STAGE_WASM = "./stage-engine_bg.wasm";

  function loadStage() {
    return new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = STAGE_JS;
      script.onload = resolve;
      script.onerror = reject;
      document.head.appendChild(script);
    })
      .then(function () {
        /* global wasm_bindgen */
        return wasm_bindgen(STAGE_WASM);
      })
      .then(function () {
        stage = wasm_bindgen;
        answer();
      });
  }

  function redrawPanel(markup, active) {
    var panel = facade.querySelector(".controls");
    var fresh = new DOMParser().parseFromString(markup, "text/html").body.querySelector(".controls");
    if (!panel || !fresh) return;
    var heading = fresh.querySelector("h2");
    var old = panel.querySelector("h2");
    if (heading && old) old.replaceWith(document.importNode(heading, true));
    var inputs = fresh.querySelectorAll("input[type=range]");
    for (var i = 0; i < inputs.length; i++) {
      var input = inputs[i];
      var shown = panel.querySelector('input[data-testid="' + input.getAttribute("data-testid") + '"]');
      var control = shown && shown.closest(".control");
      var drawn = input.closest(".control");
      if (!control || !drawn) continue;
      var label = control.querySelector("label");
      if (label) label.replaceWith(document.importNode(drawn.querySelector("label"), true));
      if (drawn.hasAttribute("data-assumed")) control.setAttribute("data-assumed", "true");
      else control.removeAttribute("data-assumed");
      if (shown !== active) shown.value = input.getAttribute("value");
      shown.setAttribute("aria-valuetext", input.getAttribute("aria-valuetext"));
    }
  }

  function answer() {
    // Once the live page has taken over (#facade removed), a late move is
    // dropped: it must not write the autosave under the live page.
    if (!stage || !moved || answering || !facade.isConnected) return;
    answering = true;
    var move = moved;
    moved = null;
    try {
      var editor = facade.querySelector(".editor-picture");
      var text = editor && stage.slide(editor.textContent, move.testid, move.number);
      if (text) {
        var parts = stage.redraw(text, root.getAttribute("data-pl-lang"));
        redrawPanel(parts[0], move.input);
        var section = facade.querySelector(".simulation");
        var parsed = new DOMParser().parseFromString(parts[1], "text/html").body.firstChild;
        var built = parsed && rebuild(parsed);
        if (section && built) section.replaceWith(built);
        editor.textContent = text;
        try {
          localStorage.setItem("podlab.text.v1", text);
        } catch (error) {
          /* storage unavailable: the live page reads the picture's editor */
        }
        // Laid out, as perf.rs measures the live page's answer.
        void document.body.offsetHeight;
        if (performance.getEntriesByName("podlab-change").length) performance.measure("podlab-redraw", "podlab-change");
      }
    } finally {
      answering = false;
    }
    // Moves that came in meanwhile: only the newest, in the next task.
    if (moved) setTimeout(answer, 0);
  }

  if (mode === "default" && !embed) {
    facade.addEventListener("input", function (event) {
      var input = event.target;
      if (!input.matches || !input.matches(".controls input[type=range]")) return;
      performance.clearMarks("podlab-change");
      performance.mark("podlab-change");
      moved = { testid: input.getAttribute("data-testid"), number: input.valueAsNumber, input: input };
      setTimeout(answer, 0);
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
  } else if (mode === "default" && !embed) {
    // The page's engine once the first screen's has arrived (while that
    // compiles), so the slider's path has the connection to itself;
    // without it, the page's engine at once.
    var stageUrl = new URL(STAGE_WASM, location.href).href;
    var arrived = function (entries) {
      return entries.some(function (entry) {
        return entry.name === stageUrl && entry.responseEnd > 0;
      });
    };
    if (window.PerformanceObserver) {
      var observer = new PerformanceObserver(function (list) {
        if (arrived(list.getEntries())) {
          observer.disconnect();
          start();
        }
      });
      observer.observe({ type: "resource", buffered: true });
    }
    loadStage().then(start, function (error) {
      console.error(error);
      start();
    });
  } else {
    start();
  }
})();
