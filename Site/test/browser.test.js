"use strict";
// The theme in a real browser: headless Chromium opening the mocks from file:// under their CSP.
//
//   node Site/test/browser.test.js <bucketing-vectors.json> <bucketing-parity-vectors.json>
//   env: CHROMIUM (default "chromium"), SITE_TEST_OUT (a folder to keep the screenshots in;
//        without it they are checked and removed with the temporary folder)
//
// Each page is loaded with `--dump-dom` (and `--enable-logging=stderr --v=0`): site.js records
// CSP violations, script errors and failed loads in <html data-errors>, and the Chromium log is
// grepped for "Content Security Policy" and uncaught errors as a second net. A negative control
// proves both nets catch a page that breaks the CSP. built-site.test.js runs the same checks on a
// site that fallback-site builds from Templates/, so these mocks cannot drift from it unnoticed.

const fs = require("fs");
const path = require("path");
const { test, run, equal, ok } = require("./lib/harness");
const {
  CHROMIUM, CSP, temporaryFolder, fileUrl, chromium, chromiumRuns, dump, attrs, decode, tags, tagById, innerById, text,
  htmlAttrs, placementRows, variantRows, assertClean, expectVisible: expectRows, expectedDraw, checkLookup: checkLookupOn,
} = require("./lib/browser");

const SITE = path.resolve(__dirname, "..");
const MOCK = path.join(SITE, "test", "mock");
const TMP = temporaryFolder();
// Screenshots are kept only where SITE_TEST_OUT says; otherwise they are taken (and checked)
// inside the temporary folder, which is removed at exit.
const OUT = process.env.SITE_TEST_OUT ? path.resolve(process.env.SITE_TEST_OUT) : path.join(TMP, "screenshots");
const [fullVectorsPath, parityVectorsPath] = process.argv.slice(2);
const PAGES = ["index.html", "placement.html", "funnel.html", "experiment.html", "checks.html"];

// ---------------------------------------------------------------------------------------------
// Static contract checks on the mock sources
// ---------------------------------------------------------------------------------------------

const SHELL = new RegExp(
  "^<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" [^>]*>" +
  "<meta http-equiv=\"Content-Security-Policy\" content=\"([^\"]*)\"><title>[^<]+</title>" +
  "<link rel=\"stylesheet\" href=\"assets/site.css\"><link rel=\"icon\" href=\"assets/icons/favicon.svg\">" +
  "<script src=\"assets/site.js\" defer></script></head><body><a class=\"skip-link\" href=\"#main\">Skip to content</a>" +
  "<header class=\"site-header\"><nav aria-label=\"Site\">[\\s\\S]*</nav></header>\\s*<main id=\"main\">[\\s\\S]*</main>\\s*" +
  "<footer class=\"site-footer\">[\\s\\S]*</footer></body></html>\\s*$");

for (const page of PAGES) {
  test(`mock ${page}: follows the HTML contract's shell and has no inline code`, () => {
    const src = fs.readFileSync(path.join(MOCK, page), "utf8");
    const m = src.match(SHELL);
    ok(m, "the shell does not match the contract");
    equal(decode(m[1]), CSP, "CSP");
    ok(!/\sstyle=/i.test(src), "a style= attribute");
    ok(!/<style[\s>]/i.test(src), "a <style> element");
    ok(!/\son[a-z]+=/i.test(src), "an inline event handler");
    const scripts = tags(src, "script").map(attrs);
    ok(scripts.every((s) => s.src), "an inline <script>");
    const external = [...src.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((x) => x[1]).filter((u) => /^[a-z][a-z0-9+.-]*:/i.test(u));
    ok(external.length === 0, `absolute URLs (external resources?): ${external.join(", ")}`);
    const nav = src.match(/<nav aria-label="Site">([\s\S]*?)<\/nav>/)[1];
    ok(/>Overview</.test(nav) && />Checks</.test(nav), "the Site nav links Overview and Checks");
  });
}

test("mock index.html without JS: filters hidden, every row visible, contract ids present", () => {
  const src = fs.readFileSync(path.join(MOCK, "index.html"), "utf8");
  const filters = attrs(tagById(src, "filters"));
  equal(filters.class, "filters", "div#filters class");
  ok("hidden" in filters, "div#filters is hidden without JS");
  const search = attrs(tagById(src, "placement-search"));
  equal(search.type, "search", "search input type");
  equal(search["aria-label"], "Search placements", "search aria-label");
  const kindOptions = (innerById(src, "select", "filter-kind") || "").match(/value="([^"]*)"/g).map((v) => v.slice(7, -1));
  equal(kindOptions.join(","), "all,funnel,experiment,paywall,nothing", "kind options");
  const sevOptions = (innerById(src, "select", "filter-severity") || "").match(/value="([^"]*)"/g).map((v) => v.slice(7, -1));
  equal(sevOptions.join(","), "all,error,warning,info,none", "severity options");
  equal(attrs(tagById(src, "filter-status"))["aria-live"], "polite", "status aria-live");
  const rows = placementRows(src);
  ok(rows.length >= 5, "rows");
  ok(rows.every((r) => !("hidden" in r)), "no row is hidden in the source");
  ok(rows.every((r) => /^(funnel|experiment|paywall|nothing|skipped)$/.test(r["data-kind"])), "data-kind values");
  ok(rows.every((r) => /^(error|warning|info|none)$/.test(r["data-severity"])), "data-severity values");
  ok(rows.every((r) => r["data-search"] === r["data-search"].toLowerCase()), "data-search is lowercase");
});

test("mock experiment.html without JS: form hidden, bucket ranges listed", () => {
  const src = fs.readFileSync(path.join(MOCK, "experiment.html"), "utf8");
  const form = attrs(tagById(src, "lookup"));
  ok("hidden" in form, "form#lookup is hidden without JS");
  equal(form.class, "lookup", "form class");
  ok(form["data-experiment-key"], "data-experiment-key");
  const input = attrs(tagById(src, "subscriber-id"));
  equal(input.autocomplete, "off", "autocomplete");
  equal(input.spellcheck, "false", "spellcheck");
  ok(/<label for="subscriber-id">/.test(src), "label for=subscriber-id");
  ok(/<button type="submit">/.test(src), "submit button");
  const out = attrs(tagById(src, "lookup-result"));
  equal(out.for, "subscriber-id", "output for");
  equal(out["aria-live"], "polite", "output aria-live");
  const rows = variantRows(src);
  ok(rows.length >= 2 && rows.every((r) => r["data-variant-id"] && r["data-weight"]), "variant rows with id and weight");
  ok(/0–3399/.test(src) && /6700–9999/.test(src), "bucket ranges are listed");
});

// ---------------------------------------------------------------------------------------------
// Chromium
// ---------------------------------------------------------------------------------------------

const version = require("child_process").spawnSync(CHROMIUM, ["--version"], { encoding: "utf8" });
test(`Chromium is available (${(version.stdout || "").trim() || CHROMIUM})`, () => {
  equal(version.status, 0, `${CHROMIUM} --version exit status`);
});

for (const page of PAGES) {
  test(`${page} from file:// loads site.js and site.css under the CSP with no violation or error`, () => {
    const r = dump(fileUrl(path.join(MOCK, page)));
    equal(htmlAttrs(r.dom)["data-js"], "ready", "site.js ran (html[data-js])");
    ok(/\bjs\b/.test(htmlAttrs(r.dom).class || ""), "html.js class");
    assertClean(r, page);
  });
}

function expectVisible(dom, predicate, what) {
  return expectRows(dom, placementRows(fs.readFileSync(path.join(MOCK, "index.html"), "utf8")), predicate, what);
}

test("index.html?q=onboard filters the rows from file:// (search pre-filled from the URL)", () => {
  const r = dump(fileUrl(path.join(MOCK, "index.html"), "?q=onboard"));
  const n = expectVisible(r.dom, (row) => row["data-search"].includes("onboard"), "q=onboard");
  ok(n > 0 && n < placementRows(r.dom).length, "some rows shown and some hidden");
  const winback = placementRows(r.dom).find((row) => row["data-search"].startsWith("winback"));
  ok(winback && "hidden" in winback, "the winback row (no match) is hidden");
  assertClean(r, "index.html?q=onboard");
});

test("index.html?q=Onboard%20SHORT&kind=funnel&severity=info: tokens, case, kind and severity", () => {
  const r = dump(fileUrl(path.join(MOCK, "index.html"), "?q=Onboard%20SHORT&kind=funnel&severity=info"));
  expectVisible(r.dom, (row) => row["data-search"].includes("onboard") && row["data-search"].includes("short") &&
    row["data-kind"] === "funnel" && row["data-severity"] === "info", "combined");
  assertClean(r, "index combined filters");
});

test("index.html?severity=none and ?kind=nothing", () => {
  let r = dump(fileUrl(path.join(MOCK, "index.html"), "?severity=none"));
  expectVisible(r.dom, (row) => row["data-severity"] === "none", "severity=none");
  r = dump(fileUrl(path.join(MOCK, "index.html"), "?kind=nothing"));
  expectVisible(r.dom, (row) => row["data-kind"] === "nothing", "kind=nothing");
});

test("index.html?q=no-such-placement shows 0 rows and says so", () => {
  const r = dump(fileUrl(path.join(MOCK, "index.html"), "?q=no-such-placement"));
  expectVisible(r.dom, () => false, "no match");
});

// "Without JavaScript": a copy of the page whose CSP blocks every script (Chromium cannot
// --dump-dom with scripting switched off), next to the real assets.
function withoutScripts(page) {
  const dir = path.join(TMP, "nojs");
  if (!fs.existsSync(dir)) {
    fs.mkdirSync(dir, { recursive: true });
    fs.symlinkSync(path.join(SITE, "assets"), path.join(dir, "assets"));
  }
  const src = fs.readFileSync(path.join(MOCK, page), "utf8").replace("script-src 'self'", "script-src 'none'");
  ok(src.includes("script-src 'none'"), "CSP rewritten");
  fs.writeFileSync(path.join(dir, page), src);
  return path.join(dir, page);
}

test("index.html with JavaScript blocked: every row visible, filters stay hidden", () => {
  const r = dump(fileUrl(withoutScripts("index.html"), "?q=onboard"));
  ok(placementRows(r.dom).every((row) => !("hidden" in row)), "no row hidden");
  ok("hidden" in attrs(tagById(r.dom, "filters")), "filters hidden");
  equal(htmlAttrs(r.dom)["data-js"], undefined, "site.js did not run");
});

function lookup(subscriberId) {
  const r = dump(fileUrl(path.join(MOCK, "experiment.html"), "?subscriber=" + encodeURIComponent(subscriberId)));
  return r;
}

const experimentSrc = fs.readFileSync(path.join(MOCK, "experiment.html"), "utf8");
const experimentKey = attrs(tagById(experimentSrc, "lookup"))["data-experiment-key"];
const experimentVariants = variantRows(experimentSrc);

function checkLookup(r, subscriberId, bucket, variantId) {
  checkLookupOn(r, subscriberId, bucket, variantId, "onboarding");
}

test("experiment.html?subscriber=… computes the bucket and variant of a §5 vector", () => {
  const full = JSON.parse(fs.readFileSync(fullVectorsPath, "utf8"));
  const c = full.cases.find((x) => x.seed === experimentKey);
  ok(c, `a vector with seed ${experimentKey}`);
  const weights = c.variants.map((v) => String(v.weight));
  equal(experimentVariants.map((v) => v["data-weight"]).join(","), weights.join(","), "the mock's weights are the vector's");
  const index = c.variants.findIndex((v) => v.id === c.expectedVariantId);
  checkLookup(lookup(c.subscriberId), c.subscriberId, c.expectedBucket, experimentVariants[index]["data-variant-id"]);
});

test("experiment.html?subscriber=… matches node:crypto for more ids (non-ASCII, spaces, '+')", () => {
  const weights = experimentVariants.map((v) => v["data-weight"]);
  for (const id of ["rov_0123456789abcdefghijklmn", "rov_zyxwvutsrqponmlkjihgfedc", "用户_🎉 a+b", " rov_padded "]) {
    const { bucket, index } = expectedDraw(id, experimentKey, weights);
    checkLookup(lookup(id), id, bucket, experimentVariants[index]["data-variant-id"]);
  }
});

test("experiment.html with JavaScript blocked: the form stays hidden, ranges still listed", () => {
  const r = dump(fileUrl(withoutScripts("experiment.html"), "?subscriber=x"));
  equal(htmlAttrs(r.dom)["data-js"], undefined, "site.js did not run");
  ok("hidden" in attrs(tagById(r.dom, "lookup")), "form hidden");
  ok(/0–3399/.test(r.dom), "ranges listed");
});

// The browser harness: all 44 vectors through Chromium's own Web Crypto.
function buildHarness() {
  const dir = path.join(TMP, "harness");
  fs.mkdirSync(dir, { recursive: true });
  fs.symlinkSync(path.join(SITE, "assets"), path.join(dir, "assets"));
  for (const f of ["harness.html", "harness.js"]) fs.copyFileSync(path.join(SITE, "test", "browser", f), path.join(dir, f));
  const fullRaw = fs.readFileSync(fullVectorsPath, "utf8");
  const full = JSON.parse(fullRaw);
  // The weights as written in the file (JSON number text), in order.
  const texts = [...fullRaw.matchAll(/"weight"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g)].map((m) => m[1]);
  let t = 0;
  for (const c of full.cases) { c.weightTexts = texts.slice(t, t + c.variants.length); t += c.variants.length; }
  const parity = JSON.parse(fs.readFileSync(parityVectorsPath, "utf8"));
  fs.writeFileSync(path.join(dir, "vectors.js"), "window.FALLBACK_VECTORS = " + JSON.stringify({ full, parity }) + ";\n");
  return path.join(dir, "harness.html");
}

test("browser harness: all 44 vectors and the rounding cases pass in Chromium (Web Crypto and JS SHA-256)", () => {
  const r = dump(fileUrl(buildHarness()));
  const a = htmlAttrs(r.dom);
  equal(a["data-harness"], "done", "harness finished");
  equal(a["data-failed"], "0", `failures: ${text(innerById(r.dom, "ol", "failures") || "")}`);
  ok(Number(a["data-passed"]) >= 44 * 2 + 12, `passed checks: ${a["data-passed"]}`);
  assertClean(r, "harness");
});

test("a page one folder down ({ROOT} = \"../\") loads the theme under the CSP", () => {
  const dir = path.join(TMP, "subsite");
  fs.mkdirSync(path.join(dir, "experiments"), { recursive: true });
  fs.symlinkSync(path.join(SITE, "assets"), path.join(dir, "assets"));
  const page = experimentSrc.replace(/(href|src)="assets\//g, '$1="../assets/').replace(/href="(index|checks|funnel|placement|experiment)\.html/g, 'href="../$1.html');
  fs.writeFileSync(path.join(dir, "experiments", "onboarding.html"), page);
  const r = dump(fileUrl(path.join(dir, "experiments", "onboarding.html"), "?subscriber=x"));
  equal(htmlAttrs(r.dom)["data-js"], "ready", "site.js ran");
  ok(/data-bucket="\d+"/.test(r.dom), "the lookup computed");
  assertClean(r, "subfolder page");
});

test("negative control: a page that breaks the CSP is caught by both nets", () => {
  const dir = path.join(TMP, "bad");
  fs.mkdirSync(dir, { recursive: true });
  fs.symlinkSync(path.join(SITE, "assets"), path.join(dir, "assets"));
  const page = fs.readFileSync(path.join(MOCK, "checks.html"), "utf8")
    .replace("<h1>", '<h1 style="color:red">')
    .replace("</main>", "<script>document.title='x'</script></main>");
  fs.writeFileSync(path.join(dir, "bad.html"), page);
  const r = dump(fileUrl(path.join(dir, "bad.html")));
  const errors = htmlAttrs(r.dom)["data-errors"] || "";
  ok(/style-src|style attribute/.test(errors), `data-errors names the style attribute: "${errors}"`);
  ok(/script-src|inline <script>/.test(errors), `data-errors names the inline script: "${errors}"`);
  ok(r.log.includes("Content Security Policy"), "Chromium's log mentions Content Security Policy");
});

test("negative control: a wrong {ROOT} is reported (stylesheet not applied, failed loads)", () => {
  const dir = path.join(TMP, "wrongroot", "sub");
  fs.mkdirSync(dir, { recursive: true });
  fs.symlinkSync(path.join(SITE, "assets"), path.join(TMP, "wrongroot", "assets"));
  const page = fs.readFileSync(path.join(MOCK, "index.html"), "utf8").replace('<script src="assets/site.js"', '<script src="../assets/site.js"');
  fs.writeFileSync(path.join(dir, "index.html"), page);
  const r = dump(fileUrl(path.join(dir, "index.html")));
  const errors = htmlAttrs(r.dom)["data-errors"] || "";
  ok(/site\.css is not applied/.test(errors), `data-errors: "${errors}"`);
  ok(/failed to load <img>/.test(errors), `data-errors names the missing icons: "${errors}"`);
});

// Screenshots, light and dark, for people to look at (not compared automatically).
test(`screenshots of every mock, light and dark${process.env.SITE_TEST_OUT ? ` in ${OUT}` : " (set SITE_TEST_OUT to keep them)"}`, () => {
  fs.mkdirSync(OUT, { recursive: true });
  const made = [];
  for (const page of PAGES) {
    const query = page === "experiment.html" ? "?subscriber=rov_0123456789abcdefghijklmn" : "";
    for (const [scheme, flag] of [["light", "--blink-settings=preferredColorScheme=1"], ["dark", "--force-dark-mode"]]) {
      for (const [size, w, h] of [["desktop", 1280, 1600], ["phone", 390, 1600]]) {
        const file = path.join(OUT, `${page.replace(".html", "")}-${scheme}-${size}.png`);
        fs.rmSync(file, { force: true });
        chromium(fileUrl(path.join(MOCK, page), query),
          [flag, "--hide-scrollbars", `--window-size=${w},${h}`, `--screenshot=${file}`]);
        ok(fs.existsSync(file) && fs.statSync(file).size > 10000, `screenshot ${file}`);
        made.push(file);
      }
    }
  }
  equal(made.length, PAGES.length * 4, "screenshots");
});

run().then(() => console.log(`# ${chromiumRuns()} Chromium runs`));
