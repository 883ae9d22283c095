"use strict";
// Readable funnel graphs (issue 9 point 5), in headless Chromium on a funnel page of the Examples
// series site, from file:// under its CSP: every page box is a link to an existing row of the
// pages table; focusing a box lights the steps that leave it and the pages they lead to; the
// zoom buttons change the drawing's scale and Fit brings it back to the width of its box (also
// at 390 px); the outline lists every page with its steps; no CSP violation or script error.
//
//   node Site/test/graph.test.js <series site>
//   env: CHROMIUM (default "chromium")
//
// A small script file added to a copy of the page (the CSP allows only files) runs after site.js,
// plays the focus and the buttons, and writes what it found on <html> for the dumped DOM.

const fs = require("fs");
const path = require("path");
const { test, run, equal, ok } = require("./lib/harness");
const { temporaryFolder, fileUrl, dump, htmlAttrs, assertClean } = require("./lib/browser");

const [seriesSite] = process.argv.slice(2).map((p) => path.resolve(p));
const PAGE = "funnels/fnl_sleep_setup.html";
if (!seriesSite || !fs.existsSync(path.join(seriesSite, PAGE))) {
  console.error(`usage: node graph.test.js <series site> (the Examples folder built by fallback-site, with ${PAGE})`);
  process.exit(2);
}
const TMP = temporaryFolder();
const copy = path.join(TMP, "site");
fs.cpSync(seriesSite, copy, { recursive: true });

fs.writeFileSync(path.join(copy, "assets", "test-graph.js"), `
  (function () {
    var html = document.documentElement;
    var seen = {};
    function note(key, value) { seen["data-test-" + key] = String(value); }
    var svg = document.querySelector("figure.funnel-drawing svg.fd");
    var figure = svg && svg.closest("figure");
    note("svg", !!svg);
    if (svg) {
      // Links: each page box's href names a row of the pages table.
      var links = Array.prototype.slice.call(svg.querySelectorAll("a.fd-link"));
      var boxes = svg.querySelectorAll(".fd-page").length;
      var broken = links.filter(function (a) {
        var id = decodeURIComponent((a.getAttribute("href") || "").slice(1));
        var row = document.getElementById(id);
        return !row || row.tagName !== "TR" || !a.getAttribute("aria-label");
      }).map(function (a) { return a.getAttribute("href"); });
      note("links", links.length);
      note("boxes", boxes);
      note("broken", broken.join(" "));
      note("link-tabindex", links.every(function (a) { return a.tabIndex >= 0; }));

      // Focus: the first page's box lights its outgoing steps and their targets, nothing else.
      var first = links[0];
      first.focus();
      var node = first.getAttribute("data-node");
      var out = svg.querySelectorAll('.fd-edge[data-from="' + node + '"]');
      var litOut = Array.prototype.filter.call(out, function (e) { return e.classList.contains("is-lit"); }).length;
      var litOther = Array.prototype.filter.call(svg.querySelectorAll(".fd-edge.is-lit"), function (e) {
        return e.getAttribute("data-from") !== node;
      }).length;
      var targetsLit = Array.prototype.every.call(out, function (e) {
        var t = document.getElementById(e.getAttribute("data-to"));
        return t && t.classList.contains("is-lit");
      });
      note("focused", document.activeElement === first);
      note("has-path", svg.classList.contains("has-path"));
      note("origin", document.getElementById(node).classList.contains("is-origin"));
      note("out", out.length);
      note("lit-out", litOut);
      note("lit-other", litOther);
      note("targets-lit", targetsLit);
      var dimmed = Array.prototype.filter.call(svg.querySelectorAll(".fd-edge:not(.is-lit)"), function (e) {
        return Number(getComputedStyle(e).opacity) < 0.5;
      }).length;
      note("dimmed", dimmed);
      note("unlit", svg.querySelectorAll(".fd-edge:not(.is-lit)").length);
      // A second box moves the light.
      links[1].focus();
      note("moved", svg.querySelectorAll('.fd-edge.is-lit[data-from="' + node + '"]').length === 0 &&
        document.getElementById(links[1].getAttribute("data-node")).classList.contains("is-origin"));
      links[1].blur();
      note("cleared", !svg.classList.contains("has-path") && svg.querySelectorAll(".is-lit").length === 0);

      // Zoom: fit first, + grows, − shrinks, Fit returns.
      var box = figure.querySelector(".drawing-scroll");
      function shown() { return svg.getBoundingClientRect().width; }
      function button(action) { return figure.querySelector('.fd-zoom button[data-zoom-action="' + action + '"]'); }
      note("buttons", ["in", "out", "fit"].filter(button).length);
      note("fit-fits", shown() <= box.clientWidth + 0.5);
      note("zoom-start", figure.getAttribute("data-zoom"));
      var fitWidth = shown();
      button("in").click();
      var zoomedIn = shown();
      button("in").click();
      var zoomedTwice = shown();
      button("out").click();
      var zoomedOut = shown();
      note("zoom-in", zoomedIn > fitWidth * 1.2);
      note("zoom-twice", zoomedTwice > zoomedIn * 1.2);
      note("zoom-out", zoomedOut < zoomedTwice * 0.9);
      note("zoom-scrolls", zoomedTwice <= box.clientWidth || box.scrollWidth > box.clientWidth);
      // A zoomed drawing's box becomes focusable (site.js): a region with a name says what has focus.
      note("box-region", box.getAttribute("role") === "region" && (box.getAttribute("aria-label") || "").trim() !== "");
      note("zoom-status", figure.querySelector(".fd-zoom-status").textContent);
      button("fit").click();
      note("zoom-fit", Math.abs(shown() - fitWidth) < 1 && figure.getAttribute("data-zoom") === "fit");

      // The outline: every page, its steps numbered from 1, target links that resolve.
      var outline = document.querySelector("details.funnel-outline");
      var items = outline ? outline.querySelectorAll(".outline-pages > li") : [];
      var rows = document.querySelectorAll("table.pages tbody tr").length;
      note("outline", !!outline);
      note("outline-pages", items.length);
      note("rows", rows);
      var badOutline = 0;
      Array.prototype.forEach.call(items, function (li) {
        var numbers = Array.prototype.map.call(li.querySelectorAll(".step-priority"), function (s) { return s.textContent; });
        numbers.forEach(function (n, i) { if (n !== (i + 1) + ".") badOutline++; });
        if (numbers.length === 0) badOutline++;
        Array.prototype.forEach.call(li.querySelectorAll("a[href^='#']"), function (a) {
          if (!document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1)))) badOutline++;
        });
      });
      note("outline-bad", badOutline);
      note("legend", document.querySelectorAll(".fd-legend li").length);
    }
    if (html.hasAttribute("data-errors")) seen["data-errors"] = html.getAttribute("data-errors");
    if (parent !== window) parent.postMessage(JSON.stringify(seen), "*");
    for (var k in seen) html.setAttribute(k, seen[k]);
  })();
`);

const file = path.join(copy, PAGE);
const source = fs.readFileSync(file, "utf8");
const withTest = source.replace(
  /(<script [^>]*src="((?:\.\.\/)*)assets\/site\.js"[^>]*><\/script>)/,
  '$1<script defer src="$2assets/test-graph.js"></script>');
fs.writeFileSync(file, withTest);

/** A page outside the site (no CSP) showing the funnel page in a `width` px <iframe>. */
function frame(width) {
  const framePath = path.join(TMP, `frame-${width}.html`);
  fs.writeFileSync(framePath, `<!doctype html><html><head><style>body{margin:0}</style></head><body>
<iframe src="${fileUrl(file)}" style="width:${width}px;height:1200px;border:0"></iframe>
<script>
addEventListener("message", function (e) {
  var seen = JSON.parse(e.data);
  for (var k in seen) document.documentElement.setAttribute(k, seen[k]);
});
</script></body></html>`);
  return framePath;
}

test("the funnel page carries the test script", () => {
  ok(withTest.includes("test-graph.js"), "test script added after site.js");
});

for (const width of [1280, 390]) {
  test(`${PAGE} at ${width} px: links, focus, zoom, outline, no CSP violation or script error`, () => {
    const url = width === 1280 ? fileUrl(file) : fileUrl(frame(width));
    const r = dump(url, [`--window-size=${Math.max(width, 800)},1300`, "--hide-scrollbars"]);
    assertClean(r, PAGE);
    const a = htmlAttrs(r.dom);
    equal(a["data-test-svg"], "true", "a drawing");
    ok(Number(a["data-test-boxes"]) > 5, `page boxes: ${a["data-test-boxes"]}`);
    equal(a["data-test-links"], a["data-test-boxes"], "every page box is a link");
    equal(a["data-test-broken"], "", "links to no row of the pages table (or without a name)");
    equal(a["data-test-link-tabindex"], "true", "links are in the tab order");

    equal(a["data-test-focused"], "true", "the first box takes the focus");
    equal(a["data-test-has-path"], "true", "focusing a box marks the drawing");
    equal(a["data-test-origin"], "true", "the focused box is the origin");
    ok(Number(a["data-test-out"]) > 0, "the first page has steps");
    equal(a["data-test-lit-out"], a["data-test-out"], "its outgoing steps lit");
    equal(a["data-test-lit-other"], "0", "other steps lit");
    equal(a["data-test-targets-lit"], "true", "the pages they lead to lit");
    equal(a["data-test-dimmed"], a["data-test-unlit"], "the other steps fade");
    equal(a["data-test-moved"], "true", "focusing another box moves the light");
    equal(a["data-test-cleared"], "true", "leaving the drawing clears it");

    equal(a["data-test-buttons"], "3", "zoom buttons + − Fit");
    equal(a["data-test-zoom-start"], "fit", "fit to width by default");
    equal(a["data-test-fit-fits"], "true", "at fit the drawing is no wider than its box");
    equal(a["data-test-zoom-in"], "true", "+ makes it bigger");
    equal(a["data-test-zoom-twice"], "true", "+ again makes it bigger still");
    equal(a["data-test-zoom-out"], "true", "− makes it smaller");
    equal(a["data-test-zoom-scrolls"], "true", "a zoomed drawing scrolls in its box");
    equal(a["data-test-box-region"], "true", "the drawing's scroll box is a named region");
    ok(/%$/.test(a["data-test-zoom-status"] || ""), `zoom status: ${a["data-test-zoom-status"]}`);
    equal(a["data-test-zoom-fit"], "true", "Fit returns to the width of the box");

    equal(a["data-test-outline"], "true", "an outline");
    equal(a["data-test-outline-pages"], a["data-test-rows"], "the outline lists every page");
    equal(a["data-test-outline-bad"], "0", "outline steps numbered from 1 with links that resolve");
    ok(Number(a["data-test-legend"]) >= 3, `legend entries: ${a["data-test-legend"]}`);
  });
}

test("without script the outline and the drawing are in the page", () => {
  ok(/<details class="funnel-outline"/.test(source), "outline in the HTML");
  ok(/<details class="graph-drawing" open>/.test(source), "drawing open for a small funnel");
  ok(!/<div class="fd-zoom"/.test(source), "no zoom buttons without script");
});

run();
