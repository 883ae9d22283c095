"use strict";
// Experiment pages (issue 9, point 7), in headless Chromium on sites fallback-site built from
// Templates/: variant cards with what each serves and its health, the funnels compared, the
// allocation history, the bucket marker's label and the lookup's copy link with ?subscriber=,
// and the page of an experiment whose entry the SDK skips, linked from the overview, the
// placement, the checks and search.
//
//   node Site/test/experiments.test.js <series site> <experiment series site>
//   env: CHROMIUM (default "chromium")
//
// <series site> is the Examples folder built as a series: its newest snapshot, release 3.4,
// skips the entry of paywall_settings, whose experiment has a variant with neither funnel nor
// paywall. <experiment series site> is releases 3.0 to 3.3 built as a series: onboarding runs an
// experiment over three funnels whose weights went from 50/50 to 34/33/33 in release 3.2.

const fs = require("fs");
const path = require("path");
const { test, run, equal, ok } = require("./lib/harness");
const { fileUrl, dump, attrs, tags, tagById, text, assertClean, expectedDraw, variantRows } = require("./lib/browser");

const [seriesSite, experimentSite] = process.argv.slice(2).map((p) => path.resolve(p));
if (!seriesSite || !experimentSite || !fs.existsSync(path.join(experimentSite, "experiments", "onboarding.html"))) {
  console.error("usage: node experiments.test.js <series site> <experiment series site>");
  process.exit(2);
}

const experimentPath = path.join(experimentSite, "experiments", "onboarding.html");
const experimentSource = fs.readFileSync(experimentPath, "utf8");

function cards(html) {
  const list = html.match(/<ul class="variant-cards">([\s\S]*?)<\/ul>\n<\/section>/);
  ok(list, "ul.variant-cards");
  return (list[1].match(/<li class="variant-card"[\s\S]*?<\/dl>/g) || []).map((card) => ({
    attrs: attrs(tags(card, "li")[0]),
    text: text(card.replace(/<\/(dt|dd|h3)>/g, " ")),
    links: tags(card, "a").map(attrs).map((a) => a.href),
  }));
}

test("onboarding: one card per variant with its weight, what it serves, its page count and its health in words", () => {
  const found = cards(experimentSource);
  equal(found.length, 3, "cards");
  const rows = variantRows(experimentSource);
  equal(found.map((c) => c.text.split(" ")[0]).join(" "), rows.map((r) => r["data-variant-id"]).join(" "), "the cards' variants");
  for (const card of found) {
    ok(/Weight 0\.3[34] · 3[34]% of subscribers · buckets \d+–\d+/.test(card.text), `weight and share: "${card.text}"`);
    ok(/Serves offline funnel .+ · \d+ pages/.test(card.text), `what it serves and its page count: "${card.text}"`);
    ok(/Health (no errors or warnings|\d+ errors?)/.test(card.text), `health in words: "${card.text}"`);
    const funnel = card.links.find((href) => href.startsWith("../funnels/"));
    ok(funnel && fs.existsSync(path.join(experimentSite, "experiments", funnel)), `the funnel link ${funnel} resolves`);
  }
  ok(found[0].text.includes("first: the others are compared with it"), "the first card says the others are compared with it");
});

test("onboarding: the variants' funnels are compared with the first variant's, pages linked", () => {
  const table = experimentSource.match(/<table class="comparison cards" id="comparison">([\s\S]*?)<\/table>/);
  ok(table, "table#comparison");
  const rows = table[1].match(/<tr><th scope="row">[\s\S]*?<\/tr>/g) || [];
  equal(rows.length, 2, "one row per variant after the first");
  ok(text(experimentSource).includes("Each variant's funnel against the first variant's, control"), "names the variant compared with");
  for (const row of rows) {
    for (const href of tags(row, "a").map(attrs).map((a) => a.href)) {
      const [file, anchor] = href.split("#");
      const target = path.join(experimentSite, "experiments", file);
      ok(fs.existsSync(target), `${href} exists`);
      if (anchor) ok(fs.readFileSync(target, "utf8").includes(`id="${anchor}"`), `${href}: anchor exists`);
    }
  }
});

test("onboarding: the allocation history notes that the new split moves some subscribers", () => {
  const table = experimentSource.match(/<table class="alloc-history cards" id="allocation-history">([\s\S]*?)<\/table>/);
  ok(table, "table#allocation-history");
  const rows = (table[1].match(/<tr[ >][\s\S]*?<\/tr>/g) || []).slice(1).map(text);
  equal(rows.length, 2, "two runs: 50/50, then 34/33/33");
  ok(rows[0].includes("first snapshot of the series"), rows[0]);
  ok(rows[1].includes("some move") && rows[1].includes("49.0% of them"), rows[1]);
});

const subscriber = "rov_3f9a2b7c1d4e5f60718293a4";

test("?subscriber=: the marker on the allocation bar has a label naming the bucket and the variant", () => {
  const r = dump(fileUrl(experimentPath, "?subscriber=" + encodeURIComponent(subscriber)));
  assertClean(r, "onboarding.html?subscriber=");
  const weights = variantRows(experimentSource).map((row) => row["data-weight"]);
  const ids = variantRows(experimentSource).map((row) => row["data-variant-id"]);
  const key = attrs(tagById(experimentSource, "lookup"))["data-experiment-key"];
  const draw = expectedDraw(subscriber, key, weights);
  const label = r.dom.match(/<p class="alloc-marker-label[^"]*"[^>]*>([\s\S]*?)<\/p>/);
  ok(label, "p.alloc-marker-label");
  const grouped = String(draw.bucket).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  equal(text(label[1]), `bucket ${grouped} of 10,000 → variant ${ids[draw.index]}`, "the marker's label");
  ok(/class="alloc-marker"/.test(r.dom), "the marker line on the bar");
  // The label stands under the bar at the bucket (left as a percentage of the bar's width).
  const left = (label[0].match(/left:\s*([\d.]+)%/) || [])[1];
  ok(left !== undefined && Math.abs(parseFloat(left) - (draw.bucket + 0.5) / 100) < 0.01, `label at ${left}%`);
});

test("?subscriber=: a Copy link button and a plain link carry the URL with the subscriber", () => {
  const r = dump(fileUrl(experimentPath, "?subscriber=" + encodeURIComponent(subscriber)));
  assertClean(r, "copy link");
  const button = tags(r.dom, "button").map(attrs).find((b) => /\bcopy-link\b/.test(b.class || ""));
  ok(button, "button.copy-link");
  equal(button.type, "button", "the button does not submit the form");
  const url = new URL(button["data-url"]);
  equal(url.searchParams.get("subscriber"), subscriber, "the copied URL's subscriber");
  ok(url.pathname.endsWith("/experiments/onboarding.html"), `the copied URL is this page: ${url.href}`);
  const link = tags(r.dom, "a").map(attrs).find((a) => /\blookup-link\b/.test(a.class || ""));
  ok(link, "a.lookup-link, what to copy by hand");
  equal(link.href, button["data-url"], "the link is the same URL");
  ok(r.dom.includes(">Copy link</button>"), "the button says what it does");
});

test("without ?subscriber= there is no marker label and no copy link", () => {
  const r = dump(fileUrl(experimentPath));
  assertClean(r, "onboarding.html");
  ok(!r.dom.includes("alloc-marker-label"), "no label");
  ok(!r.dom.includes("copy-link"), "no copy button");
});

// --- The Examples series: release 3.4 skips paywall_settings, experiment and all ------------

const skippedPath = path.join(seriesSite, "experiments", "paywall_settings.html");

test("the skipped experiment has a page that says why the whole entry fails, with the entry as written", () => {
  ok(fs.existsSync(skippedPath), "experiments/paywall_settings.html");
  const r = dump(fileUrl(skippedPath));
  assertClean(r, "paywall_settings.html");
  const notice = text((r.dom.match(/<div class="notice sev-error"[^>]*id="skipped"[^>]*>([\s\S]*?)<\/div><\/div>/) || [])[1] || "");
  ok(notice.startsWith("Error: skipped with its entry."), `the notice says it in words: "${notice.slice(0, 80)}"`);
  ok(notice.includes("skips the whole entry"), "why: the whole entry");
  ok(/line \d+, column \d+/.test(notice), "where: line and column");
  ok(notice.includes("expected a variant with a funnel or a paywall, found neither"), "the decoder's words");
  const failsAt = (r.dom.match(/<dt>Fails at<\/dt><dd><a href="#(L\d+-\d+)">/) || [])[1];
  ok(failsAt && tagById(r.dom, failsAt), `the failing line is marked in the listing (#${failsAt})`);
  ok(/<pre class="source"[ >]/.test(r.dom), "the entry as written");
  ok(!r.dom.includes('id="lookup"'), "no lookup for an experiment that never runs");
});

test("the skipped experiment's page is linked from the overview, the placement, the checks and search", () => {
  const href = "experiments/paywall_settings.html";
  ok(fs.readFileSync(path.join(seriesSite, "index.html"), "utf8").includes(`href="${href}">why its experiment is skipped`), "overview");
  ok(fs.readFileSync(path.join(seriesSite, "placements", "paywall_settings.html"), "utf8").includes(`href="../${href}">why the whole entry fails`), "placement");
  ok(fs.readFileSync(path.join(seriesSite, "checks.html"), "utf8").includes(`class="experiment-link" href="${href}"`), "checks");
  const r = dump(fileUrl(path.join(seriesSite, "index.html"), "?search=exp_settings_lifetime"));
  assertClean(r, "search exp_settings_lifetime");
  const list = r.dom.match(/<ul class="site-search-results"[^>]*>([\s\S]*?)<\/ul>/);
  ok(list, "the results list");
  const hrefs = tags(list[1], "a").map(attrs).map((a) => a.href);
  ok(hrefs.some((h) => h.split("#")[0] === href), `a result leads to the page: ${hrefs.join(", ")}`);
});

run();
