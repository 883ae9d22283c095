"use strict";
// The accessibility gate (issue 9): axe-core in headless Chromium finds no serious or critical
// violation on any kind of page of the built sites, nor on the mocks, in light and in dark.
//
//   node Site/test/axe.test.js <axe.min.js> <site>... [--new-kinds <site>] [--mocks <folder>]
//
// --new-kinds: a site of which only the kinds the other sites lack are checked (run.sh: a
// 510-placement sample, whose overview has a second page, index-2.html).
//   env: CHROMIUM (default "chromium")
//
// Of each site, one page of every kind (lib/page-kinds.js: grouped by folder or top-level name,
// the fullest page of each) is opened at 1280 × 900 from file://, under its own strict CSP, with
// prefers-color-scheme emulated light, then dark. Every <details> is opened, so what a reader can
// unfold is checked too; then axe.min.js is evaluated in the page over the DevTools protocol (no
// <script> tag: the CSP would refuse one, and the page is tested as shipped) and axe.run() checks
// the whole document with its default rules (WCAG 2 A and AA, best practices). A failure names
// each serious or critical violation: rule, impact, what it means, the page, the theme and the
// CSS selectors of the elements. Minor and moderate ones, and what axe could not decide
// ("incomplete"), are counted in a note line.

const fs = require("fs");
const path = require("path");
const { test, run, equal, ok } = require("./lib/harness");
const { fileUrl, temporaryFolder } = require("./lib/browser");
const { Browser } = require("./lib/cdp");
const { pagePerKind, largestPageWith } = require("./lib/page-kinds");

const positional = [];
const options = { "--mocks": null, "--new-kinds": null };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a in options) options[a] = path.resolve(process.argv[++i] || "");
  else positional.push(path.resolve(a));
}
const mocks = options["--mocks"];
const [axePath, ...sites] = positional;
// A site whose kinds already checked elsewhere are left out (a big sample, for index-N alone).
const extra = options["--new-kinds"];
if (!axePath || !fs.existsSync(axePath) || sites.length === 0 || [...sites, ...(extra ? [extra] : [])].some((s) => !fs.existsSync(path.join(s, "index.html")))) {
  console.error("usage: node axe.test.js <axe.min.js> <site>... [--new-kinds <site>] [--mocks <folder>] (folders fallback-site built)");
  process.exit(2);
}
const axeSource = fs.readFileSync(axePath, "utf8");
const FAILING = new Set(["serious", "critical"]);
const SCHEMES = ["light", "dark"];

let browser = null;
let page = null;
async function tab() {
  if (!browser) {
    browser = await Browser.launch();
    page = await browser.newPage();
  }
  return page;
}

/// axe's results for `file` (with `query`, after `ready` holds in the page) in `scheme`, after
/// checking that the scheme applies and that the page and axe ran without a CSP violation or
/// script error.
async function audit(file, scheme, query, ready) {
  const p = await tab();
  await p.open(fileUrl(file, query), { width: 1280, height: 900, scheme });
  equal(await p.evaluate(`matchMedia("(prefers-color-scheme: dark)").matches`), scheme === "dark", "prefers-color-scheme: dark matches");
  if (ready) {
    const shown = await p.evaluate(`new Promise(function (done) {
      var tries = 0;
      (function poll() { if (${ready}) done(true); else if (++tries > 100) done(false); else setTimeout(poll, 50); })();
    })`);
    ok(shown, `${path.basename(file)}${query}: the page never reached the state to check (${ready})`);
  }
  await p.evaluate(`document.querySelectorAll("details").forEach(function (d) { d.open = true; }); true`);
  await p.evaluate(axeSource + "\n;true");
  const json = await p.evaluate(`axe.run(document, { resultTypes: ["violations"], preload: false }).then(function (r) {
    function brief(list) { return list.map(function (v) { return { id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
      nodes: v.nodes.map(function (n) { return { target: n.target, summary: n.failureSummary || "" }; }) }; }); }
    return JSON.stringify({ version: axe.version, violations: brief(r.violations), incomplete: brief(r.incomplete),
      passes: r.passes.map(function (v) { return v.id; }) });
  })`, 120000);
  const html = await p.evaluate(`document.documentElement.getAttribute("data-errors")`);
  ok(html === null, `${path.basename(file)}: site.js recorded data-errors="${html}"`);
  ok(p.problems.length === 0, `${path.basename(file)}: the console reported:\n${p.problems.join("\n")}`);
  return JSON.parse(json);
}

function describe(v, where) {
  const nodes = v.nodes.slice(0, 12).map((n) => `      ${n.target.join(" >> ")}${n.summary ? "\n        " + n.summary.split("\n").slice(0, 3).join(" / ") : ""}`);
  if (v.nodes.length > 12) nodes.push(`      … and ${v.nodes.length - 12} more`);
  return `${v.id} (${v.impact}) on ${where}: ${v.help} [${v.helpUrl}]\n${nodes.join("\n")}`;
}

function gate(label, file, scheme, query, ready) {
  test(`axe-core: ${label}, ${scheme}: no serious or critical violation`, async () => {
    const r = await audit(file, scheme, query, ready);
    const where = `${label}, ${scheme}`;
    // axe really checked the page: contrast among the rules it ran.
    const ran = new Set([...r.passes, ...r.violations.map((v) => v.id), ...r.incomplete.map((v) => v.id)]);
    ok(ran.has("color-contrast"), `${where}: axe did not run color-contrast (ran: ${[...ran].join(", ")})`);
    ok(ran.size >= 10, `${where}: axe ran only ${ran.size} rules`);
    const bad = r.violations.filter((v) => FAILING.has(v.impact));
    const minor = r.violations.filter((v) => !FAILING.has(v.impact));
    if (minor.length || r.incomplete.length) {
      console.log(`# ${where}: ${minor.length ? `minor or moderate: ${minor.map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`).join(", ")}; ` : ""}` +
        `to review (axe could not decide): ${r.incomplete.map((v) => `${v.id} (${v.nodes.length})`).join(", ") || "none"}`);
    }
    ok(bad.length === 0, `axe-core ${r.version}: ${bad.length} serious or critical violation(s):\n${bad.map((v) => describe(v, where)).join("\n")}`);
  });
}

// What site.js shows only after something is done on a page, opened through the page's URL:
// the header's search with results listed, a subscriber looked up, the checks filtered. Each on
// the largest page of its kind that has the control (`needs`; a skipped experiment's page has
// no lookup form).
const STATES = [
  { kind: "index", needs: 'data-search-index=', query: "?search=onboarding", what: "site search results",
    ready: `document.querySelector("#site-search-results:not([hidden]) a")` },
  { kind: "experiments", needs: 'id="lookup"', query: "?subscriber=axe-subscriber-1", what: "subscriber looked up",
    ready: `document.querySelector("#lookup-result[data-bucket]")` },
  { kind: "checks", needs: 'id="checks-filter"', query: "?severity=warning", what: "filtered by severity",
    ready: `document.querySelector("section.severity-group[hidden]")` },
];

// The gate finds what it must: a page under the same CSP and theme with known violations.
test("axe-core finds serious and critical violations in a page made to have them", async () => {
  const dir = path.join(temporaryFolder(), "control");
  fs.mkdirSync(dir);
  const site = sites[0];
  const head = fs.readFileSync(path.join(site, "index.html"), "utf8").match(/<head>[\s\S]*?<\/head>/)[0];
  ok(head.includes("Content-Security-Policy"), "the site's <head> has its CSP");
  fs.writeFileSync(path.join(dir, "low.css"), ".low { color: #bbbbbb; background: #ffffff; }\n");
  fs.writeFileSync(path.join(dir, "control.html"), "<!doctype html><html lang=\"en\">" +
    head.replace(/(href|src)="((?:\.\.\/)*)assets\//g, `$1="${fileUrl(path.join(site, "assets"))}/`)
      .replace("</head>", `<link rel="stylesheet" href="low.css"></head>`) +
    `<body><main id="main"><h1>Control</h1><p class="low">Pale text on white.</p>` +
    `<img src="${fileUrl(path.join(site, "assets", "icons", "favicon.svg"))}" width="10" height="10"><button type="button"></button>` +
    `<input type="text"><a href="#x"></a></main></body></html>`);
  const r = await audit(path.join(dir, "control.html"), "light");
  const found = new Set(r.violations.filter((v) => FAILING.has(v.impact)).map((v) => v.id));
  for (const id of ["color-contrast", "image-alt", "button-name", "label", "link-name"]) ok(found.has(id), `the control page's ${id} violation not reported (found: ${[...found].join(", ")})`);
});

const checked = new Set();
for (const site of [...sites, ...(extra ? [extra] : [])]) {
  const name = path.basename(site);
  const all = pagePerKind(site);
  const kinds = site === extra ? all.filter((k) => !checked.has(k.kind)) : all;
  for (const k of all) checked.add(k.kind);
  test(`${name}: the pages to check, one per kind`, () => {
    if (site !== extra) ok(kinds.length >= 5, `only ${kinds.length} kinds of page in ${site}`);
    console.log(`# ${name}: ${kinds.map((k) => `${k.kind} → ${k.page} (of ${k.pages})`).join("; ")}`);
  });
  for (const { kind, page } of kinds) {
    for (const scheme of SCHEMES) gate(`${name} ${kind} (${page})`, path.join(site, page), scheme);
    for (const state of STATES.filter((s) => s.kind === kind)) {
      const withControl = largestPageWith(site, kind, state.needs);
      if (!withControl) continue;
      for (const scheme of SCHEMES) gate(`${name} ${kind} (${withControl}${state.query}, ${state.what})`, path.join(site, withControl), scheme, state.query, state.ready);
    }
  }
}

if (mocks) {
  for (const file of fs.readdirSync(mocks).filter((f) => f.endsWith(".html")).sort()) {
    for (const scheme of SCHEMES) gate(`mock ${file}`, path.join(mocks, file), scheme);
  }
}

run().then(async () => {
  if (browser) await browser.close();
}, async (e) => {
  console.error(e);
  if (browser) await browser.close();
  process.exitCode = 1;
});
