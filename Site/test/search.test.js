"use strict";
// The header's site search on built sites (issue 9, point 2): headless Chromium opens pages from
// file:// with ?search=…, which fills the box the way typing does; site.js loads
// assets/search-index.js with <script src> (the CSP allows it; file:// forbids fetching JSON)
// and lists the results. Each check reads the result's text and follows its link to a file (and
// anchor) that exists.
//
//   node Site/test/search.test.js <snapshot site> <series site> [<fallback-site binary>]
//
// <snapshot site> is built from Examples/2026-06-23-release-3.3.json, <series site> from the
// Examples folder (release 3.4 newest). With the binary, a site is also built from a hostile
// snapshot in a temporary folder, to see its text stay text. The keyboard is driven through
// Chromium's DevTools protocol over a pipe (lib/cdp.js; no extra package).

const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");
const { test, run, equal, ok } = require("./lib/harness");
const { temporaryFolder, fileUrl, dump, attrs, tags, tagById, text, assertClean } = require("./lib/browser");
const { Browser } = require("./lib/cdp");

const [snapshotSite, seriesSite, tool] = process.argv.slice(2).map((p) => path.resolve(p));
if (!snapshotSite || !seriesSite || !fs.existsSync(path.join(snapshotSite, "index.html"))) {
  console.error("usage: node search.test.js <snapshot site> <series site> [<fallback-site binary>]");
  process.exit(2);
}

/// The results the page at `page` (below `site`) lists for `query`: text, href, and the file it
/// links to; with the status line and the "N more" line.
function search(site, page, query) {
  const r = dump(fileUrl(path.join(site, page), "?search=" + encodeURIComponent(query)));
  assertClean(r, `search ${query} on ${page}`);
  const box = tagById(r.dom, "site-search-input");
  ok(box, "the search box is on the page");
  const list = r.dom.match(/<ul class="site-search-results"[^>]*>([\s\S]*?)<\/ul>/);
  ok(list, "the results list");
  const items = (list[1].match(/<li[^>]*>[\s\S]*?<\/li>/g) || []);
  const results = items.filter((li) => li.includes("<a ")).map((li) => {
    const href = attrs(tags(li, "a")[0]).href;
    const [file, anchor] = href.split("#");
    return { text: text(li), href, file: path.resolve(path.dirname(path.join(site, page)), file), anchor };
  });
  const more = items.filter((li) => li.includes("search-more")).map(text);
  const status = text((r.dom.match(/<output id="site-search-status"[^>]*>([\s\S]*?)<\/output>/) || [])[1] || "");
  return { results, more, status, dom: r.dom };
}

/// The result saying `expected` exists and its link leads to a file (and anchor) of the site.
function expectResult(found, expected, query) {
  const hit = found.results.find((r) => r.text === expected);
  ok(hit, `"${query}": no result "${expected}" among:\n  ${found.results.map((r) => r.text).join("\n  ")}`);
  ok(fs.existsSync(hit.file), `"${expected}" links to ${hit.href}, which does not exist`);
  if (hit.anchor) {
    const target = fs.readFileSync(hit.file, "utf8");
    ok(target.includes(`id="${hit.anchor}"`), `"${expected}" links to #${hit.anchor}, which ${hit.href} lacks`);
  }
  return hit;
}

// --- Each kind of thing, on release 3.3 (a page one folder down, so links go through ../) -----

const page = "funnels/fnl_calm_quiz.html";

test("an experiment id leads to its experiment page", () => {
  const found = search(snapshotSite, page, "exp_onb_quiz_len");
  const hit = expectResult(found, "experiment id: exp_onb_quiz_len → experiment on placement onboarding", "exp_onb_quiz_len");
  equal(path.relative(snapshotSite, hit.file), "experiments/onboarding.html", "the link");
  equal(found.status, "2 results.", "status (the experiment runs on two placements)");
});

test("a variant's funnel id leads to the funnel's page", () => {
  const found = search(snapshotSite, page, "fnl_calm_short");
  const hit = expectResult(found, "funnel id: fnl_calm_short → Calm start – short", "fnl_calm_short");
  equal(path.relative(snapshotSite, hit.file), "funnels/fnl_calm_short.html", "the link");
});

test("a funnel's name, matched whatever the case, leads to the funnel's page", () => {
  const found = search(snapshotSite, "index.html", "calm START quiz");
  const hit = expectResult(found, "funnel name: Calm start quiz → fnl_calm_quiz", "calm START quiz");
  equal(path.relative(snapshotSite, hit.file), "funnels/fnl_calm_quiz.html", "the link");
  equal(found.results[0].text, hit.text, "the exact match comes first");
});

test("a paywall id inside a funnel leads to the paywall's page", () => {
  const found = search(snapshotSite, page, "pwl_onb_annual");
  const hit = expectResult(found, "paywall id: pwl_onb_annual → paywall pwl_onb_annual in funnel Calm start quiz", "pwl_onb_annual");
  equal(path.relative(snapshotSite, hit.file), "paywalls/pwl_onb_annual.html", "the link");
});

test("a product id leads to the page of a paywall that sells it", () => {
  const found = search(snapshotSite, page, "app.stillpoint.premium.lifetime");
  ok(found.results.length > 0 && found.results.every((r) => r.text.startsWith("product id: app.stillpoint.premium.lifetime → ")),
    `results: ${found.results.map((r) => r.text).join(" | ")}`);
  for (const r of found.results) ok(fs.existsSync(r.file), `${r.text} links to ${r.href}, which does not exist`);
  ok(found.results.every((r) => path.relative(snapshotSite, r.file).startsWith("paywalls/")), "every result links to a paywall page");
});

test("a page id leads to the page's row in its funnel", () => {
  const found = search(snapshotSite, page, "pg_practice_time");
  const hit = expectResult(found, "page id: pg_practice_time → Calm start quiz", "pg_practice_time");
  equal(path.relative(snapshotSite, hit.file) + "#" + hit.anchor, "funnels/fnl_calm_quiz.html#page-pg_practice_time", "the link");
});

test("a skipped entry is found by its raw content (3.3's trial_ending)", () => {
  const found = search(snapshotSite, page, "pwl_trial_end_v2");
  const hit = found.results.find((r) => r.text.startsWith("skipped entry: ") && r.text.endsWith(" → skipped placement trial_ending"));
  ok(hit, `results: ${found.results.map((r) => r.text).join(" | ")}`);
  ok(hit.text.includes("pwl_trial_end_v2"), "the snippet shows the match");
  equal(path.relative(snapshotSite, hit.file), "placements/trial_ending.html", "the link");
});

test("a skipped entry is found by its raw content (3.4's paywall_settings, on the series site)", () => {
  const found = search(seriesSite, "index.html", "exp_Lr5Tn0yB8v");
  const hit = found.results.find((r) => r.text.endsWith(" → skipped placement paywall_settings"));
  ok(hit, `results: ${found.results.map((r) => r.text).join(" | ")}`);
  ok(hit.text.startsWith("skipped entry: ") && hit.text.includes("exp_Lr5Tn0yB8v"), hit.text);
  equal(path.relative(seriesSite, hit.file), "placements/paywall_settings.html", "the link");
});

test("exact matches rank before prefixes, prefixes before substrings", () => {
  const found = search(snapshotSite, "index.html", "onboarding");
  ok(found.results.length >= 3, "several results");
  equal(found.results[0].text, "placement key: onboarding → placement onboarding", "first");
  const ranks = found.results.map((r) => {
    const matched = r.text.replace(/^[^:]+: /, "").split(" → ")[0].toLowerCase();
    return matched === "onboarding" ? 0 : matched.startsWith("onboarding") ? 1 : 2;
  });
  ok(ranks.every((rank, i) => i === 0 || ranks[i - 1] <= rank), `ranks in order: ${ranks.join(",")}`);
});

test("at most 50 results are listed, and the rest counted", () => {
  const found = search(snapshotSite, "index.html", "p");
  equal(found.results.length, 50, "results listed");
  equal(found.more.length, 1, "a line for the rest");
  const rest = Number(found.more[0].match(/^([\d,]+) more/)[1].replace(/,/g, ""));
  ok(rest > 0, found.more[0]);
  equal(found.status, `The first 50 of ${50 + rest} results.`, "status");
});

test("a search that finds nothing says so", () => {
  const found = search(snapshotSite, "index.html", "no-such-thing-anywhere");
  equal(found.results.length, 0, "results");
  equal(found.status, "Nothing matches “no-such-thing-anywhere”.", "status");
});

// --- The keyboard, through the DevTools protocol over a pipe ----------------------------------

/// A headless Chromium (lib/cdp.js) on `url`, once site.js is ready: `evaluate`, `key`, `type`, `close`.
async function drive(url) {
  const browser = await Browser.launch();
  const page = await browser.newPage();
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const evaluate = (expression) => page.evaluate(expression);
  try {
    await page.open(url);
    for (let i = 0; i < 50 && (await evaluate("document.documentElement.getAttribute('data-js')")) !== "ready"; i++) await sleep(100);
  } catch (e) {
    await browser.close();
    throw e;
  }
  const codes = { "/": 191, ArrowDown: 40, ArrowUp: 38, Enter: 13, Escape: 27 };
  return {
    evaluate,
    async key(key) {
      const base = { key, code: key === "/" ? "Slash" : key, windowsVirtualKeyCode: codes[key] };
      await page.send("Input.dispatchKeyEvent", { type: "keyDown", ...base, text: key === "/" ? "/" : key === "Enter" ? "\r" : undefined });
      await page.send("Input.dispatchKeyEvent", { type: "keyUp", ...base });
      await sleep(50);
    },
    async type(text) { await page.send("Input.insertText", { text }); await sleep(400); },
    sleep,
    close: () => browser.close(),
  };
}

test("keyboard: / focuses the box, arrows move through results, Escape closes, Enter opens", async () => {
  const page = await drive(fileUrl(path.join(snapshotSite, "index.html")));
  try {
    const active = () => page.evaluate("document.activeElement.id || document.activeElement.textContent");
    const open = () => page.evaluate("!document.getElementById('site-search-results').hidden");
    await page.key("/");
    equal(await active(), "site-search-input", "/ focuses the search box");
    equal(await page.evaluate("document.getElementById('site-search-input').value"), "", "the / is not typed");
    await page.type("pg_goal");
    ok(await open(), "results listed while typing");
    await page.key("ArrowDown");
    equal(await active(), "page id: pg_goal → Calm start quiz", "ArrowDown: the first result");
    await page.key("ArrowDown");
    equal(await active(), "page id: pg_goal → Calm start – short", "ArrowDown: the second");
    await page.key("ArrowUp");
    await page.key("ArrowUp");
    equal(await active(), "site-search-input", "ArrowUp from the first goes back to the box");
    await page.key("Escape");
    ok(!(await open()), "Escape closes the list");
    equal(await active(), "site-search-input", "and leaves the focus in the box");
    await page.key("ArrowDown");
    ok(await open(), "ArrowDown reopens it");
    await page.key("Escape");
    equal(await active(), "site-search-input", "Escape on a result returns to the box");
    ok(!(await open()), "with the list closed");
    await page.evaluate("(function (i) { i.value = ''; })(document.getElementById('site-search-input'))");
    await page.type("exp_onb_quiz_len");
    await page.key("Enter");
    await page.sleep(1000);
    ok((await page.evaluate("location.pathname")).endsWith("/experiments/onboarding.html"), "Enter opens the first result");
  } finally {
    await page.close();
  }
});

// --- Hostile text stays text ----------------------------------------------------------------

if (tool && fs.existsSync(tool)) {
  test("hostile keys and skipped content are shown as text, never markup", () => {
    const dir = fs.mkdtempSync(path.join(temporaryFolder(), "search-"));
    const key = "<img src=x id=pwned>\u2028\"</script>";
    const snapshot = JSON.stringify({
      formatVersion: 1,
      placements: {
        [key]: { placement: { identifier: "evil", revision: 1 } },
        skipped_one: { placement: { identifier: "s", revision: "1" }, note: "<b id=bold>\u2029</script><script>" },
      },
    });
    fs.writeFileSync(path.join(dir, "hostile.json"), snapshot);
    const built = spawnSync(tool, ["build", path.join(dir, "hostile.json"), "--out", path.join(dir, "site"), "--quiet"], { encoding: "utf8" });
    equal(built.status, 0, `fallback-site build: ${built.stderr}`);
    const index = fs.readFileSync(path.join(dir, "site", "assets", "search-index.js"), "utf8");
    ok(!/[\u2028\u2029]/.test(index), "U+2028/U+2029 escaped in the index");
    const found = search(path.join(dir, "site"), "index.html", "<img");
    ok(found.results.some((r) => r.text.startsWith("placement key: <img src=x id=pwned>")), found.results.map((r) => r.text).join(" | "));
    const skipped = search(path.join(dir, "site"), "index.html", "<b id=bold>");
    ok(skipped.results.some((r) => r.text.startsWith("skipped entry: ")), skipped.results.map((r) => r.text).join(" | "));
    for (const dom of [found.dom, skipped.dom]) {
      ok(!/id="pwned"|id="bold"/.test(dom), "no element made from the snapshot's text");
      equal(tags(dom, "script").length, 2, "scripts: site.js and the index");
    }
  });

  // A layout that writes the search box's controls itself (as the built-in one did before site.js
  // made them) keeps its own, whole or in part: search works and no id is doubled.
  const oldControls = [
    '<label for="site-search-input">Search</label>',
    '<input id="site-search-input" type="search" autocomplete="off" spellcheck="false" placeholder="Find" aria-describedby="site-search-hint site-search-status">',
    '<span class="visually-hidden" id="site-search-hint">Press / to search.</span>',
    '<output id="site-search-status" for="site-search-input" aria-live="polite"></output>',
    '<ul class="site-search-results" id="site-search-results" aria-label="Search results" hidden></ul>',
  ];
  for (const [what, controls] of [["all of them", oldControls], ["the label and input only", oldControls.slice(0, 2)]]) {
    test(`a layout that writes the search box's controls itself (${what}) keeps them, each once`, () => {
      const dir = fs.mkdtempSync(path.join(temporaryFolder(), "search-layout-"));
      const exported = spawnSync(tool, ["theme", "export", path.join(dir, "theme")], { encoding: "utf8" });
      equal(exported.status, 0, `theme export: ${exported.stderr}`);
      const layoutPath = path.join(dir, "theme", "templates", "layout.html");
      const layout = fs.readFileSync(layoutPath, "utf8");
      const box = layout.match(/(<div class="site-search"[^>]*>)(<\/div>)/);
      ok(box, "the built-in layout writes the search box empty");
      fs.writeFileSync(layoutPath, layout.replace(box[0], box[1] + "\n" + controls.join("\n") + "\n" + box[2]));
      fs.writeFileSync(path.join(dir, "s.json"), JSON.stringify({
        formatVersion: 1, placements: { onboarding_main: { placement: { identifier: "onboarding_main", revision: 1 } } },
      }));
      const built = spawnSync(tool, ["build", path.join(dir, "s.json"), "--out", path.join(dir, "site"), "--quiet",
        "--templates", path.join(dir, "theme", "templates")], { encoding: "utf8" });
      equal(built.status, 0, `fallback-site build: ${built.stderr}`);
      const found = search(path.join(dir, "site"), "index.html", "onboarding_main");
      ok(found.results.some((r) => r.text.startsWith("placement key: onboarding_main")), found.results.map((r) => r.text).join(" | "));
      for (const id of ["site-search-input", "site-search-hint", "site-search-status", "site-search-results"]) {
        equal(found.dom.split(`id="${id}"`).length - 1, 1, `one element with id ${id}`);
      }
      equal((found.dom.match(/<label for="site-search-input"/g) || []).length, 1, "one label for the input");
      ok(found.dom.includes('placeholder="Find"'), "the layout's own input is kept");
    });
  }
}

run();
