"use strict";
// The checks page at scale (issue 9 point 9), in headless Chromium on a site fallback-site built
// from Templates/: infos start collapsed, one group per rule; a permalink opens and marks its
// finding inside a collapsed group; ?severity= and ?rule= filter (from file://); every finding's
// rule id leads to the rule's page.
//
//   node Site/test/checks.test.js <site>
//   env: CHROMIUM (default "chromium")
//
// <site> must have findings of every severity, infos among them (run.sh uses the Examples
// folder built as a series: its newest snapshot, release 3.4, has 1 error, 1 warning, 7 infos).

const fs = require("fs");
const path = require("path");
const { test, run, equal, ok } = require("./lib/harness");
const { fileUrl, chromiumRuns, dump, attrs, tags, tagById, htmlAttrs, assertClean } = require("./lib/browser");

const site = path.resolve(process.argv[2] || "");
const checksPath = path.join(site, "checks.html");
if (!process.argv[2] || !fs.existsSync(checksPath)) {
  console.error("usage: node checks.test.js <site> (a folder fallback-site built)");
  process.exit(2);
}
const source = fs.readFileSync(checksPath, "utf8");

/// Each rule group of `html`: its section's attributes, its <details> tag's, and its findings' ids.
function ruleGroups(html) {
  const groups = [];
  const re = /(<section class="rule-group"[^>]*>)([\s\S]*?)<\/details>\n<\/section>/g;
  let m;
  while ((m = re.exec(html))) {
    const details = tags(m[2], "details")[0];
    groups.push({
      section: attrs(m[1]),
      details: details ? attrs(details) : null,
      findings: tags(m[2], "li").map(attrs).filter((a) => (a.class || "").startsWith("finding ")),
    });
  }
  return groups;
}

function severitySections(html) {
  return tags(html, "section").map(attrs).filter((a) => a.class === "severity-group");
}

const sourceGroups = ruleGroups(source);
const severities = ["error", "warning", "info"];

test("the site has findings of every severity, infos among them", () => {
  for (const s of severities) ok(sourceGroups.some((g) => g.section["data-severity"] === s), `no ${s} group`);
});

test("one group per rule and severity, each with its heading and count; infos start collapsed", () => {
  const keys = sourceGroups.map((g) => g.section["data-severity"] + " " + g.section["data-rule"]);
  equal(new Set(keys).size, keys.length, "a rule appears twice within a severity");
  for (const g of sourceGroups) {
    const what = `${g.section["data-severity"]} ${g.section["data-rule"]}`;
    ok(g.details, `${what}: no <details>`);
    equal("open" in g.details, g.section["data-severity"] !== "info", `${what}: open`);
    ok(g.findings.length > 0, `${what}: no findings`);
    ok(g.findings.every((f) => f["data-rule"] === g.section["data-rule"]), `${what}: a finding of another rule`);
    const heading = tagById(source, g.section["aria-labelledby"]);
    ok(heading && heading.startsWith("<h3"), `${what}: no h3 heading`);
  }
  ok("hidden" in attrs(tagById(source, "checks-filter")), "the filter form is hidden without JS");
});

test("checks.html from file://: site.js keeps infos collapsed and shows the filters", () => {
  const r = dump(fileUrl(checksPath));
  assertClean(r, "checks.html");
  const groups = ruleGroups(r.dom);
  equal(groups.length, sourceGroups.length, "groups");
  for (const g of groups) {
    equal("open" in g.details, g.section["data-severity"] !== "info", `${g.section["data-rule"]}: open`);
    ok(!("hidden" in g.section), `${g.section["data-rule"]}: hidden with no filter`);
  }
  ok(!("hidden" in attrs(tagById(r.dom, "checks-filter"))), "the filter form is shown");
  const ruleSelect = r.dom.match(/<select id="checks-rule"[\s\S]*?<\/select>/)[0];
  const options = tags(ruleSelect, "option").map(attrs).map((o) => o.value).filter(Boolean);
  equal(options.join(" "), [...new Set(sourceGroups.map((g) => g.section["data-rule"]))].sort().join(" "), "rule options");
});

test("every finding has a permalink: an id and a labelled # link to it", () => {
  const ids = sourceGroups.flatMap((g) => g.findings.map((f) => f.id));
  equal(new Set(ids).size, ids.length, "ids repeat");
  for (const id of ids) {
    ok(/^f-[a-z0-9-]+-[0-9]+-[0-9]+-[0-9a-f]{10}(-[0-9]+)?$/.test(id), `id ${id}`);
    const link = tags(source, "a").map(attrs).find((a) => a.href === "#" + id);
    ok(link && link.class === "permalink" && /^Link to this /.test(link["aria-label"] || ""), `no labelled # link to ${id}`);
  }
});

test("a permalink into a collapsed group opens it and marks the finding", () => {
  const info = sourceGroups.find((g) => g.section["data-severity"] === "info");
  const id = info.findings[info.findings.length - 1].id;
  const r = dump(fileUrl(checksPath) + "#" + id);
  assertClean(r, "checks.html#" + id);
  equal(htmlAttrs(r.dom)["data-revealed"], id, "the finding site.js revealed");
  const group = ruleGroups(r.dom).find((g) => g.findings.some((f) => f.id === id));
  ok(group && "open" in group.details, "the group holding the permalinked finding is open");
  // The other info groups stay as they were.
  for (const g of ruleGroups(r.dom)) {
    if (g.section["data-rule"] !== group.section["data-rule"] && g.section["data-severity"] === "info") ok(!("open" in g.details), `${g.section["data-rule"]} opened too`);
  }
  // A permalink wins over a filter that would hide its finding.
  const hidden = dump(fileUrl(checksPath, "?severity=error") + "#" + id);
  const again = ruleGroups(hidden.dom).find((g) => g.findings.some((f) => f.id === id));
  ok(again && !("hidden" in again.section) && "open" in again.details, "a filtered-out permalinked finding is shown");
});

function expectFiltered(query, keep, what) {
  const r = dump(fileUrl(checksPath, query));
  assertClean(r, what);
  const groups = ruleGroups(r.dom);
  let shown = 0;
  for (const g of groups) {
    const want = keep(g.section);
    equal(!("hidden" in g.section), want, `${what}: ${g.section["data-severity"]} ${g.section["data-rule"]} shown`);
    if (want) shown += g.findings.length;
  }
  equal(htmlAttrs(r.dom)["data-checks-shown"], String(shown), `${what}: findings shown`);
  for (const s of severitySections(r.dom)) {
    const any = groups.some((g) => g.section["data-severity"] === s["data-severity"] && keep(g.section));
    equal(!("hidden" in s), any, `${what}: the ${s["data-severity"]} section shown`);
  }
  return { r, groups, shown };
}

test("?severity=error shows the errors only", () => {
  const { shown } = expectFiltered("?severity=error", (s) => s["data-severity"] === "error", "?severity=error");
  ok(shown > 0, "no error shown");
});

test("?severity=info shows the infos, opened", () => {
  const { groups } = expectFiltered("?severity=info", (s) => s["data-severity"] === "info", "?severity=info");
  ok(groups.filter((g) => g.section["data-severity"] === "info").every((g) => "open" in g.details), "the info groups are open");
});

test("?severity=error,warning and ?severity=warning&severity=error show the problems, not the infos", () => {
  for (const q of ["?severity=error,warning", "?severity=warning&severity=error"]) {
    const { groups } = expectFiltered(q, (s) => s["data-severity"] !== "info", q);
    ok(groups.filter((g) => g.section["data-severity"] === "info").every((g) => !("open" in g.details)), `${q}: infos stay collapsed`);
  }
});

test("?rule= shows that rule only, its group opened even when it is an info", () => {
  const info = sourceGroups.find((g) => g.section["data-severity"] === "info").section["data-rule"];
  const { groups } = expectFiltered("?rule=" + encodeURIComponent(info), (s) => s["data-rule"] === info, "?rule=" + info);
  ok(groups.filter((g) => g.section["data-rule"] === info).every((g) => "open" in g.details), "the chosen rule's group is open");
});

test("an unknown rule or severity in the URL is ignored, not an empty page", () => {
  expectFiltered("?rule=%22%3E%3Cscript%3E&severity=bogus", () => true, "hostile query");
});

test("a finding's rule id leads to the rule's page, which lists that finding under the same id", () => {
  const g = sourceGroups.find((x) => x.section["data-severity"] === "info");
  const finding = g.findings[0];
  const row = source.match(new RegExp(`<li [^>]*id="${finding.id}"[^>]*>[\\s\\S]*?</li>`))[0];
  const href = tags(row, "a").map(attrs).find((a) => a.class === "rule-link").href;
  equal(href, `rules/${finding["data-rule"]}.html`, "rule link");
  const rulePage = path.join(site, href);
  ok(fs.existsSync(rulePage), `${href} exists`);
  const r = dump(fileUrl(rulePage) + "#" + finding.id);
  assertClean(r, href);
  ok(r.dom.includes(`<code>${finding["data-rule"]}</code>`), "the page names the rule");
  ok(/On a first launch/.test(r.dom), "the page quotes the rule's documentation");
  ok(tags(r.dom, "li").map(attrs).some((a) => a.id === finding.id), "the page lists the finding under its id");
  const back = tags(r.dom, "a").map(attrs).find((a) => a.href === "../checks.html");
  ok(back, "the page links back to the checks page");
});

test("every rule page of the site exists and every finding on every page links to one", () => {
  const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === "assets" ? [] : walk(path.join(dir, e.name))) : e.name.endsWith(".html") ? [path.join(dir, e.name)] : []);
  let links = 0;
  for (const page of walk(site)) {
    const html = fs.readFileSync(page, "utf8");
    for (const row of html.match(/<li class="finding [^\n]*/g) || []) {
      const rule = attrs(row.match(/^<li[^>]*>/)[0])["data-rule"];
      const link = tags(row, "a").map(attrs).find((a) => a.class === "rule-link");
      ok(link, `${path.relative(site, page)}: ${rule} has no rule link`);
      equal(path.resolve(path.dirname(page), link.href), path.join(site, "rules", rule + ".html"), "rule link target");
      ok(fs.existsSync(path.resolve(path.dirname(page), link.href)), `${link.href} exists`);
      links++;
    }
  }
  ok(links > 0, "no finding links found");
});

run().then(() => console.log(`# ${chromiumRuns()} Chromium runs`));
