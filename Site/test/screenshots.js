"use strict";
// Screenshots of one page of every kind of a built site, for a person to look at: desktop
// (1280 px wide), phone (390 px), each light and dark, whole pages (cut at 8,000 px), with an
// index.html listing them. The pages are picked as the accessibility gate picks them
// (lib/page-kinds.js: the fullest page of each kind).
//
//   node Site/test/screenshots.js <site> <out folder>
//   (or `make screenshots OUT=folder`, which builds the Examples series first)
//   env: CHROMIUM (default "chromium")
//
// <out folder> is created if missing; the PNGs and index.html in it are overwritten.

const fs = require("fs");
const path = require("path");
const { fileUrl } = require("./lib/browser");
const { Browser } = require("./lib/cdp");
const { pagePerKind } = require("./lib/page-kinds");

const [site, out] = process.argv.slice(2).map((p) => path.resolve(p));
if (!site || !out || !fs.existsSync(path.join(site, "index.html"))) {
  console.error("usage: node screenshots.js <site> <out folder> (a folder fallback-site built)");
  process.exit(2);
}

const VIEWS = [
  { name: "desktop", width: 1280, height: 900, mobile: false, scheme: "light" },
  { name: "desktop-dark", width: 1280, height: 900, mobile: false, scheme: "dark" },
  { name: "mobile", width: 390, height: 844, mobile: true, scheme: "light" },
  { name: "mobile-dark", width: 390, height: 844, mobile: true, scheme: "dark" },
];

function escapeHTML(s) {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

async function main() {
  fs.mkdirSync(out, { recursive: true });
  const kinds = pagePerKind(site);
  const browser = await Browser.launch();
  const rows = [];
  let problems = 0;
  try {
    const page = await browser.newPage();
    for (const { kind, page: file, pages } of kinds) {
      const shots = [];
      for (const view of VIEWS) {
        await page.open(fileUrl(path.join(site, file)), view);
        const name = `${kind.replace(/[^A-Za-z0-9_-]+/g, "_")}-${view.name}.png`;
        fs.writeFileSync(path.join(out, name), await page.screenshot());
        const errors = await page.evaluate(`document.documentElement.getAttribute("data-errors")`);
        const said = [...page.problems, ...(errors ? [`data-errors: ${errors}`] : [])];
        problems += said.length;
        shots.push({ view: view.name, name, said });
        console.log(`${name}  ${file}${said.length ? `  PROBLEMS: ${said.join("; ")}` : ""}`);
      }
      rows.push({ kind, file, pages, shots });
    }
  } finally {
    await browser.close();
  }
  const body = rows.map((r) => `<section><h2>${escapeHTML(r.kind)} <small>${escapeHTML(r.file)} (1 of ${r.pages})</small></h2>\n` +
    r.shots.map((s) => `<figure><a href="${escapeHTML(s.name)}"><img src="${escapeHTML(s.name)}" alt="${escapeHTML(`${r.kind}, ${s.view}`)}" loading="lazy"></a>` +
      `<figcaption>${escapeHTML(s.view)}${s.said.length ? ` — ${escapeHTML(s.said.join("; "))}` : ""}</figcaption></figure>`).join("\n") +
    "</section>").join("\n");
  fs.writeFileSync(path.join(out, "index.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Screenshots of ${escapeHTML(path.basename(site))}</title>
<style>body{font:14px system-ui,sans-serif;margin:1rem}figure{display:inline-block;vertical-align:top;margin:0 1rem 1rem 0}img{max-width:320px;max-height:480px;border:1px solid #888;object-fit:cover;object-position:top}small{font-weight:normal;color:#555}</style></head><body>
<h1>One page of every kind, desktop (1280 px) and phone (390 px), light and dark</h1>
<ul>${rows.map((r) => `<li>${escapeHTML(r.kind)}: ${escapeHTML(r.file)} — ${r.shots.map((s) => `<a href="${escapeHTML(s.name)}">${escapeHTML(s.view)}</a>`).join(", ")}</li>`).join("\n")}</ul>
${body}
</body></html>
`);
  console.log(`${rows.length} kinds, ${rows.length * VIEWS.length} screenshots, index: ${path.join(out, "index.html")}`);
  if (problems) {
    console.error(`${problems} problem(s) reported by the pages (see above)`);
    process.exitCode = 1;
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
