"use strict";
// Phone previews (issue 9, point 4): each funnel page's pages in a phone frame, in every locale,
// with a locale switch; paywall pages with a preview of their offering and remote config.
//
//   node Site/test/previews.test.js <series site> <fallback-site>
//   env: CHROMIUM (default "chromium")
//
// <series site> is the Examples folder built as a series (run.sh builds it). The tool builds
// Examples/2026-04-14-release-3.1.json too, whose fnl_calm_quiz v6 has pg_practice_time's title
// and options as plain English strings (Examples/README.md): German devices show them in English.
// The clicks are made by a small script file added to a copy of a page (the CSP allows only
// files), which writes what it saw on <html> for the dumped DOM.

const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");
const { test, run, equal, ok } = require("./lib/harness");
const { temporaryFolder, fileUrl, dump, htmlAttrs, attrs, decode, tags, tagById, text, assertClean } = require("./lib/browser");

const args = process.argv.slice(2);
const seriesSite = args[0] && path.resolve(args[0]);
const tool = args[1] && path.resolve(args[1]);
if (!seriesSite || !fs.existsSync(path.join(seriesSite, "index.html")) || !tool) {
  console.error("usage: node previews.test.js <series site> <fallback-site>");
  process.exit(2);
}
const repo = path.resolve(__dirname, "..", "..");
const TMP = temporaryFolder();

const release31 = path.join(repo, "Examples", "2026-04-14-release-3.1.json");
const calmSite = path.join(TMP, "release-3.1");
const built = spawnSync(tool, ["build", release31, "--out", calmSite, "--quiet"], { encoding: "utf8" });
if (built.status !== 0) {
  console.error(`fallback-site build failed: ${built.stderr}`);
  process.exit(1);
}

/** Every funnel of a snapshot, placements' and variants', by id. */
function funnelsOf(file) {
  const out = {};
  for (const entry of Object.values(JSON.parse(fs.readFileSync(file, "utf8")).placements)) {
    if (entry.funnel) out[entry.funnel.id] = entry.funnel;
    for (const v of (entry.experiment && entry.experiment.variants) || []) if (v.funnel) out[v.funnel.id] = v.funnel;
  }
  return out;
}
const calmQuiz = funnelsOf(release31).fnl_calm_quiz;

/** Copies `site`, adds `script` (run after site.js) to `page`, and dumps it in Chromium. */
function withScript(site, page, name, script, flags) {
  const copy = path.join(TMP, `${name}-site`);
  fs.cpSync(site, copy, { recursive: true });
  fs.writeFileSync(path.join(copy, "assets", `test-${name}.js`), script);
  const file = path.join(copy, page);
  const src = fs.readFileSync(file, "utf8");
  const withTest = src.replace(/(<script [^>]*src="((?:\.\.\/)*)assets\/site\.js"[^>]*><\/script>)/, `$1<script defer src="$2assets/test-${name}.js"></script>`);
  ok(withTest !== src, `${page}: test script added`);
  fs.writeFileSync(file, withTest);
  const r = dump(fileUrl(file), flags);
  assertClean(r, page);
  return htmlAttrs(r.dom);
}

// What each preview shows (the rendered text: a closed <details>' content is not rendered, so
// innerText leaves it out), before and after clicking the "de" button.
const SWITCH = (pageId) => `
  (function () {
    var html = document.documentElement;
    var preview = document.getElementById("preview-page-${pageId}");
    function shown() { return preview ? preview.innerText.replace(/\\s+/g, " ") : "no preview"; }
    var bar = document.querySelector(".preview-switch");
    html.setAttribute("data-test-switch-hidden", bar ? String(bar.hidden) : "none");
    html.setAttribute("data-test-before", shown());
    var de = document.querySelector('.preview-switch button[data-preview-locale="de"]');
    if (de) de.click();
    html.setAttribute("data-test-after", shown());
    html.setAttribute("data-test-pressed", Array.prototype.map.call(document.querySelectorAll(".preview-switch button"), function (b) {
      return b.getAttribute("data-preview-locale") + ":" + b.getAttribute("aria-pressed");
    }).join(","));
    html.setAttribute("data-test-open", Array.prototype.map.call(preview ? preview.querySelectorAll("details.preview-screen") : [], function (d) {
      return d.getAttribute("data-locale") + ":" + d.open;
    }).join(","));
  })();
`;

test("a row of a funnel's pages table links to its preview exactly when the page has one, and each preview links back to the row", () => {
  let previews = 0;
  for (const site of [seriesSite, calmSite]) {
    const dir = path.join(site, "funnels");
    for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".html"))) {
      const html = fs.readFileSync(path.join(dir, name), "utf8");
      const body = html.match(/<table class="pages cards">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/);
      ok(body, `${name}: a pages table`);
      for (const row of tags(body[1], "tr").map(attrs)) {
        const link = `<a class="preview-link" href="#preview-${row.id}">Preview</a>`;
        const preview = tagById(html, `preview-${row.id}`);
        // Only the first 300 pages of a funnel are previewed: a row links exactly when its preview is there.
        ok(body[1].includes(link) === Boolean(preview), `${name}: row ${row.id} links to a preview exactly when there is one`);
        if (!preview) continue;
        ok(/^<li class="preview"/.test(preview), `${name}: an element with id preview-${row.id}`);
        const item = html.slice(html.indexOf(preview), html.indexOf("</li>", html.indexOf(preview)));
        ok(item.includes(`<a href="#${row.id}">`), `${name}: preview-${row.id} links back to #${row.id}`);
        previews++;
      }
    }
  }
  ok(previews >= 20, `previews: ${previews}`);
});

test("without script the default locale's screens are open and the others one click away", () => {
  const html = fs.readFileSync(path.join(calmSite, "funnels", "fnl_calm_quiz.html"), "utf8");
  const screens = tags(html, "details").map(attrs).filter((d) => d.class === "preview-screen");
  equal(screens.length, calmQuiz.pages.length * 2, "a screen per page and locale");
  ok(screens.every((d) => ("open" in d) === (d["data-locale"] === "en")), "only the en screens are open");
  ok(/<div class="preview-switch" role="group" aria-label="Preview locale" hidden>/.test(html), "the switch is hidden until the script runs");
});

test("switching to de shows the German copy of a translated page (fnl_calm_quiz, release 3.1)", () => {
  const page = calmQuiz.pages.find((p) => p.title && typeof p.title === "object" && p.title.de && p.title.en);
  ok(page, "a page with an en and a de title");
  const a = withScript(calmSite, "funnels/fnl_calm_quiz.html", "switch-translated", SWITCH(page.id));
  equal(a["data-test-switch-hidden"], "false", "the switch shows once the script runs");
  ok(a["data-test-before"].includes(page.title.en), `before: the en title: ${a["data-test-before"]}`);
  ok(!a["data-test-before"].includes(page.title.de), "before: not the de title");
  ok(a["data-test-after"].includes(page.title.de), `after: the de title: ${a["data-test-after"]}`);
  ok(!a["data-test-after"].includes(page.title.en), "after: not the en title");
  equal(a["data-test-pressed"], "en:false,de:true", "aria-pressed follows the choice");
  equal(a["data-test-open"], "en:false,de:true", "only the de screen is open");
});

test("in de, pg_practice_time's plain English title and options are marked: not translated: shows the en text in de", () => {
  const page = calmQuiz.pages.find((p) => p.id === "pg_practice_time");
  ok(page && typeof page.title === "string", "pg_practice_time has a plain title (Examples/README.md)");
  const a = withScript(calmSite, "funnels/fnl_calm_quiz.html", "switch-plain", SWITCH("pg_practice_time"));
  ok(!a["data-test-before"].includes("not translated"), `before (en): no mark: ${a["data-test-before"]}`);
  ok(a["data-test-after"].includes(page.title), "after (de): the title as written");
  const marks = (a["data-test-after"].match(/not translated: shows the en text in de/g) || []).length;
  equal(marks, 1 + page.options.filter((o) => typeof o.label === "string").length, "marks: the title and each plain option");
});

test("the series site's funnel pages switch locale with no CSP violation or script error", () => {
  const funnels = funnelsOf(path.join(repo, "Examples", "2026-07-21-release-3.4.json"));
  const funnel = funnels.fnl_sleep_setup;
  const page = funnel.pages.find((p) => p.title && typeof p.title === "object" && p.title.de && p.title.en);
  ok(page, "fnl_sleep_setup has a page with an en and a de title");
  const a = withScript(seriesSite, "funnels/fnl_sleep_setup.html", "switch-series", SWITCH(page.id));
  ok(a["data-test-before"].includes(page.title.en) && a["data-test-after"].includes(page.title.de), `${a["data-test-before"]} → ${a["data-test-after"]}`);
});

test("hostile page text stays text in the preview and wraps inside the phone frame", () => {
  const long = "W".repeat(400);
  const snapshot = {
    formatVersion: 1, generatedAt: 1764400000000, projectId: "p",
    placements: { a: { placement: { identifier: "a", revision: 1 }, funnel: { id: "f", slug: "f", locales: ["en", "ar"], defaultLocale: "en",
      pages: [{ id: "p1", type: "statement", title: { en: `<img src=x onerror=alert(1)> ${long}`, ar: "\u202Eمرحبا" }, cta: { en: "Go" } }] } } },
  };
  const file = path.join(TMP, "hostile.json");
  fs.writeFileSync(file, JSON.stringify(snapshot));
  const site = path.join(TMP, "hostile-built");
  const r = spawnSync(tool, ["build", file, "--out", site, "--quiet"], { encoding: "utf8" });
  equal(r.status, 0, `build: ${r.stderr}`);
  const html = fs.readFileSync(path.join(site, "funnels", "f.html"), "utf8");
  ok(!/<img src=x/.test(html), "markup stays text");
  const a = withScript(site, "funnels/f.html", "hostile", `
    (function () {
      var html = document.documentElement;
      var phone = document.querySelector("#preview-page-p1 .phone");
      var screen = phone.querySelector(".phone-screen");
      html.setAttribute("data-test-phone", Math.round(phone.getBoundingClientRect().width) + " " + screen.scrollWidth + " " + screen.clientWidth);
      html.setAttribute("data-test-images", String(document.querySelectorAll("main img:not(.icon)").length));
      var ar = document.querySelector('.preview-switch button[data-preview-locale="ar"]');
      ar.click();
      html.setAttribute("data-test-ar", document.getElementById("preview-page-p1").innerText);
    })();
  `, ["--window-size=390,900"]);
  const [phoneWidth, scrollWidth, clientWidth] = a["data-test-phone"].split(" ").map(Number);
  ok(phoneWidth <= 390, `the phone fits a 390 px window: ${phoneWidth}`);
  ok(scrollWidth <= clientWidth, `the long word wraps inside the screen: ${scrollWidth} > ${clientWidth}`);
  equal(a["data-test-images"], "0", "no <img> from the snapshot");
  ok(a["data-test-ar"].includes("<U+202E>"), `the override is spelled out: ${a["data-test-ar"]}`);
  ok(a["data-test-ar"].includes("blank on device: no ar copy"), "the missing ar cta is marked");
});

test("a paywall page previews its offering's packages and its remote config in a phone frame", () => {
  const dir = path.join(seriesSite, "paywalls");
  const pages = fs.readdirSync(dir).filter((n) => n.endsWith(".html"));
  ok(pages.length > 0, "paywall pages");
  let withConfig = null;
  for (const name of pages) {
    const html = fs.readFileSync(path.join(dir, name), "utf8");
    ok(html.includes('<div class="preview paywall-preview"><div class="phone">'), `${name}: a phone preview`);
    if (html.includes("<code>remoteConfig.locale</code>")) withConfig = name;
  }
  ok(withConfig, "a paywall with a remote config");
  const a = withScript(seriesSite, `paywalls/${withConfig}`, "paywall", `
    (function () {
      var html = document.documentElement;
      var phone = document.querySelector(".paywall-preview .phone-screen");
      html.setAttribute("data-test-phone", phone ? phone.innerText.replace(/\\s+/g, " ") : "none");
      html.setAttribute("data-test-lang", phone ? phone.getAttribute("lang") || "" : "");
    })();
  `);
  ok(/App Store |Google Play |no store product/.test(a["data-test-phone"]), `packages in the phone: ${a["data-test-phone"]}`);
  ok(a["data-test-lang"] !== "", "the screen carries the remote config's locale");
});

run();
