"use strict";
// Copy diffs on the changes page (issue 9 point 6), in headless Chromium on sites fallback-site
// built from Templates/: each changed text shows every locale's old and new text in full, the
// words that differ in <del>/<ins> (struck through and underlined, not only coloured, and told to
// screen readers as "removed:"/"added:"), a locale label, and a link to the page's row on the
// funnel page whose file and anchor exist. A second site, built from two small snapshots this
// test writes, covers a plain string turned into a string per locale, a locale added and one
// removed, a whitespace-only change, a text with no spaces (Japanese) and markup in the text.
//
//   node Site/test/copydiff.test.js <series site> <fallback-site>
//   env: CHROMIUM (default "chromium")
//
// A small script file added to a copy of changes.html (the CSP allows only files) reads the
// computed styles after site.js has run and writes what it found on <html> for the dumped DOM.

const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");
const { test, run, equal, ok } = require("./lib/harness");
const { temporaryFolder, fileUrl, dump, htmlAttrs, assertClean } = require("./lib/browser");

const [seriesSite, tool] = process.argv.slice(2).map((p) => path.resolve(p));
if (!seriesSite || !fs.existsSync(path.join(seriesSite, "changes.html")) || !tool || !fs.existsSync(tool)) {
  console.error("usage: node copydiff.test.js <series site> <fallback-site> (the Examples folder built by fallback-site)");
  process.exit(2);
}
const TMP = temporaryFolder();

// Runs after site.js (both deferred, in order): each locale block's label, status, and its
// before/after text and highlighted runs, with the styles a reader sees.
const MEASURE = `
  (function () {
    function visible(el) {
      var copy = el.cloneNode(true);
      Array.prototype.forEach.call(copy.querySelectorAll(".visually-hidden"), function (h) { h.remove(); });
      return copy.textContent;
    }
    function hidden(el) {
      var h = el.querySelector(".visually-hidden");
      return h ? h.textContent : "";
    }
    function hiddenClipped(el) {
      var h = el.querySelector(".visually-hidden");
      if (!h) return false;
      var r = h.getBoundingClientRect();
      return r.width <= 1 && r.height <= 1;
    }
    function runs(side, tag) {
      var text = side && side.querySelector(".copy-text");
      return text ? Array.prototype.map.call(text.querySelectorAll(tag), function (el) {
        var style = getComputedStyle(el);
        return { text: visible(el), said: hidden(el), clipped: hiddenClipped(el), line: style.textDecorationLine, whitespace: el.classList.contains("copy-ws") };
      }) : [];
    }
    var changes = Array.prototype.map.call(document.querySelectorAll("li.finding"), function (li) {
      var link = li.querySelector(".finding-page a");
      return {
        kind: li.querySelector(".rule-id").textContent,
        message: li.querySelector(".finding-message").textContent,
        page: link ? { href: link.getAttribute("href"), text: link.textContent } : null,
        form: (li.querySelector(".copy-form") || {}).textContent || null,
        unchanged: (li.querySelector(".copy-unchanged") || {}).textContent || null,
        json: li.querySelectorAll(".finding-pointer").length,
        locales: Array.prototype.map.call(li.querySelectorAll(".copy-locale"), function (block) {
          var old = block.querySelector(".copy-old");
          var neu = block.querySelector(".copy-new");
          var oldText = old.querySelector(".copy-text");
          var newText = neu.querySelector(".copy-text");
          return {
            label: visible(block.querySelector(".copy-locale-label")),
            labelSaid: hidden(block.querySelector(".copy-locale-label")),
            status: block.querySelector(".copy-status").textContent,
            old: oldText.classList.contains("copy-none") ? null : visible(oldText),
            new: newText.classList.contains("copy-none") ? null : visible(newText),
            wraps: getComputedStyle(oldText).whiteSpace,
            removed: runs(old, "del"),
            added: runs(neu, "ins"),
            misplaced: old.querySelectorAll("ins").length + neu.querySelectorAll("del").length
          };
        })
      };
    });
    var html = document.documentElement;
    html.setAttribute("data-test-changes", JSON.stringify(changes));
  })();
`;

/// Dumps `site`'s changes page with the measuring script added; returns the changes it found.
function measure(site, flags) {
  const copy = path.join(TMP, `site-${path.basename(site)}-${(flags || []).length}`);
  fs.rmSync(copy, { recursive: true, force: true });
  fs.cpSync(site, copy, { recursive: true });
  fs.writeFileSync(path.join(copy, "assets", "test-copydiff.js"), MEASURE);
  const file = path.join(copy, "changes.html");
  const src = fs.readFileSync(file, "utf8");
  const withTest = src.replace(/(<script [^>]*src="assets\/site\.js"[^>]*><\/script>)/, '$1<script defer src="assets/test-copydiff.js"></script>');
  ok(withTest.includes("test-copydiff.js"), "test script added to changes.html");
  fs.writeFileSync(file, withTest);
  const r = dump(fileUrl(file), flags);
  assertClean(r, "changes.html");
  const a = htmlAttrs(r.dom);
  ok(a["data-test-changes"], "no measurement came back from changes.html");
  return JSON.parse(a["data-test-changes"]);
}

/// The file and element id a link of `site`'s changes page leads to exist.
function expectLinkResolves(site, href, what) {
  const [file, anchor] = href.split("#");
  ok(anchor, `${what}: ${href} has an anchor`);
  const target = path.join(site, decodeURIComponent(file));
  ok(fs.existsSync(target), `${what}: ${href}: no file ${target}`);
  const html = fs.readFileSync(target, "utf8");
  ok(html.includes(`id="${anchor}"`), `${what}: ${href}: no element with id "${anchor}" in ${file}`);
  const row = html.match(new RegExp(`<tr id="${anchor}"[^>]*>`));
  ok(row, `${what}: ${href}: the anchor is a row of the Pages table`);
}

function expectCues(locale, what) {
  for (const run of locale.removed) {
    ok(run.line.includes("line-through"), `${what}: <del> "${run.text}" is struck through (${run.line})`);
    equal(run.said, "removed: ", `${what}: <del> "${run.text}" says "removed:" to screen readers`);
    ok(run.clipped, `${what}: <del>'s "removed:" is visually hidden`);
  }
  for (const run of locale.added) {
    ok(run.line.includes("underline"), `${what}: <ins> "${run.text}" is underlined (${run.line})`);
    equal(run.said, "added: ", `${what}: <ins> "${run.text}" says "added:" to screen readers`);
    ok(run.clipped, `${what}: <ins>'s "added:" is visually hidden`);
  }
  equal(locale.misplaced, 0, `${what}: no <ins> in the old text, no <del> in the new`);
  equal(locale.wraps, "pre-wrap", `${what}: the text keeps its line breaks and wraps`);
}

/// The first page with id `pageId` of funnel `funnelId` in a snapshot file.
function findPage(snapshotFile, funnelId, pageId) {
  const snapshot = JSON.parse(fs.readFileSync(snapshotFile, "utf8"));
  let found = null;
  (function walk(value) {
    if (found || !value || typeof value !== "object") return;
    if (value.id === funnelId && Array.isArray(value.pages)) {
      found = value.pages.find((p) => p.id === pageId) || null;
      return;
    }
    for (const v of Object.values(value)) walk(v);
  })(snapshot);
  return found;
}

// --- The Examples series: release 3.3 → 3.4 rewrites pg_support's body in en and de. ---------

const examples = path.resolve(__dirname, "../../Examples");
const oldPage = findPage(path.join(examples, "2026-06-23-release-3.3.json"), "fnl_breath_first", "pg_support");
const newPage = findPage(path.join(examples, "2026-07-21-release-3.4.json"), "fnl_breath_first", "pg_support");

for (const dark of [false, true]) {
  test(`Examples series, changes.html${dark ? " (dark)" : ""}: pg_support's body per locale, whole, with the changed words marked`, () => {
    ok(oldPage && newPage, "pg_support in releases 3.3 and 3.4");
    const flags = dark ? ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"] : [];
    const changes = measure(seriesSite, flags).filter((c) => c.kind === "copy-changed");
    equal(changes.length, 1, "copy-changed changes");
    const change = changes[0];
    equal(change.json, 0, "no JSON from/to lines for a copy change");
    equal(change.form, null, "no form note: both sides are a text per locale");
    equal(change.locales.map((l) => l.label).join(" "), "de en", "locale labels, in the new text's order");
    for (const locale of change.locales) {
      const what = `pg_support body, ${locale.label}`;
      equal(locale.labelSaid, "Locale ", `${what}: the label says it is a locale`);
      equal(locale.status, "changed", `${what}: status`);
      equal(locale.old, oldPage.body[locale.label], `${what}: the old text, whole`);
      equal(locale.new, newPage.body[locale.label], `${what}: the new text, whole`);
      expectCues(locale, what);
    }
    const en = change.locales.find((l) => l.label === "en");
    equal(en.removed.map((r) => r.text).join(" | "), "Stillpoint has short | sessions for exactly this", "en: removed words");
    equal(en.added.map((r) => r.text).join(" | "), "Try a 3-minute | session – no sign-up needed", "en: added words");
    const de = change.locales.find((l) => l.label === "de");
    equal(de.removed.map((r) => r.text).join(" | "), "Stillpoint hat kurze | Einheiten genau dafür", "de: removed words");
    equal(de.added.map((r) => r.text).join(" | "), "Probier eine 3-minütige | Einheit – ohne Anmeldung", "de: added words");
  });
}

test("Examples series: the copy change links to pg_support's row on the funnel page", () => {
  const changes = measure(seriesSite).filter((c) => c.kind === "copy-changed");
  const link = changes[0] && changes[0].page;
  ok(link, "a link to the funnel page");
  equal(link.text, "pg_support", "the link names the page");
  equal(link.href, "funnels/fnl_breath_first.html#page-pg_support", "the link");
  expectLinkResolves(seriesSite, link.href, "pg_support");
});

// --- Two small snapshots: each way a text can change. -------------------------------------------

function snapshot(generatedAt, pages) {
  const funnel = { id: "fnl_copy", slug: "copy", name: "Copy test", locales: ["en", "de", "fr", "ja"], defaultLocale: "en", pages, paywalls: {} };
  return JSON.stringify({
    formatVersion: 1, generatedAt, projectId: "proj_copy",
    placements: { onb: { placement: { identifier: "onb", revision: 1 }, experiment: null, funnel } },
  });
}

const OLD = [
  { id: "pg_plain", type: "statement", title: "Sleep better tonight" },
  { id: "pg_locales", type: "statement", title: { en: "Welcome", fr: "Bienvenue" } },
  { id: "pg_space", type: "statement", body: "Breathe  in slowly" },
  { id: "pg_ja", type: "statement", title: { ja: "今日はいい天気" } },
  { id: "pg_markup", type: "statement", title: "Tap <b>here</b>" },
  { id: "p.with/odd id", type: "statement", title: "Old" },
];
const NEW = [
  { id: "pg_plain", type: "statement", title: { en: "Sleep better tonight", de: "Heute Nacht besser schlafen" } },
  { id: "pg_locales", type: "statement", title: { en: "Welcome back", de: "Willkommen" } },
  { id: "pg_space", type: "statement", body: "Breathe in slowly" },
  { id: "pg_ja", type: "statement", title: { ja: "今日は悪い天気" } },
  { id: "pg_markup", type: "statement", title: "Tap <i>here</i> <script>x()</script>" },
  { id: "p.with/odd id", type: "statement", title: "New" },
];

let pairSite = null;
function buildPair() {
  if (pairSite) return pairSite;
  const dir = path.join(TMP, "pair");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "old.json"), snapshot(1764400000000, OLD));
  fs.writeFileSync(path.join(dir, "new.json"), snapshot(1764500000000, NEW));
  const out = path.join(TMP, "pair-site");
  const r = spawnSync(tool, ["build", path.join(dir, "new.json"), "--baseline", path.join(dir, "old.json"), "--out", out, "--quiet"], { encoding: "utf8" });
  equal(r.status, 0, `fallback-site build: ${r.stderr}`);
  pairSite = out;
  return out;
}

let measured = null;
function copyChanges() {
  if (measured) return measured;
  const site = buildPair();
  const changes = measure(site).filter((c) => c.kind === "copy-changed");
  const byPage = {};
  for (const c of changes) {
    ok(c.page, `${c.message}: a link to the funnel page`);
    byPage[c.page.text] = c;
  }
  measured = { site, byPage };
  return measured;
}

test("a plain string turned into a text per locale: said, and compared with each locale's new text", () => {
  const c = copyChanges().byPage.pg_plain;
  ok(c, "pg_plain's copy change");
  equal(c.form, "Was one text for every locale; now a text per locale.", "form note");
  equal(c.locales.map((l) => l.label).join(" "), "de", "only the locale whose text differs");
  equal(c.locales[0].old, "Sleep better tonight", "de: before, the plain string every locale saw");
  equal(c.locales[0].new, "Heute Nacht besser schlafen", "de: after");
  ok(/Same text in\s+en/.test(c.unchanged || ""), `unchanged locales listed: ${c.unchanged}`);
  expectCues(c.locales[0], "pg_plain de");
});

test("a locale added and a locale removed read as such, each with its one text", () => {
  const c = copyChanges().byPage.pg_locales;
  ok(c, "pg_locales's copy change");
  const rows = c.locales.map((l) => `${l.label}: ${l.status}: ${l.old} → ${l.new}`);
  equal(rows.join(" | "),
    "en: changed: Welcome → Welcome back | de: added: no text before: null → Willkommen | fr: removed: no text now: Bienvenue → null",
    "locales");
  const en = c.locales[0];
  equal(en.added.map((r) => r.text).join(" | "), " back", "en: added words");
  equal(en.removed.length, 0, "en: nothing removed");
});

test("a whitespace-only change says so and shows the whitespace", () => {
  const c = copyChanges().byPage.pg_space;
  ok(c, "pg_space's copy change");
  const every = c.locales[0];
  equal(every.label, "every locale", "one text for every locale");
  equal(every.status, "only whitespace changed", "status");
  equal(every.removed.length, 1, "one removed run");
  ok(every.removed[0].whitespace, "the removed run is marked as whitespace");
  equal(every.removed[0].text, "··", "two spaces shown as symbols");
  equal(every.added[0].text, "·", "one space shown as a symbol");
  expectCues(every, "pg_space");
});

test("a text without spaces (Japanese) differs by character", () => {
  const ja = copyChanges().byPage.pg_ja.locales[0];
  equal(ja.label, "ja", "label");
  equal(ja.removed.map((r) => r.text).join(" | "), "い", "removed");
  equal(ja.added.map((r) => r.text).join(" | "), "悪", "added");
  equal(ja.old, "今日はいい天気", "old, whole");
  equal(ja.new, "今日は悪い天気", "new, whole");
});

test("markup in a text stays text", () => {
  const { site, byPage } = copyChanges();
  const c = byPage.pg_markup.locales[0];
  equal(c.old, "Tap <b>here</b>", "old");
  equal(c.new, "Tap <i>here</i> <script>x()</script>", "new");
  const html = fs.readFileSync(path.join(site, "changes.html"), "utf8");
  ok(!/<script>x\(\)/.test(html) && !/<i>here/.test(html), "no markup from the snapshot in the page");
});

test("every page link of the pair site resolves to a row of the funnel page, odd page ids too", () => {
  const { site, byPage } = copyChanges();
  const pages = Object.keys(byPage).sort();
  equal(pages.join(" "), ["p.with/odd id", "pg_ja", "pg_locales", "pg_markup", "pg_plain", "pg_space"].sort().join(" "), "pages with a copy change");
  for (const page of pages) expectLinkResolves(site, byPage[page].page.href, page);
});

run();
