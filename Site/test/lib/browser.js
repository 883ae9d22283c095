"use strict";
// Headless Chromium and small DOM-text helpers, shared by the browser tests under Site/test/.
//
// Everything a test writes goes into temporary folders made here (`temporaryFolder()`), removed
// when the process exits. Chromium gets its own profile (--user-data-dir) and its own HOME, XDG
// folders and TMPDIR inside one of them, so it never touches ~/.config/chromium, ~/.cache or /tmp
// directly.

const fs = require("fs");
const os = require("os");
const path = require("path");
const nodeCrypto = require("crypto");
const { spawnSync } = require("child_process");
const { ok, equal } = require("./harness");

const CHROMIUM = process.env.CHROMIUM || "chromium";
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'";

const made = [];
process.on("exit", () => { for (const dir of made) fs.rmSync(dir, { recursive: true, force: true }); });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(128 + os.constants.signals[signal]));

function makeTemporaryFolder(parent) {
  const dir = fs.mkdtempSync(path.join(parent, "fst-"));
  made.push(dir);
  return dir;
}

let tmp = null;
/// The process's temporary folder (made on first use, removed at exit).
function temporaryFolder() {
  if (!tmp) tmp = makeTemporaryFolder(os.tmpdir());
  return tmp;
}

let scratch = null;
/// Chromium's profile, home and TMPDIR: a temporary folder with a short path, because Chromium
/// puts a Unix socket in its TMPDIR and socket paths are limited to about 100 bytes (a
/// macOS TMPDIR alone is about 50). Made in /tmp where there is one, removed at exit.
function chromiumScratch() {
  if (!scratch) {
    scratch = makeTemporaryFolder(fs.existsSync("/tmp") ? "/tmp" : os.tmpdir());
    for (const dir of ["h", "t"]) fs.mkdirSync(path.join(scratch, dir));
  }
  return scratch;
}

function fileUrl(p, query) {
  const u = new URL("file://");
  u.pathname = p;
  if (query) u.search = query;
  return u.href;
}

let runs = 0;
function chromiumRuns() { return runs; }

/// The environment and the leading flags of every headless Chromium the tests start (here and in
/// lib/cdp.js): home, XDG folders and TMPDIR in the scratch folder, the profile in `profile`.
function chromiumLaunch(profile) {
  const root = chromiumScratch();
  const home = path.join(root, "h");
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
    XDG_DATA_HOME: path.join(home, ".local", "share"),
    TMPDIR: path.join(root, "t"),
  };
  const flags = [
    "--no-sandbox", "--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
    "--disable-extensions", "--disable-dev-shm-usage", `--user-data-dir=${profile}`,
  ];
  return { env, flags };
}

/// Runs headless Chromium on `url` with a throwaway profile and home; returns its DOM (when
/// asked with --dump-dom), its log and its exit status.
function chromium(url, flags) {
  runs++;
  const launch = chromiumLaunch(path.join(chromiumScratch(), "p"));
  const args = [
    ...launch.flags, "--virtual-time-budget=3000", "--enable-logging=stderr", "--v=0",
    ...(flags || []), url,
  ];
  const r = spawnSync(CHROMIUM, args, { encoding: "utf8", timeout: 90000, maxBuffer: 64 << 20, env: launch.env });
  if (r.error) throw r.error;
  return { dom: r.stdout || "", log: r.stderr || "", status: r.status };
}

function dump(url, flags) {
  const r = chromium(url, [...(flags || []), "--dump-dom"]);
  ok(r.dom.includes("</html>"), `no DOM from Chromium for ${url} (exit ${r.status}):\n${r.log.slice(-2000)}`);
  return r;
}

// --- tiny DOM-text helpers (the serialisation Chromium dumps is regular) ---------------------

function attrs(tag) {
  const out = {};
  const re = /([^\s=<>"'\/]+)(?:="([^"]*)")?/g;
  const inner = tag.replace(/^<[a-zA-Z0-9-]+/, "").replace(/\/?>$/, "");
  let m;
  while ((m = re.exec(inner))) out[m[1]] = m[2] === undefined ? "" : decode(m[2]);
  return out;
}

function decode(s) {
  return s.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#39;/g, "'").replace(/&amp;/g, "&");
}

function tags(html, name) {
  return html.match(new RegExp(`<${name}(?=[\\s>])[^>]*>`, "g")) || [];
}

function tagById(html, id) {
  const m = html.match(new RegExp(`<[a-zA-Z0-9]+[^>]*\\sid="${id}"[^>]*>`));
  return m ? m[0] : null;
}

function innerById(html, name, id) {
  const m = html.match(new RegExp(`<${name}[^>]*\\sid="${id}"[^>]*>([\\s\\S]*?)</${name}>`));
  return m ? m[1] : null;
}

function text(html) {
  return decode(html.replace(/<[^>]+>/g, "")).replace(/\s+/g, " ").trim();
}

function htmlAttrs(dom) {
  const m = dom.match(/<html[^>]*>/);
  return m ? attrs(m[0]) : {};
}

function placementRows(html) {
  const body = html.match(/<table[^>]*id="placements"[^>]*>[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/);
  ok(body, "table#placements with a tbody");
  return tags(body[1], "tr").map(attrs);
}

function variantRows(html) {
  const body = html.match(/<table[^>]*id="variants"[^>]*>[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/);
  ok(body, "table#variants with a tbody");
  return tags(body[1], "tr").map(attrs);
}

/// No CSP violation, script error or failed load, in site.js's record or in Chromium's log.
function assertClean(r, what) {
  const a = htmlAttrs(r.dom);
  equal(a["data-errors"], undefined, `${what}: data-errors`);
  const csp = r.log.split("\n").filter((l) => l.includes("Content Security Policy"));
  ok(csp.length === 0, `${what}: Chromium logged a CSP violation:\n${csp.join("\n")}`);
  const uncaught = r.log.split("\n").filter((l) => /CONSOLE.*(Uncaught|Error)/.test(l));
  ok(uncaught.length === 0, `${what}: console errors:\n${uncaught.join("\n")}`);
}

/// The rows of the page's placements table that `predicate` keeps are shown, the others hidden,
/// and the status line counts them; `sourceRows` are the rows of the page as written.
function expectVisible(dom, sourceRows, predicate, what) {
  const rows = placementRows(dom);
  equal(rows.length, sourceRows.length, "row count");
  const want = sourceRows.map(predicate);
  const got = rows.map((r) => !("hidden" in r));
  const diff = rows.filter((r, i) => want[i] !== got[i]).map((r) => r["data-search"].split(" ")[0]);
  ok(diff.length === 0, `${what}: rows shown/hidden wrongly: ${diff.join(", ")}`);
  const n = want.filter(Boolean).length;
  const status = text(innerById(dom, "p", "filter-status") || "");
  ok(status.startsWith(`${n} of ${rows.length} placement`), `status "${status}" (want "${n} of ${rows.length} placements")`);
  ok(!("hidden" in attrs(tagById(dom, "filters"))), "the filters are shown");
  return n;
}

/// The §5 draw of `subscriberId` in experiment `key` with `weights` (as written), computed
/// independently of site.js: node:crypto for the hash, the rule written out again.
function expectedDraw(subscriberId, key, weights) {
  const d = nodeCrypto.createHash("sha256").update(subscriberId + ":" + key, "utf8").digest();
  const bucket = d.readUInt32BE(0) % 10000;
  let cum = 0;
  let index = weights.length - 1;
  for (let i = 0; i < weights.length; i++) {
    cum += parseFloat(weights[i]) * 10000;
    const mag = Math.abs(cum);
    const rounded = Math.sign(cum) * (mag - Math.floor(mag) >= 0.5 ? Math.floor(mag) + 1 : Math.floor(mag));
    if (bucket < rounded) { index = i; break; }
  }
  return { bucket, index };
}

/// The subscriber lookup on an experiment page shows `bucket` and `variantId` and marks that row.
function checkLookup(r, subscriberId, bucket, variantId, title) {
  ok(!("hidden" in attrs(tagById(r.dom, "lookup"))), "form#lookup shown");
  const out = attrs(tagById(r.dom, "lookup-result"));
  equal(out["data-bucket"], String(bucket), "output data-bucket");
  equal(out["data-variant-id"], variantId, "output data-variant-id");
  const shown = text(innerById(r.dom, "output", "lookup-result") || "");
  ok(shown.includes(`Bucket ${bucket}`) && shown.includes(variantId), `the result names the bucket and the variant: "${shown}"`);
  const rows = variantRows(r.dom);
  const drawn = rows.filter((row) => row["aria-current"] === "true");
  equal(drawn.length, 1, "rows with aria-current=true");
  equal(drawn[0]["data-variant-id"], variantId, "the drawn row");
  ok(/\bis-drawn\b/.test(drawn[0].class || ""), "the drawn row has class is-drawn");
  ok(/class="alloc-marker"/.test(r.dom), "a marker on the allocation bar");
  ok(r.dom.includes(`<title>${title}`), "still on the experiment page (the form did not navigate)");
  assertClean(r, `lookup ${subscriberId}`);
}

module.exports = {
  CHROMIUM, CSP, temporaryFolder, chromiumScratch, chromiumLaunch, fileUrl, chromium, chromiumRuns, dump,
  attrs, decode, tags, tagById, innerById, text, htmlAttrs, placementRows, variantRows,
  assertClean, expectVisible, expectedDraw, checkLookup,
};
