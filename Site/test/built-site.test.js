"use strict";
// The theme on real pages: headless Chromium opening sites that fallback-site built from
// Templates/ (not the hand-written mocks), so the mocks and the templates cannot drift apart
// without a test failing.
//
//   node Site/test/built-site.test.js <snapshot site> [<series site>]
//   env: CHROMIUM (default "chromium")
//
// <snapshot site> is built from one snapshot with an experiment (run.sh uses
// Examples/2026-06-23-release-3.3.json); <series site> from a folder of snapshots, which adds
// the History and Changes pages. Both are folders; this test only reads them.
//
// What browser.test.js checks on the mocks and does not apply here, and why:
// - the shell regex: it pins the mocks' hand-written one-line layout; here the same parts are
//   checked element by element (CSP, no inline code, no absolute URLs, the theme's files);
// - the 44-vector harness and the negative controls: they test site.js and the two nets
//   themselves, not the pages;
// - the "../" page: every built page below the top folder is one, and is loaded here;
// - screenshots: for a person to look at, taken of the mocks.

const fs = require("fs");
const path = require("path");
const { test, run, equal, ok } = require("./lib/harness");
const {
  CSP, temporaryFolder, fileUrl, chromiumRuns, dump, attrs, decode, tags, tagById, htmlAttrs, placementRows,
  variantRows, assertClean, expectVisible, expectedDraw, checkLookup,
} = require("./lib/browser");

const [snapshotSite, seriesSite] = process.argv.slice(2).map((p) => path.resolve(p));
const TMP = temporaryFolder();

if (!snapshotSite || !fs.existsSync(path.join(snapshotSite, "index.html"))) {
  console.error("usage: node built-site.test.js <snapshot site> [<series site>] (a folder fallback-site built)");
  process.exit(2);
}

function pages(site) {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== "assets") walk(full);
      else if (entry.isFile() && entry.name.endsWith(".html")) found.push(path.relative(site, full));
    }
  };
  walk(site);
  return found;
}

const snapshotPages = pages(snapshotSite);
const seriesPages = seriesSite ? pages(seriesSite) : [];
// Every page of the snapshot site; of the series site, the overview and the pages only a series has.
const loaded = [
  ...snapshotPages.map((page) => [snapshotSite, page]),
  ...seriesPages.filter((page) => page === "index.html" || !snapshotPages.includes(page)).map((page) => [seriesSite, page]),
];

test("the built sites have the pages the tests expect", () => {
  for (const page of ["index.html", "checks.html"]) ok(snapshotPages.includes(page), `snapshot site: ${page}`);
  ok(snapshotPages.some((p) => p.startsWith("experiments/")), "snapshot site: an experiment page");
  ok(snapshotPages.some((p) => p.startsWith("funnels/")), "snapshot site: a funnel page");
  ok(snapshotPages.some((p) => p.startsWith("paywalls/")), "snapshot site: a paywall page");
  ok(snapshotPages.some((p) => p.startsWith("placements/")), "snapshot site: a placement page");
  if (seriesSite) for (const page of ["history.html", "changes.html"]) ok(seriesPages.includes(page), `series site: ${page}`);
});

// --- The HTML contract, element by element, on every built page (no browser) ------------------

for (const [site, page] of [...snapshotPages.map((p) => [snapshotSite, p]), ...seriesPages.map((p) => [seriesSite, p])]) {
  const label = `${site === snapshotSite ? "snapshot" : "series"} ${page}`;
  test(`${label}: the contract's CSP, the theme's files, no inline code, nothing loaded from elsewhere`, () => {
    const src = fs.readFileSync(path.join(site, page), "utf8");
    const root = "../".repeat(page.split("/").length - 1);
    ok(src.startsWith("<!doctype html>"), "starts with <!doctype html>");
    const metas = tags(src, "meta").map(attrs).filter((m) => m["http-equiv"] === "Content-Security-Policy");
    equal(metas.length, 1, "CSP meta elements");
    equal(metas[0].content, CSP, "CSP");
    ok(tags(src, "link").map(attrs).some((l) => l.rel === "stylesheet" && l.href === `${root}assets/site.css`), `stylesheet ${root}assets/site.css`);
    const scripts = tags(src, "script").map(attrs);
    ok(scripts.length === 1 && scripts[0].src === `${root}assets/site.js` && "defer" in scripts[0], `one deferred ${root}assets/site.js`);
    ok(!/\sstyle=/i.test(src), "a style= attribute");
    ok(!/<style[\s>]/i.test(src), "a <style> element");
    ok(!/\son[a-z]+=/i.test(src), "an inline event handler");
    // Nothing is loaded from elsewhere; a snapshot's remote media may be linked (<a href>), over
    // http(s) only (never javascript: or data:).
    const absolute = /^[a-z][a-z0-9+.-]*:/i;
    const loads = [...src.matchAll(/<(?!a[\s>])[a-z]+[^>]*\s(?:src|href)="([^"]*)"/gi)].map((x) => decode(x[1])).filter((u) => absolute.test(u));
    ok(loads.length === 0, `absolute URLs loaded (external resources): ${loads.join(", ")}`);
    const links = tags(src, "a").map(attrs).map((a) => a.href || "").filter((u) => absolute.test(u) && !/^https?:\/\//i.test(u));
    ok(links.length === 0, `links with another scheme than http(s): ${links.join(", ")}`);
    ok(/<nav aria-label="Site">[\s\S]*>Overview<[\s\S]*>Checks<[\s\S]*<\/nav>/.test(src), "the Site nav links Overview and Checks");
  });
}

// --- Chromium --------------------------------------------------------------------------------

for (const [site, page] of loaded) {
  const label = `${site === snapshotSite ? "snapshot" : "series"} ${page}`;
  test(`${label} from file:// runs site.js under the CSP with no violation or error`, () => {
    const r = dump(fileUrl(path.join(site, page)));
    equal(htmlAttrs(r.dom)["data-js"], "ready", "site.js ran (html[data-js])");
    assertClean(r, label);
  });
}

const indexSource = fs.readFileSync(path.join(snapshotSite, "index.html"), "utf8");
const indexRows = placementRows(indexSource);

test("built index.html without JS: filters hidden, every row visible, contract values", () => {
  ok("hidden" in attrs(tagById(indexSource, "filters")), "div#filters is hidden without JS");
  equal(attrs(tagById(indexSource, "placement-search")).type, "search", "search input type");
  ok(indexRows.length >= 5, `rows: ${indexRows.length}`);
  ok(indexRows.every((r) => !("hidden" in r)), "no row is hidden in the source");
  ok(indexRows.every((r) => /^(funnel|experiment|paywall|nothing|skipped)$/.test(r["data-kind"])), "data-kind values");
  ok(indexRows.every((r) => /^(error|warning|info|none)$/.test(r["data-severity"])), "data-severity values");
  ok(indexRows.every((r) => r["data-search"] === r["data-search"].toLowerCase()), "data-search is lowercase");
});

function filtered(query, predicate, what) {
  const r = dump(fileUrl(path.join(snapshotSite, "index.html"), query));
  const n = expectVisible(r.dom, indexRows, predicate, what);
  assertClean(r, `index.html${query}`);
  return n;
}

test("built index.html?q=onboard filters the rows (search pre-filled from the URL)", () => {
  const n = filtered("?q=onboard", (row) => row["data-search"].includes("onboard"), "q=onboard");
  ok(n > 0 && n < indexRows.length, "some rows shown and some hidden");
});

test("built index.html?q=ONBOARD%20experiment&severity=warning: tokens, case and severity", () => {
  filtered("?q=ONBOARD%20experiment&severity=warning", (row) => row["data-search"].includes("onboard") &&
    row["data-search"].includes("experiment") && row["data-severity"] === "warning", "combined");
});

test("built index.html?kind=funnel, ?severity=none and a query that matches nothing", () => {
  filtered("?kind=funnel", (row) => row["data-kind"] === "funnel", "kind=funnel");
  filtered("?severity=none", (row) => row["data-severity"] === "none", "severity=none");
  filtered("?q=no-such-placement", () => false, "no match");
});

test("built index.html with JavaScript blocked: every row visible, filters stay hidden", () => {
  // A copy of the site whose overview's CSP blocks every script.
  const copy = path.join(TMP, "built-nojs");
  fs.cpSync(snapshotSite, copy, { recursive: true });
  const page = path.join(copy, "index.html");
  const src = fs.readFileSync(page, "utf8").replace("script-src &#39;self&#39;", "script-src &#39;none&#39;");
  ok(src.includes("script-src &#39;none&#39;"), "CSP rewritten");
  fs.writeFileSync(page, src);
  const r = dump(fileUrl(page, "?q=onboard"));
  equal(htmlAttrs(r.dom)["data-js"], undefined, "site.js did not run");
  ok(placementRows(r.dom).every((row) => !("hidden" in row)), "no row hidden");
  ok("hidden" in attrs(tagById(r.dom, "filters")), "filters hidden");
});

// Subscriber ids for the lookup: fixed, so a failure can be reproduced.
const SUBSCRIBERS = ["rov_000000000000000000000000", "ckvt3m8qc0000356mekq0v1x2", "用户_12345", " rov_padded ", "a+b&c=d"];

for (const page of snapshotPages.filter((p) => p.startsWith("experiments/"))) {
  test(`built ${page}?subscriber=… draws what the §5 rule draws`, () => {
    const src = fs.readFileSync(path.join(snapshotSite, page), "utf8");
    const key = attrs(tagById(src, "lookup"))["data-experiment-key"];
    ok(key, "data-experiment-key");
    const variants = variantRows(src);
    ok(variants.length >= 2 && variants.every((v) => v["data-variant-id"] && v["data-weight"]), "variant rows with id and weight");
    const title = decode((src.match(/<title>([^<]*)<\/title>/) || [])[1] || "");
    for (const id of SUBSCRIBERS) {
      const { bucket, index } = expectedDraw(id, key, variants.map((v) => v["data-weight"]));
      const r = dump(fileUrl(path.join(snapshotSite, page), "?subscriber=" + encodeURIComponent(id)));
      checkLookup(r, id, bucket, variants[index]["data-variant-id"], title);
    }
  });
}

run().then(() => console.log(`# ${chromiumRuns()} Chromium runs`));
