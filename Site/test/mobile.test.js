"use strict";
// The Examples series site on a phone (issue 9, point 11): at 390 CSS px wide, light and dark,
// no page scrolls sideways and nothing in <main> is wider than the screen, except inside a box
// that scrolls on purpose (a funnel drawing's .drawing-scroll or the history chart's
// .chart-scroll, each of which then says so under it, or a JSON source listing, pre.source).
// The history chart's labels are drawn at least 10 px high. Tables become cards: each cell carries its
// column's name in data-label, shown before it.
//
//   node Site/test/mobile.test.js <series site>
//   env: CHROMIUM (default "chromium")
//
// A small script file added to a copy of each page (the CSP allows only files) measures after
// site.js has run and writes what it found on <html> for the dumped DOM.

const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");
const { test, run, equal, ok } = require("./lib/harness");
const { temporaryFolder, fileUrl, dump, htmlAttrs, tags, attrs, assertClean } = require("./lib/browser");

const [seriesSite, tool] = process.argv.slice(2).map((p) => path.resolve(p));
if (!seriesSite || !fs.existsSync(path.join(seriesSite, "index.html"))) {
  console.error("usage: node mobile.test.js <series site> [fallback-site] (the Examples folder built by fallback-site; with the\n"
    + "binary, a site of a hostile snapshot with long unbroken ids is measured too)");
  process.exit(2);
}
const TMP = temporaryFolder();
const copy = path.join(TMP, "site");
fs.cpSync(seriesSite, copy, { recursive: true });

// Release 3.4 with the text a snapshot controls made hostile and long without a space: the
// project id, one placement's key and identifier, a funnel's name and page titles, and each
// page's remote image URL.
const hostile = path.join(TMP, "hostile");
let hostileBuilt = null;
if (tool) {
  const markup = "<script>alert(1)</script>\"'><img src=x onerror=alert(2)>&amp;\u202e<!--";
  const unbroken = (prefix) => prefix + "_" + "x".repeat(90) + markup.replace(/ /g, "_");
  const snapshot = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "Examples", "2026-07-21-release-3.4.json"), "utf8"));
  snapshot.projectId = unbroken("proj");
  const placements = {};
  for (const [key, entry] of Object.entries(snapshot.placements)) {
    if (key === "home_banner") {
      entry.placement.identifier = unbroken("identifier");
      placements[unbroken("home_banner")] = entry;
    } else {
      placements[key] = entry;
    }
  }
  snapshot.placements = placements;
  for (const entry of Object.values(placements)) {
    if (!entry.funnel || !Array.isArray(entry.funnel.pages)) continue;
    entry.funnel.name = unbroken("funnel");
    for (const page of entry.funnel.pages) {
      if (page && typeof page.title === "string") page.title = unbroken("title");
      // A remote URL without a break opportunity: the funnel page's remote media list shows it.
      if (page && typeof page === "object") page.mediaUrl = "https://cdn.example.com/" + "m".repeat(300) + ".png";
    }
  }
  fs.mkdirSync(hostile);
  fs.writeFileSync(path.join(hostile, "hostile.json"), JSON.stringify(snapshot));
  const built = spawnSync(tool, ["build", path.join(hostile, "hostile.json"), "--out", path.join(hostile, "site"), "--quiet"], { encoding: "utf8" });
  hostileBuilt = built.status === 0 ? path.join(hostile, "site") : null;
  if (!hostileBuilt) console.error(`fallback-site build of the hostile snapshot: status ${built.status}: ${built.stderr}`);
}

// Runs after site.js (both deferred, in order).
fs.writeFileSync(path.join(copy, "assets", "test-mobile.js"), `
  (function () {
    var html = document.documentElement;
    var width = window.innerWidth;
    var allowed = ".drawing-scroll, .chart-scroll, pre.source";
    var wide = [];
    Array.prototype.forEach.call(document.querySelectorAll("main *"), function (el) {
      var r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return;
      if (r.right <= width + 0.5 && r.left >= -0.5) return;
      if (el.matches(allowed) || !el.closest(allowed)) {
        wide.push(el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\\s+/).join(".") : "") + " " + Math.round(r.left) + ".." + Math.round(r.right));
      }
    });
    var hints = [];
    Array.prototype.forEach.call(document.querySelectorAll(".drawing-scroll, .chart-scroll"), function (box) {
      if (box.scrollWidth <= box.clientWidth + 1) return;
      var caption = box.closest("figure") && box.closest("figure").querySelector("figcaption");
      var hint = caption ? getComputedStyle(caption, "::before").content : "none";
      hints.push(/sideways/.test(hint) ? "hinted" : "unhinted");
    });
    // The cards' cells that show, but for a page number shown in front of its row's key.
    var cells = Array.prototype.filter.call(document.querySelectorAll("main table.cards td[data-label]"), function (td) {
      var next = td.nextElementSibling;
      return td.getClientRects().length > 0 && !(next && next.matches('th[scope="row"]'));
    });
    var labelled = Array.prototype.filter.call(cells, function (td) {
      return getComputedStyle(td, "::before").content === JSON.stringify(td.getAttribute("data-label"));
    }).length;
    // The smallest a history chart's text is drawn: its font size scaled as the SVG is (its
    // transform to the screen); -1 without a chart.
    function chartLabelPixels() {
      var smallest = -1;
      Array.prototype.forEach.call(document.querySelectorAll("svg.history-chart"), function (svg) {
        var matrix = svg.getScreenCTM();
        var scale = Math.min(Math.abs(matrix.a), Math.abs(matrix.d));
        Array.prototype.forEach.call(svg.querySelectorAll("text"), function (text) {
          var px = parseFloat(getComputedStyle(text).fontSize) * scale;
          if (smallest < 0 || px < smallest) smallest = px;
        });
      });
      return Math.round(smallest * 10) / 10;
    }
    var seen = {
      "data-test-width": String(width),
      "data-test-scroll-width": String(document.documentElement.scrollWidth),
      "data-test-wide": wide.slice(0, 8).join(" | "),
      "data-test-hints": hints.join(","),
      "data-test-cells": String(cells.length),
      "data-test-labelled": String(labelled),
      "data-test-chart-label-px": String(chartLabelPixels())
    };
    if (html.hasAttribute("data-errors")) seen["data-errors"] = html.getAttribute("data-errors");
    parent.postMessage(JSON.stringify(seen), "*");
  })();
`);

// Headless Chromium's window is at least 500 px wide, so each page is measured in a 390 px
// <iframe> of a test page (outside the site, no CSP), which writes what the page posts it on
// its own <html>.
function frame(page, width, root = copy) {
  const file = path.join(TMP, `frame-${width}-${path.basename(path.dirname(root))}-${page.replace(/[^a-z0-9]+/gi, "-")}.html`);
  fs.writeFileSync(file, `<!doctype html><html><head><style>body{margin:0}</style></head><body>
<iframe src="${fileUrl(path.join(root, page))}" style="width:${width}px;height:1200px;border:0"></iframe>
<script>
addEventListener("message", function (e) {
  var seen = JSON.parse(e.data);
  for (var k in seen) document.documentElement.setAttribute(k, seen[k]);
});
</script></body></html>`);
  return file;
}

/** Dumps `page` (relative to the site) at `width` px, with the measuring script added. */
function measure(page, width, dark, root = copy) {
  const file = path.join(root, page);
  const src = fs.readFileSync(file, "utf8");
  const withTest = src.includes("test-mobile.js")
    ? src
    : src.replace(/(<script [^>]*src="((?:\.\.\/)*)assets\/site\.js"[^>]*><\/script>)/, '$1<script defer src="$2assets/test-mobile.js"></script>');
  ok(withTest.includes("test-mobile.js"), `${page}: test script added`);
  fs.writeFileSync(file, withTest);
  const flags = [`--window-size=${Math.max(width, 800)},1300`, "--hide-scrollbars"];
  if (dark) flags.push("--force-dark-mode", "--blink-settings=preferredColorScheme=0");
  const r = dump(fileUrl(frame(page, width, root)), flags);
  assertClean(r, page);
  const a = htmlAttrs(r.dom);
  ok(a["data-test-width"], `${page}: no measurement came back from the page`);
  return { a };
}

const PAGES = ["index.html", "checks.html", "placements/onboarding.html", "placements/paywall_settings.html",
  "changes.html", "history.html", "funnels/fnl_sleep_setup.html", "funnels/fnl_breath_first.html",
  // The newest snapshot's page and the newest pair's changes page (issue 9 point 8).
  ...["snapshots", "diffs"].flatMap((d) => fs.existsSync(path.join(seriesSite, d)) ? fs.readdirSync(path.join(seriesSite, d)).sort().slice(-1).map((f) => `${d}/${f}`) : [])];

for (const page of PAGES) {
  for (const dark of [false, true]) {
    test(`${page} at 390 px${dark ? ", dark" : ""}: no sideways scroll, nothing wider than the screen`, () => {
      const { a } = measure(page, 390, dark);
      equal(a["data-test-width"], "390", "window.innerWidth");
      equal(a["data-test-wide"], "", "elements of <main> wider than the screen, outside a scrolling drawing or source listing");
      ok(Number(a["data-test-scroll-width"]) <= 390, `document scrollWidth ${a["data-test-scroll-width"]} > 390`);
      ok(!/unhinted/.test(a["data-test-hints"] || ""), `a drawing or chart that scrolls sideways says so: ${a["data-test-hints"]}`);
      equal(a["data-test-labelled"], a["data-test-cells"], "card cells showing their data-label");
      if (page === "history.html") {
        ok(a["data-test-chart-label-px"] !== "-1", "the history page has its chart");
        ok(Number(a["data-test-chart-label-px"]) >= 10, `the history chart's smallest text is drawn at ${a["data-test-chart-label-px"]} px`);
        ok((a["data-test-hints"] || "").split(",").includes("hinted"), `the history chart scrolls and says so: ${a["data-test-hints"]}`);
      }
    });
  }
}

test("on a wide screen the history chart fits its box: no scroll, labels at least 9 px", () => {
  const { a } = measure("history.html", 1280, false);
  equal(a["data-test-wide"], "", "nothing wider than the screen");
  equal(a["data-test-hints"], "", "no box scrolls");
  ok(a["data-test-chart-label-px"] !== "-1", "the history page has its chart");
  ok(Number(a["data-test-chart-label-px"]) >= 9, `the chart's smallest text is drawn at ${a["data-test-chart-label-px"]} px`);
});

test("every cell of a cards table has a data-label, and its table a row header", () => {
  let tables = 0;
  // (The Examples' changes page has no table: no variant split changed.)
  for (const page of ["index.html", "history.html", "funnels/fnl_sleep_setup.html"]) {
    const html = fs.readFileSync(path.join(seriesSite, page), "utf8");
    const found = html.match(/<table class="[^"]*\bcards\b[^"]*"[\s\S]*?<\/table>/g) || [];
    ok(found.length > 0, `${page}: a table.cards`);
    for (const table of found) {
      tables++;
      const body = table.match(/<tbody>([\s\S]*?)<\/tbody>/)[1];
      const cells = tags(body, "td").map(attrs);
      ok(cells.length > 0, `${page}: cells`);
      for (const cell of cells) ok(cell["data-label"], `${page}: a <td> without data-label`);
      equal((body.match(/<tr[\s>]/g) || []).length, (body.match(/<th scope="row">/g) || []).length, `${page}: a row header in each row`);
    }
  }
  ok(tables >= 4, `cards tables: ${tables}`); // the funnel page has two
});

// Long unbroken ids from an untrusted snapshot wrap, on every page that shows them.
if (tool) {
  test("the hostile snapshot's site is built", () => ok(hostileBuilt, "fallback-site build of the hostile snapshot failed"));
  if (hostileBuilt) {
    fs.copyFileSync(path.join(copy, "assets", "test-mobile.js"), path.join(hostileBuilt, "assets", "test-mobile.js"));
    const pages = ["index.html", "checks.html", ...["placements", "funnels"].flatMap((d) =>
      fs.readdirSync(path.join(hostileBuilt, d)).filter((f) => f.endsWith(".html")).sort().map((f) => `${d}/${f}`))];
    test("the hostile site has the long key's placement page", () =>
      ok(pages.some((p) => p.startsWith("placements/home_banner_x")), pages.join(" ")));
    for (const page of pages) {
      test(`hostile ${page} at 390 px: long unbroken ids wrap, nothing wider than the screen`, () => {
        const { a } = measure(page, 390, false, hostileBuilt);
        equal(a["data-test-width"], "390", "window.innerWidth");
        equal(a["data-test-wide"], "", "elements of <main> wider than the screen, outside a scrolling drawing or source listing");
        ok(Number(a["data-test-scroll-width"]) <= 390, `document scrollWidth ${a["data-test-scroll-width"]} > 390`);
      });
    }
    // On a wide screen `main` does not wrap anywhere: each long value needs its own rule. The
    // pages that list remote URLs (the funnel pages' remote media, the findings that quote them).
    for (const page of pages.filter((p) => p.startsWith("funnels/") || p === "checks.html")) {
      test(`hostile ${page} at 1280 px: long unbroken URLs wrap, nothing wider than the screen`, () => {
        const { a } = measure(page, 1280, false, hostileBuilt);
        equal(a["data-test-wide"], "", "elements of <main> wider than the screen, outside a scrolling drawing or source listing");
        ok(Number(a["data-test-scroll-width"]) <= 1280, `document scrollWidth ${a["data-test-scroll-width"]} > 1280`);
      });
    }
  }
}

test("on a wide screen the tables stay tables: the overview at 1280 px", () => {
  const { a } = measure("index.html", 1280, false);
  equal(a["data-test-wide"], "", "nothing wider than the screen");
  // The cells' labels are not shown: each column has its header.
  equal(a["data-test-labelled"], "0", "cells showing a label at 1280 px");
  ok(Number(a["data-test-cells"]) > 0, "cells of the placements table");
});

run();
