"use strict";
// History you can walk (issue 9 point 8), in headless Chromium on the Examples series that
// fallback-site built from Templates/: the history page's rows lead to each snapshot's page and to
// each consecutive pair's changes page (files and anchors exist); the chart names each release on
// its x-axis without overlap and has a legend that tells the lines apart by dash and marker; the
// findings carry "new" / "still present" / "fixed" badges, on the snapshot pages and on the checks
// page, whose ?status= filter keeps one kind; no CSP violation or script error anywhere.
//
//   node Site/test/history-walk.test.js <series-site>
//   env: CHROMIUM (default "chromium")
//
// <series-site> is the Examples folder built as a series (run.sh's): five releases, 3.0 to 3.4;
// 3.4 has 1 error and 2 breaking changes since 3.3.

const fs = require("fs");
const path = require("path");
const { test, run, equal, ok } = require("./lib/harness");
const { fileUrl, chromiumRuns, dump, attrs, tags, tagById, htmlAttrs, assertClean, text } = require("./lib/browser");

const site = path.resolve(process.argv[2] || "");
const historyPath = path.join(site, "history.html");
if (!process.argv[2] || !fs.existsSync(historyPath)) {
  console.error("usage: node history-walk.test.js <series-site> (the Examples folder built as a series)");
  process.exit(2);
}
const releases = ["2026-03-03-release-3.0", "2026-04-14-release-3.1", "2026-05-19-release-3.2", "2026-06-23-release-3.3", "2026-07-21-release-3.4"];

/// `href` (relative to the page at `from`, maybe with an anchor) names a file that exists and,
/// when it has an anchor, an element with that id in it.
function expectTarget(from, href, what) {
  const [file, anchor] = href.split("#");
  const target = file ? path.resolve(path.dirname(from), file) : from;
  ok(target.startsWith(site + path.sep), `${what}: ${href} leaves the site`);
  ok(fs.existsSync(target), `${what}: ${href} does not exist`);
  if (anchor) ok(tagById(fs.readFileSync(target, "utf8"), anchor), `${what}: ${href}: no element with id ${anchor}`);
  return target;
}

/// The rows of the history's snapshots table: each row's snapshot link and pair link.
function historyRows(html) {
  const body = html.match(/<table class="timeline[^"]*">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/);
  ok(body, "the snapshots table");
  return body[1].split("</tr>").filter((r) => r.includes("<tr")).map((row) => {
    const links = tags(row, "a").map(attrs);
    return { row, snapshot: links.find((a) => /^snapshots\//.test(a.href)), pair: links.find((a) => a.class === "pair-link") };
  });
}

const history = dump(fileUrl(historyPath));

test("history.html from file:// loads clean", () => assertClean(history, "history.html"));

test("every history row links to its snapshot's page; every row but the oldest to its pair's changes", () => {
  const rows = historyRows(history.dom);
  equal(rows.length, releases.length, "rows");
  rows.forEach((r, i) => {
    ok(r.snapshot, `row ${i}: no snapshot link`);
    expectTarget(historyPath, r.snapshot.href, `row ${i}`);
    if (i === rows.length - 1) ok(!r.pair, "the oldest snapshot has no pair before it");
    else {
      ok(r.pair && /^diffs\/.+--.+\.html$/.test(r.pair.href), `row ${i}: pair link ${r.pair && r.pair.href}`);
      expectTarget(historyPath, r.pair.href, `row ${i} pair`);
      ok(/Changes since the snapshot before/.test(r.pair["aria-label"] || ""), `row ${i}: the pair link is labelled`);
    }
  });
  equal(fs.readdirSync(path.join(site, "snapshots")).length, releases.length, "snapshot pages");
  equal(fs.readdirSync(path.join(site, "diffs")).length, releases.length - 1, "pair pages");
});

test("the chart names each release on its x-axis, linked to its page, full label in <title>, never overlapping", () => {
  const svg = history.dom.match(/<svg class="history-chart"[\s\S]*?<\/svg>/)[0];
  const labels = [...svg.matchAll(/<a href="([^"]+)"><text class="hc-tick hc-release"([^>]*)><title>([^<]*)<\/title>([^<]*)<\/text><\/a>/g)];
  equal(labels.length, releases.length, "release labels");
  labels.forEach((m, i) => {
    ok(m[3].startsWith(releases[i]), `label ${i} title "${m[3]}"`);
    equal(m[4], releases[i], `label ${i} text`);
    expectTarget(historyPath, m[1], `label ${i}`);
    ok(/rotate\(-45 /.test(attrs("<text" + m[2] + ">").transform || ""), `label ${i} is turned`);
  });
  // Turned 45°, two labels' baselines are dx·sin 45° apart: more than the 12px font's height.
  const xs = labels.map((m) => parseFloat(attrs("<text" + m[2] + ">").x));
  for (let i = 1; i < xs.length; i++) ok((xs[i] - xs[i - 1]) * Math.SQRT1_2 > 14, `labels ${i - 1} and ${i} overlap`);
  ok(/viewBox="0 0 720 /.test(svg), "the chart scales by its viewBox");
});

test("the legend names each line, told apart by dash and marker, not colour alone", () => {
  const legend = history.dom.match(/<ul class="hc-legend"[\s\S]*?<\/ul>/);
  ok(legend, "a legend");
  const items = legend[0].split("</li>").filter((x) => x.includes("<li"));
  equal(items.map((x) => text(x)).join(", "), "placements, errors, warnings, infos", "legend entries");
  const styles = items.map((x) => {
    const line = attrs(tags(x, "polyline")[0]);
    const marker = x.match(/<(circle|rect|path) /)[1] + (x.match(/<path [^>]*d="([^"]*)"/) || ["", ""])[1].split("L").length;
    return (line["stroke-dasharray"] || "solid") + " / " + marker;
  });
  equal(new Set(styles.map((s) => s.split(" / ")[0])).size, items.length, `dashes ${styles.join(", ")}`);
  equal(new Set(styles.map((s) => s.split(" / ")[1])).size, items.length, `markers ${styles.join(", ")}`);
  // Each line of the chart wears its legend's dash.
  const svg = history.dom.match(/<svg class="history-chart"[\s\S]*?<\/svg>/)[0];
  for (const item of items) {
    const cls = attrs(tags(item, "polyline")[0]).class;
    const line = tags(svg, "polyline").map(attrs).find((a) => a.class === cls);
    ok(line, `no chart line ${cls}`);
    equal(line["stroke-dasharray"], attrs(tags(item, "polyline")[0])["stroke-dasharray"], `${cls} dash`);
  }
});

test("the newest snapshot's page: verdict, counts, badges and links to its neighbours and its pair", () => {
  const row = historyRows(history.dom)[0];
  const pagePath = expectTarget(historyPath, row.snapshot.href, "newest");
  const r = dump(fileUrl(pagePath));
  assertClean(r, row.snapshot.href);
  ok(r.dom.includes(`<title>Snapshot ${releases[4]}`), "the page's title names the release");
  const verdict = text(r.dom.match(/<section class="verdict[\s\S]*?<\/section>/)[0]);
  ok(/Not ready/.test(verdict) && /1 error/.test(verdict) && /2 breaking changes/.test(verdict), `verdict "${verdict}"`);
  const breaking = tags(r.dom, "a").map(attrs).find((a) => /#breaking$/.test(a.href || ""));
  ok(breaking, "the breaking changes are linked");
  const pair = expectTarget(pagePath, breaking.href, "breaking link");
  ok(/diffs\//.test(pair), "the breaking changes link to the pair's page");
  const previous = tags(r.dom, "a").map(attrs).find((a) => a.rel === "prev");
  ok(previous && previous.href.endsWith(".html"), "a link to the previous snapshot");
  expectTarget(pagePath, previous.href, "previous");
  ok(!tags(r.dom, "a").map(attrs).some((a) => a.rel === "next"), "the newest has no next");
  // Badges, as text: every finding is new or still present; the fixed ones are listed as fixed.
  const findings = tags(r.dom, "li").map(attrs).filter((a) => (a.class || "").startsWith("finding "));
  const statuses = findings.map((f) => f["data-status"]);
  ok(statuses.includes("new") && statuses.includes("still-present") && statuses.includes("fixed"), `statuses ${[...new Set(statuses)]}`);
  for (const [status, words] of [["new", "new"], ["still-present", "still present"], ["fixed", "fixed"]]) {
    ok(r.dom.includes(`<span class="badge finding-status status-${status}">${words}</span>`), `a "${words}" badge`);
  }
  ok(tagById(r.dom, "fixed-title"), "a section of fixed findings");
});

test("the oldest snapshot's page has no previous, no comparison, and links to the next and its pair", () => {
  const rows = historyRows(history.dom);
  const pagePath = expectTarget(historyPath, rows[rows.length - 1].snapshot.href, "oldest");
  const r = dump(fileUrl(pagePath));
  assertClean(r, "oldest");
  ok(!tags(r.dom, "a").map(attrs).some((a) => a.rel === "prev"), "no previous");
  ok(!/data-status=/.test(r.dom), "no badges without a snapshot before");
  const next = tags(r.dom, "a").map(attrs).find((a) => a.rel === "next");
  expectTarget(pagePath, next.href, "next");
  const toNext = tags(r.dom, "a").map(attrs).find((a) => /^\.\.\/diffs\//.test(a.href || ""));
  expectTarget(pagePath, toNext.href, "changes to the next");
});

test("a pair's page: the changes template between two releases, with its walk", () => {
  const row = historyRows(history.dom)[0];
  const pagePath = expectTarget(historyPath, row.pair.href, "pair");
  const r = dump(fileUrl(pagePath));
  assertClean(r, row.pair.href);
  const h1 = text(r.dom.match(/<h1>[\s\S]*?<\/h1>/)[0]);
  equal(h1, `Changes from ${releases[3]} to ${releases[4]}`, "heading");
  ok(tagById(r.dom, "breaking"), "the breaking section is there");
  const links = tags(r.dom, "a").map(attrs);
  ok(links.some((a) => a.rel === "prev"), "a link to the previous pair");
  ok(!links.some((a) => a.rel === "next"), "the last pair has no next");
  for (const a of links.filter((a) => /^\.\.\/(snapshots|diffs|placements)\//.test(a.href || ""))) expectTarget(pagePath, a.href, a.href);
  // An older pair: placements are not linked (the site shows another snapshot), never called unloaded wrongly.
  const older = historyRows(history.dom)[2];
  const olderPath = expectTarget(historyPath, older.pair.href, "older pair");
  const o = fs.readFileSync(olderPath, "utf8");
  ok(!/href="\.\.\/placements\//.test(o), "an older pair links no placement page of the newest snapshot");
});

test("checks.html: findings badged against the previous snapshot, ?status=new keeps the new ones", () => {
  const checksPath = path.join(site, "checks.html");
  const source = fs.readFileSync(checksPath, "utf8");
  const inGroups = (html) => html.split('<section aria-labelledby="fixed-title">')[0];
  const all = tags(inGroups(source), "li").map(attrs).filter((a) => (a.class || "").startsWith("finding "));
  const fresh = all.filter((a) => a["data-status"] === "new");
  ok(fresh.length > 0 && all.every((a) => ["new", "still-present"].includes(a["data-status"])), "every finding is new or still present");
  ok(tagById(source, "checks-finding-status"), "a status filter");
  const r = dump(fileUrl(checksPath, "?status=new"));
  assertClean(r, "checks.html?status=new");
  equal(htmlAttrs(r.dom)["data-checks-shown"], String(fresh.length), "findings shown");
  const shown = tags(inGroups(r.dom), "li").map(attrs).filter((a) => (a.class || "").startsWith("finding ") && !("hidden" in a));
  ok(shown.every((a) => a["data-status"] === "new"), "only new findings are shown");
});

test("the header's search finds a snapshot by its release label and leads to its page", () => {
  const r = dump(fileUrl(historyPath, "?search=" + encodeURIComponent("release-3.2")));
  assertClean(r, "history.html?search=release-3.2");
  const list = r.dom.match(/<ul class="site-search-results"[^>]*>([\s\S]*?)<\/ul>/);
  ok(list, "the results list");
  const hit = (list[1].match(/<li[^>]*>[\s\S]*?<\/li>/g) || []).find((li) => text(li) === `snapshot: ${releases[2]} → snapshot ${releases[2]}`);
  ok(hit, `no snapshot result among ${text(list[1])}`);
  expectTarget(historyPath, attrs(tags(hit, "a")[0]).href, "search result");
});

run().then(() => console.log(`# ${chromiumRuns()} Chromium runs`));
