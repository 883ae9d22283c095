"use strict";
// Page weight (issue 9's acceptance): the site of a 1,000-placement sample has no page over
// 1 MiB; and (issue 10) its average page is under 25 KB, every folder's average printed too. Node only, no browser: the tool writes the sample (`sample --placements 1000 --seed 2`,
// the same sample fallback-bench builds) and builds it, and every .html file is weighed. The
// figures (pages, average, heaviest, overview) are printed for the closing note; fallback-bench
// prints the same figures for a release build at any size (`--site-placements 10000`).
//
//   node Site/test/page-weight.test.js <fallback-site executable>

const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");
const { test, run, ok } = require("./lib/harness");
const { temporaryFolder } = require("./lib/browser");

const [tool] = process.argv.slice(2);
if (!tool || !fs.existsSync(tool)) {
  console.error("usage: node page-weight.test.js <fallback-site executable>");
  process.exit(2);
}

const LIMIT = 1024 * 1024;
// 25 KB read as 25,000 bytes, the stricter reading (fallback-bench reads it so too).
const AVERAGE_LIMIT = 25 * 1000;
const TMP = temporaryFolder();
const sample = path.join(TMP, "sample-1000.json");
const site = path.join(TMP, "site");

/// Every .html file under `folder`, with its size in bytes.
function htmlFiles(folder) {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".html")) found.push({ page: path.relative(folder, full), bytes: fs.statSync(full).size });
    }
  };
  walk(folder);
  return found;
}

const kb = (bytes) => (bytes / 1024).toFixed(1) + " KiB";

test("the site of a 1,000-placement sample has no page over 1 MiB and an average page under 25 KB", () => {
  execFileSync(tool, ["sample", "--placements", "1000", "--seed", "2", "--out", sample], { stdio: "pipe" });
  execFileSync(tool, ["build", sample, "--out", site, "--quiet"], { stdio: "pipe", maxBuffer: 64 * 1024 * 1024 });
  const pages = htmlFiles(site).sort((a, b) => b.bytes - a.bytes || (a.page < b.page ? -1 : 1));
  ok(pages.length > 1000, `expected more than 1,000 pages, found ${pages.length}`);
  const total = pages.reduce((sum, p) => sum + p.bytes, 0);
  const overview = pages.find((p) => p.page === "index.html");
  console.log(`# ${pages.length} pages, ${kb(total)} of HTML; average ${Math.round(total / pages.length)} bytes (${kb(total / pages.length)});` +
    ` heaviest ${pages[0].page} ${kb(pages[0].bytes)}; overview ${kb(overview ? overview.bytes : 0)}`);
  console.log("# heaviest five: " + pages.slice(0, 5).map((p) => `${p.page} ${kb(p.bytes)}`).join(", "));
  const folders = new Map();
  for (const p of pages) {
    const folder = p.page.includes(path.sep) ? p.page.split(path.sep)[0] + "/" : "(top)";
    const sum = folders.get(folder) || { pages: 0, bytes: 0 };
    folders.set(folder, { pages: sum.pages + 1, bytes: sum.bytes + p.bytes });
  }
  console.log("# by folder: " + [...folders].sort().map(([f, s]) => `${f} ${s.pages} pages, average ${kb(s.bytes / s.pages)}`).join("; "));
  const over = pages.filter((p) => p.bytes > LIMIT);
  ok(over.length === 0, `pages over 1 MiB: ${over.map((p) => `${p.page} (${kb(p.bytes)})`).join(", ")}`);
  ok(total / pages.length < AVERAGE_LIMIT, `the average page is ${Math.round(total / pages.length)} bytes, not under ${AVERAGE_LIMIT}`);
});

run();
