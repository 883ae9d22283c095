"use strict";
// The overview of the Examples history (issue 9, points 1 and 10): the verdict it opens with
// (release 3.4: 1 error and 2 breaking changes since release 3.3, each linked to a place that
// exists), problems first in the placements table, and sorting by clicking a column header.
//
//   node Site/test/overview-verdict.test.js <series site>
//   env: CHROMIUM (default "chromium")
//
// <series site> is the Examples folder built as a series (run.sh builds it). The clicks are made
// by a small script file added to a copy of the page (the CSP allows only files, no inline code),
// which writes what it saw on <html> for the dumped DOM.

const fs = require("fs");
const path = require("path");
const { test, run, equal, ok } = require("./lib/harness");
const { temporaryFolder, fileUrl, dump, attrs, decode, tags, tagById, text, placementRows, assertClean } = require("./lib/browser");

const [seriesSite] = process.argv.slice(2).map((p) => path.resolve(p));
if (!seriesSite || !fs.existsSync(path.join(seriesSite, "index.html"))) {
  console.error("usage: node overview-verdict.test.js <series site> (the Examples folder built by fallback-site)");
  process.exit(2);
}
const TMP = temporaryFolder();
const index = fs.readFileSync(path.join(seriesSite, "index.html"), "utf8");

function verdictSection(html) {
  const m = html.match(/<section class="verdict[^"]*"[^>]*>([\s\S]*?)<\/section>/);
  ok(m, "a section.verdict");
  return m[1];
}

const RANK = { error: 0, warning: 1 };
const rank = (severity) => (severity in RANK ? RANK[severity] : 2);
const rowKey = (html) => (html.match(/<th scope="row"><a [^>]*>([^<]*)<\/a>/) || [])[1];

/** Keys and severities of the placement rows, in page order. */
function rows(html) {
  const body = html.match(/<table[^>]*id="placements"[^>]*>[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/);
  ok(body, "table#placements with a tbody");
  return (body[1].match(/<tr[\s\S]*?<\/tr>/g) || []).map((tr) => ({
    key: decode(rowKey(tr) || ""),
    severity: attrs(tags(tr, "tr")[0])["data-severity"],
    revision: text((tr.match(/<td class="num"[^>]*>([\s\S]*?)<\/td>/) || [])[1] || ""),
  }));
}

test("the verdict says Not ready: 1 error and 2 breaking changes since release 3.3, and 1 warning", () => {
  const section = verdictSection(index);
  const words = text(section);
  ok(/^Not ready\b/.test(words), `starts with the status: ${words}`);
  ok(words.includes("1 error and 2 breaking changes since the previous snapshot (2026-06-23-release-3.3.json), and 1 warning."), words);
  // Before the placements, the stats and the lede: the first thing after the title.
  ok(index.indexOf("<h1>") < index.indexOf('class="verdict') && index.indexOf('class="verdict') < index.indexOf('class="lede"'), "verdict right after the h1");
});

test("each count of the verdict is a badge in words, linked to a target that exists", () => {
  const links = tags(verdictSection(index), "a").map(attrs);
  const byText = {};
  for (const m of verdictSection(index).matchAll(/<a class="badge sev-([a-z]+)" href="([^"]*)">([^<]*)<\/a>/g)) byText[m[3]] = { severity: m[1], href: decode(m[2]) };
  equal(links.length, 3, "links in the verdict");
  equal(byText["1 error"] && byText["1 error"].href, "checks.html#errors", "1 error links");
  equal(byText["2 breaking changes"] && byText["2 breaking changes"].href, "changes.html#breaking", "2 breaking changes links");
  equal(byText["1 warning"] && byText["1 warning"].href, "checks.html#warnings", "1 warning links");
  for (const { href } of Object.values(byText)) {
    const [file, id] = href.split("#");
    const target = path.join(seriesSite, file);
    ok(fs.existsSync(target), `${file} exists`);
    ok(tagById(fs.readFileSync(target, "utf8"), id), `${file} has an element with id "${id}"`);
  }
});

test("problems come first: errors, then warnings, then the rest, each group by key", () => {
  const listed = rows(index);
  ok(listed.length >= 5, `rows: ${listed.length}`);
  equal(listed[0].severity, "error", "the first row's severity");
  for (let i = 1; i < listed.length; i++) {
    const [a, b] = [listed[i - 1], listed[i]];
    ok(rank(a.severity) < rank(b.severity) || (rank(a.severity) === rank(b.severity) && Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)) < 0),
      `${a.key} (${a.severity}) before ${b.key} (${b.severity})`);
  }
  // A severity badge says it in words.
  ok(/<span class="badge sev-error">1 error<\/span>/.test(index), "a row's badge says 1 error");
});

test("in the browser: header buttons, aria-sort on the Findings column, no CSP violation", () => {
  const r = dump(fileUrl(path.join(seriesSite, "index.html")));
  assertClean(r, "index.html");
  const head = r.dom.match(/<thead>([\s\S]*?)<\/thead>/)[1];
  const sortable = head.match(/<th [^>]*data-sort="[a-z]+"[^>]*><button type="button" class="sort-button">/g) || [];
  equal(sortable.length, 4, "th[data-sort] with a <button>: key, target, findings, revision");
  ok(/<th [^>]*data-sort="severity" aria-sort="descending"/.test(head), "Findings is the sorted column, descending");
  equal((head.match(/aria-sort=/g) || []).length, 1, "one column with aria-sort");
  // The rows are in the page's order until a click.
  equal(rows(r.dom).map((x) => x.key).join(" "), rows(index).map((x) => x.key).join(" "), "order after load");
});

test("clicking a header sorts by it, ascending then descending; aria-sort follows", () => {
  const copy = path.join(TMP, "sort-site");
  fs.cpSync(seriesSite, copy, { recursive: true });
  // Runs after site.js (both deferred, in order): clicks, and records each order on <html>.
  fs.writeFileSync(path.join(copy, "assets", "test-sort.js"), `
    (function () {
      var html = document.documentElement;
      function button(column) { return document.querySelector('#placements th[data-sort="' + column + '"] > button'); }
      function keys() {
        return Array.prototype.map.call(document.querySelectorAll("#placements tbody tr"), function (tr) { return tr.cells[0].textContent; }).join("|");
      }
      function sortState() {
        return Array.prototype.map.call(document.querySelectorAll("#placements th[aria-sort]"), function (th) {
          return th.getAttribute("data-sort") + ":" + th.getAttribute("aria-sort");
        }).join(",");
      }
      button("key").focus();
      html.setAttribute("data-test-focus", document.activeElement === button("key") ? "button" : "other");
      button("key").click();
      html.setAttribute("data-test-key-asc", keys());
      html.setAttribute("data-test-key-asc-sort", sortState());
      button("key").click();
      html.setAttribute("data-test-key-desc", keys());
      html.setAttribute("data-test-key-desc-sort", sortState());
      button("revision").click();
      html.setAttribute("data-test-revision", keys());
      button("severity").click();
      button("severity").click();
      html.setAttribute("data-test-severity", keys());
      html.setAttribute("data-test-severity-sort", sortState());
    })();
  `);
  const page = path.join(copy, "index.html");
  const src = fs.readFileSync(page, "utf8");
  const withTest = src.replace(/(<script [^>]*src="assets\/site\.js"[^>]*><\/script>)/, '$1<script defer src="assets/test-sort.js"></script>');
  ok(withTest !== src, "test script added");
  fs.writeFileSync(page, withTest);
  const r = dump(fileUrl(page));
  assertClean(r, "index.html with the click script");
  const a = attrs(r.dom.match(/<html[^>]*>/)[0]);
  const listed = rows(index);
  const keys = listed.map((x) => x.key);
  const byKey = [...keys].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  equal(a["data-test-focus"], "button", "a header button takes the keyboard focus");
  equal(a["data-test-key-asc"], byKey.join("|"), "Placement, first click: ascending");
  equal(a["data-test-key-asc-sort"], "key:ascending", "aria-sort after the first click");
  equal(a["data-test-key-desc"], [...byKey].reverse().join("|"), "Placement, second click: descending");
  equal(a["data-test-key-desc-sort"], "key:descending", "aria-sort after the second click");
  const revision = (x) => (/^\d+$/.test(x.revision) ? Number(x.revision) : -1);
  const byRevision = listed.map((x, i) => ({ x, i })).sort((p, q) => revision(p.x) - revision(q.x) || p.i - q.i).map((p) => p.x.key);
  equal(a["data-test-revision"], byRevision.join("|"), "Revision, ascending, ties in the page's order");
  equal(a["data-test-severity"], keys.join("|"), "Findings, descending again: the page's own order, problems first");
  equal(a["data-test-severity-sort"], "severity:descending", "aria-sort back on Findings");
  // The filters still see every row after sorting.
  equal(placementRows(r.dom).length, listed.length, "rows after sorting");
});

run();
