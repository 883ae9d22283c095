"use strict";
// The kinds of page a built site has, found from its files, and one page of each: what the
// accessibility gate (axe.test.js) and the screenshots (screenshots.js) visit, so a page kind
// added to the site is covered without editing either.
//
// A page's kind comes from its path: a page in a folder is of that folder's kind
// ("placements", "funnels", "rules", "history/pairs", …); a top-level page is its own kind, named
// by its file name with every run of digits read as N ("index", "index-N", "checks", "changes",
// "history", …). Of each kind the page with the most content (the largest file; ties by path) is
// picked, so the sample shows the kind at its fullest. Hidden names and the assets folder are
// not pages.

const fs = require("fs");
const path = require("path");

/// Every .html file under `site`, as paths relative to it with "/" separators, sorted.
function sitePages(site) {
  const out = [];
  const walk = (dir, rel) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!rel && entry.name === "assets") continue;
        walk(path.join(dir, entry.name), relPath);
      } else if (entry.isFile() && entry.name.endsWith(".html")) {
        out.push(relPath);
      }
    }
  };
  walk(site, "");
  return out.sort();
}

/// The kind of the page at `relPath` (relative to the site's root, "/" separators).
function pageKind(relPath) {
  const slash = relPath.lastIndexOf("/");
  if (slash >= 0) return relPath.slice(0, slash);
  return relPath.replace(/\.html$/, "").replace(/[0-9]+/g, "N");
}

/// One page per kind of `site`: [{ kind, page, pages }] sorted by kind, where `page` is the
/// chosen page (relative path) and `pages` how many pages the kind has.
function pagePerKind(site) {
  const kinds = new Map();
  for (const page of sitePages(site)) {
    const kind = pageKind(page);
    const size = fs.statSync(path.join(site, page)).size;
    const seen = kinds.get(kind);
    if (!seen) kinds.set(kind, { kind, page, size, pages: 1 });
    else {
      seen.pages++;
      if (size > seen.size) Object.assign(seen, { page, size });
    }
  }
  return [...kinds.values()].sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0))
    .map(({ kind, page, pages }) => ({ kind, page, pages }));
}

/// The largest page of `kind` in `site` whose HTML contains `marker` (relative path), or null.
function largestPageWith(site, kind, marker) {
  let best = null;
  for (const page of sitePages(site)) {
    if (pageKind(page) !== kind) continue;
    const html = fs.readFileSync(path.join(site, page), "utf8");
    if (html.includes(marker) && (!best || html.length > best.size)) best = { page, size: html.length };
  }
  return best ? best.page : null;
}

module.exports = { sitePages, pageKind, pagePerKind, largestPageWith };
