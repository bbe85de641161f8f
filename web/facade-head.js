// podlab's first decision, in <head> before anything is drawn (issue 28;
// docs/size.md "First contact"): which picture the page shows while the
// engine (the page's wasm) is not in, and whether to fetch the engine now.
// Sets on <html>:
//   data-pl-lang     en | zh-TW: ?lang=, else the browser's language (as
//                    the page's initial_lang decides)
//   data-pl-picture  default: the playground's default text, pre-rendered
//                    in this HTML; link: the picture a #v2. link carries
//                    (drawn by facade.js); none: no picture is true here
//                    (a v1 link, an autosaved text, the exercise pages,
//                    "From my cluster")
//   data-pl-embed    present for ?embed=1, whose engine waits for a touch
// and preloads what comes first: on the playground's default picture the
// first screen's engine (stage-engine, which answers the picture's
// sliders), elsewhere except in an embed the page's engine.
(function () {
  var root = document.documentElement;
  var query = location.search;
  var hash = location.hash;
  function param(name) {
    var match = new RegExp("[?&]" + name + "(?:=([^&]*))?(?:&|$)").exec(query);
    return match ? decodeURIComponent(match[1] || "") : null;
  }
  var lang = param("lang") || navigator.language || "en";
  lang = /^zh/i.test(lang) ? "zh-TW" : "en";
  var embedParam = param("embed");
  var embed = embedParam !== null && /^(1|true|)$/.test(embedParam);
  var exercises =
    param("exercise") || param("interview") || param("exercises") !== null || param("cluster") !== null;
  var picture = "none";
  if (!exercises) {
    if (/^#v2\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$/.test(hash)) {
      picture = "link";
    } else if (!embed && (hash === "" || hash === "#")) {
      var saved = null;
      try {
        saved = localStorage.getItem("podlab.text.v1");
      } catch (error) {
        saved = null;
      }
      if (!saved || !saved.trim()) picture = "default";
    }
  }
  root.setAttribute("data-pl-lang", lang);
  root.setAttribute("data-pl-picture", picture);
  if (embed) root.setAttribute("data-pl-embed", "");
  var engine = window.podlabEngine;
  if (picture === "default") {
    // The playground's default picture: the first screen's engine first
    // (web/src/stage.rs answers its sliders); facade.js fetches the page's
    // engine once it is in, so the two do not share the connection.
    var stageWasm = document.createElement("link");
    stageWasm.rel = "preload";
    stageWasm.as = "fetch";
    stageWasm.crossOrigin = "anonymous";
    stageWasm.type = "application/wasm";
    stageWasm.href = "./stage-engine_bg.wasm";
    document.head.appendChild(stageWasm);
    var stageJs = document.createElement("link");
    stageJs.rel = "preload";
    stageJs.as = "script";
    stageJs.href = "./stage-engine.js";
    document.head.appendChild(stageJs);
  } else if (engine && !(embed && picture === "link")) {
    var preload = document.createElement("link");
    preload.rel = "preload";
    preload.as = "fetch";
    preload.crossOrigin = "anonymous";
    preload.type = "application/wasm";
    preload.href = engine.wasm;
    document.head.appendChild(preload);
    var module = document.createElement("link");
    module.rel = "modulepreload";
    module.href = engine.js;
    document.head.appendChild(module);
  }
})();
