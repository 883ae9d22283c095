/*
 * fallback-site theme script.
 *
 * Every page loads this file with `defer`. It must work:
 *   - opened from disk (file://), no server, no network;
 *   - under the pages' CSP: no inline script or style, no eval, no `style=` (this file only
 *     toggles attributes and classes, and builds SVG nodes with geometry attributes);
 *   - not at all: every page is complete without it (filters and the lookup form stay `hidden`);
 *   - from Node without a DOM (`require("Site/assets/site.js")`) for the pure functions.
 *
 * Public API: window.FallbackSite (and module.exports under Node)
 *   bucket(subscriberId, key)      -> Promise<number>   §5 bucket, 0..9999
 *   variantIndex(bucket, weights)  -> number | null     §5 draw; weights: numbers or JSON number text
 *   bucketRanges(weights)          -> [{start, end} | null]  buckets each variant draws (end inclusive)
 *   roundHalfAwayFromZero(x)       -> number
 *   parseWeight(text)              -> number            a data-weight value as the 64-bit float it names
 *   sha256(bytes)                  -> Uint8Array        pure-JS fallback when Web Crypto is missing
 */
(function () {
  "use strict";

  var BUCKET_COUNT = 10000;

  // ---------------------------------------------------------------------------------------------
  // Pure functions (§5 of fallback-format.md)
  // ---------------------------------------------------------------------------------------------

  /** Round half away from zero, as Swift's `.rounded()` and Rust's `f64::round`.
   *  JS `Math.round` rounds half toward +Infinity (Math.round(-2.5) === -2), so round the
   *  magnitude and put the sign back. `Math.round` of a non-negative double is exact. */
  function roundHalfAwayFromZero(x) {
    if (x !== x || x === Infinity || x === -Infinity) return x;
    return x < 0 ? -Math.round(-x) : Math.round(x);
  }

  /** A weight from `data-weight` to a 64-bit float. The site writes there the weight the SDK
   *  reads (fallback-format.md §2.1: step by step, not correctly rounded, so not always what
   *  JSON.parse makes of the file's text) as its shortest round-tripping text, which `parseFloat`
   *  reads back to exactly that double. Numbers pass through. */
  function parseWeight(w) {
    if (typeof w === "number") return w;
    return parseFloat(String(w));
  }

  /** Index of the variant a bucket draws, or null when there are no variants.
   *  Walk in order with cum += weight * 10000; the first with bucket < round(cum) wins;
   *  otherwise the LAST variant. */
  function variantIndex(bucket, weights) {
    if (!weights || weights.length === 0) return null;
    var cum = 0;
    for (var i = 0; i < weights.length; i++) {
      cum += parseWeight(weights[i]) * BUCKET_COUNT;
      if (bucket < roundHalfAwayFromZero(cum)) return i;
    }
    return weights.length - 1;
  }

  /** For each variant, the contiguous bucket range it draws ({start, end}, end inclusive), or
   *  null when it draws none. Variant i draws b when b < round(cum_i) and no earlier variant
   *  did, i.e. max(round(cum_j), j < i) <= b < round(cum_i); the last variant also takes every
   *  bucket no variant claimed. Agrees with variantIndex for every bucket (tested). */
  function bucketRanges(weights) {
    var n = weights ? weights.length : 0;
    var out = [];
    var cum = 0;
    var claimed = 0; // every bucket below this is taken by an earlier variant
    for (var i = 0; i < n; i++) {
      cum += parseWeight(weights[i]) * BUCKET_COUNT;
      var r = roundHalfAwayFromZero(cum);
      var end = i === n - 1 ? BUCKET_COUNT : Math.min(Math.max(r, claimed), BUCKET_COUNT);
      if (end !== end) end = claimed; // NaN weight: draws nothing
      out.push(end > claimed ? { start: claimed, end: end - 1 } : null);
      if (end > claimed) claimed = end;
    }
    return out;
  }

  function utf8(text) {
    if (typeof TextEncoder !== "undefined") return new TextEncoder().encode(text);
    // Very old engines: encodeURIComponent gives UTF-8 percent escapes (lone surrogates throw,
    // as they would have no UTF-8 form in the SDK either).
    var s = unescape(encodeURIComponent(text));
    var bytes = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
    return bytes;
  }

  /** SHA-256 (FIPS 180-4) in plain JS: used only when Web Crypto's `subtle` is unavailable
   *  (pages served over plain http from another host are not a secure context). */
  var K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
  ];

  function sha256(bytes) {
    var len = bytes.length;
    var padded = new Uint8Array(((len + 9 + 63) >> 6) << 6);
    padded.set(bytes);
    padded[len] = 0x80;
    var bitsHigh = Math.floor(len / 0x20000000); // len * 8 / 2^32
    var bitsLow = (len << 3) >>> 0;
    var view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, bitsHigh, false);
    view.setUint32(padded.length - 4, bitsLow, false);

    var h0 = 0x6a09e667, h1 = 0xbb67ae85, h2 = 0x3c6ef372, h3 = 0xa54ff53a;
    var h4 = 0x510e527f, h5 = 0x9b05688c, h6 = 0x1f83d9ab, h7 = 0x5be0cd19;
    var w = new Array(64);
    for (var off = 0; off < padded.length; off += 64) {
      for (var t = 0; t < 16; t++) w[t] = view.getUint32(off + t * 4, false);
      for (t = 16; t < 64; t++) {
        var x = w[t - 15], y = w[t - 2];
        var s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
        var s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
      }
      var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7;
      for (t = 0; t < 64; t++) {
        var S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
        var ch = (e & f) ^ (~e & g);
        var t1 = (h + S1 + ch + K[t] + w[t]) | 0;
        var S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
        var maj = (a & b) ^ (a & c) ^ (b & c);
        var t2 = (S0 + maj) | 0;
        h = g; g = f; f = e; e = (d + t1) | 0;
        d = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      h0 = (h0 + a) | 0; h1 = (h1 + b) | 0; h2 = (h2 + c) | 0; h3 = (h3 + d) | 0;
      h4 = (h4 + e) | 0; h5 = (h5 + f) | 0; h6 = (h6 + g) | 0; h7 = (h7 + h) | 0;
    }
    var out = new Uint8Array(32);
    var ov = new DataView(out.buffer);
    [h0, h1, h2, h3, h4, h5, h6, h7].forEach(function (v, i) { ov.setUint32(i * 4, v >>> 0, false); });
    return out;
  }

  function subtleCrypto() {
    var c = typeof globalThis !== "undefined" ? globalThis.crypto
      : (typeof self !== "undefined" ? self.crypto : undefined);
    return c && c.subtle && typeof c.subtle.digest === "function" ? c.subtle : null;
  }

  function bucketFromDigest(digest) {
    var d = new Uint8Array(digest);
    var head = ((d[0] << 24) | (d[1] << 16) | (d[2] << 8) | d[3]) >>> 0; // uint32, big-endian
    return head % BUCKET_COUNT;
  }

  /** §5: uint32_big_endian(sha256(utf8(subscriberId + ":" + key))[0..4]) % 10000.
   *  Web Crypto when available (file:// is a secure context), else the JS fallback. */
  function bucket(subscriberId, key) {
    var bytes;
    try {
      bytes = utf8(String(subscriberId) + ":" + String(key));
    } catch (e) {
      return Promise.reject(e);
    }
    var subtle = subtleCrypto();
    if (subtle) {
      return subtle.digest("SHA-256", bytes).then(bucketFromDigest, function () {
        return bucketFromDigest(sha256(bytes));
      });
    }
    return Promise.resolve(bucketFromDigest(sha256(bytes)));
  }

  var api = {
    BUCKET_COUNT: BUCKET_COUNT,
    bucket: bucket,
    variantIndex: variantIndex,
    bucketRanges: bucketRanges,
    roundHalfAwayFromZero: roundHalfAwayFromZero,
    parseWeight: parseWeight,
    sha256: sha256
  };

  if (typeof module !== "undefined" && module.exports) module.exports = api;
  if (typeof window !== "undefined") window.FallbackSite = api;
  if (typeof document === "undefined") return;

  // ---------------------------------------------------------------------------------------------
  // Problem log: CSP violations, script and resource errors land in <html data-errors="…">
  // (one entry per problem, " | " between) so a headless `--dump-dom` can see them.
  // ---------------------------------------------------------------------------------------------

  var root = document.documentElement;
  var seenProblems = {};

  function recordProblem(text) {
    if (seenProblems[text]) return;
    seenProblems[text] = true;
    var prev = root.getAttribute("data-errors");
    root.setAttribute("data-errors", prev ? prev + " | " + text : text);
  }

  function cspText(directive, blocked, source, line) {
    return "CSP " + directive + " blocked " + (blocked || "inline") +
      (source ? " (" + source + (line ? ":" + line : "") + ")" : "");
  }

  document.addEventListener("securitypolicyviolation", function (e) {
    recordProblem(cspText(e.effectiveDirective || e.violatedDirective, e.blockedURI,
      e.sourceFile, e.lineNumber));
  }, true);

  // Violations that happened while the page parsed, before this deferred script ran: the
  // buffered Reporting API replays them (Chromium); the attribute scan below catches the rest.
  if (typeof ReportingObserver === "function") {
    try {
      new ReportingObserver(function (reports) {
        reports.forEach(function (r) {
          var b = r.body || {};
          recordProblem(cspText(b.effectiveDirective, b.blockedURL, b.sourceFile, b.lineNumber));
        });
      }, { types: ["csp-violation"], buffered: true }).observe();
    } catch (e) { /* not supported: the scan still runs */ }
  }

  window.addEventListener("error", function (e) {
    var t = e.target;
    if (t && t !== window && t.nodeType === 1) {
      // A resource failed (capture phase sees <img>/<link>/<script> load errors).
      recordProblem("failed to load <" + t.nodeName.toLowerCase() + "> " +
        (t.currentSrc || t.src || t.href || ""));
    } else {
      recordProblem("script error: " + (e.message || "unknown") +
        (e.filename ? " (" + e.filename + ":" + e.lineno + ")" : ""));
    }
  }, true);

  window.addEventListener("unhandledrejection", function (e) {
    var r = e.reason;
    recordProblem("unhandled rejection: " + (r && r.message ? r.message : String(r)));
  });

  function scanForInlineCode() {
    var styled = document.querySelectorAll("[style]").length;
    if (styled) recordProblem("contract: " + styled + " element(s) with a style attribute (blocked by CSP)");
    var inline = 0;
    Array.prototype.forEach.call(document.scripts, function (s) {
      if (!s.src && s.type !== "application/json" && s.type !== "application/ld+json") inline++;
    });
    if (inline) recordProblem("contract: " + inline + " inline <script> element(s) (blocked by CSP)");
    if (document.querySelector("style")) recordProblem("contract: <style> element (blocked by CSP)");
    var handlers = document.querySelectorAll("[onclick],[onload],[onerror],[onchange],[oninput],[onsubmit]");
    if (handlers.length) recordProblem("contract: " + handlers.length + " inline event handler(s) (blocked by CSP)");
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers
  // ---------------------------------------------------------------------------------------------

  function $(id) { return document.getElementById(id); }

  function params() {
    try { return new URLSearchParams(window.location.search); } catch (e) { return null; }
  }

  /** Put the page's state into its own URL so it can be shared. file: URLs allow changing the
   *  query in Chromium and Firefox; where the browser refuses, nothing happens. */
  function replaceQuery(updates) {
    try {
      var url = new URL(window.location.href);
      Object.keys(updates).forEach(function (k) {
        var v = updates[k];
        if (v === null || v === undefined || v === "") url.searchParams.delete(k);
        else url.searchParams.set(k, v);
      });
      if (url.href !== window.location.href) window.history.replaceState(null, "", url.href);
    } catch (e) { /* history API refused (opaque origin): the page works the same */ }
  }

  function debounce(fn, ms) {
    var timer = null;
    return function () {
      var self = this, args = arguments;
      if (timer) clearTimeout(timer);
      timer = setTimeout(function () { timer = null; fn.apply(self, args); }, ms);
    };
  }

  function el(name, className, text) {
    var node = document.createElement(name);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function formatNumber(n) {
    // 10000 → "10,000" in en-US; keep it locale-stable (pages are lang="en").
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }

  // ---------------------------------------------------------------------------------------------
  // Overview: search and filters
  // ---------------------------------------------------------------------------------------------

  function initFilters() {
    var table = $("placements");
    var filters = $("filters");
    if (!table || !filters) return;
    var search = $("placement-search");
    var kind = $("filter-kind");
    var severity = $("filter-severity");
    var status = $("filter-status");
    var body = table.tBodies[0];
    if (!body) return;
    var rows = Array.prototype.slice.call(body.rows).filter(function (r) {
      return r.hasAttribute("data-kind") || r.hasAttribute("data-search");
    });

    var q = params();
    if (q) {
      if (search && q.has("q")) search.value = q.get("q");
      if (kind && q.has("kind")) selectValue(kind, q.get("kind"));
      if (severity && q.has("severity")) selectValue(severity, q.get("severity"));
    }

    function selectValue(select, value) {
      for (var i = 0; i < select.options.length; i++) {
        if (select.options[i].value === value) { select.value = value; return; }
      }
    }

    function apply(updateUrl) {
      var text = search ? search.value.toLowerCase().trim() : "";
      var tokens = text ? text.split(/\s+/) : [];
      var k = kind ? kind.value : "all";
      var s = severity ? severity.value : "all";
      var shown = 0;
      rows.forEach(function (row) {
        var hay = (row.getAttribute("data-search") || row.textContent || "").toLowerCase();
        var ok = (k === "all" || row.getAttribute("data-kind") === k) &&
          (s === "all" || row.getAttribute("data-severity") === s) &&
          tokens.every(function (t) { return hay.indexOf(t) !== -1; });
        if (ok) { row.hidden = false; shown++; } else { row.hidden = true; }
      });
      table.classList.toggle("is-filtered", shown !== rows.length);
      root.setAttribute("data-filter-shown", String(shown));
      if (status) {
        status.textContent = shown + " of " + rows.length + " placement" + (rows.length === 1 ? "" : "s") +
          (shown === 0 ? " match. Clear the search or filters to see them all." : "");
      }
      if (updateUrl) {
        replaceQuery({
          q: search ? search.value : "",
          kind: k === "all" ? "" : k,
          severity: s === "all" ? "" : s
        });
      }
    }

    var applyLater = debounce(function () { apply(true); }, 120);
    if (search) {
      search.addEventListener("input", applyLater);
      search.addEventListener("keydown", function (e) {
        if (e.key === "Escape" && search.value) { search.value = ""; apply(true); e.preventDefault(); }
      });
      // "/" belongs to the header's site search (see "Site search" below), on every page.
    }
    if (kind) kind.addEventListener("change", function () { apply(true); });
    if (severity) severity.addEventListener("change", function () { apply(true); });
    var form = filters.closest ? filters.closest("form") : null;
    if (form) form.addEventListener("submit", function (e) { e.preventDefault(); apply(true); });

    filters.hidden = false;
    apply(false);
  }

  // ---------------------------------------------------------------------------------------------
  // Checks at scale (issue 9 point 9): filters by severity and rule, and finding permalinks.
  //   ?severity=error,warning&rule=goto-unknown  (severity may also repeat) selects what shows;
  //   #f-…  opens the collapsed group holding that finding and scrolls it into view.
  // ---------------------------------------------------------------------------------------------

  var SEVERITIES = ["error", "warning", "info"];

  /** The severities `value` lists (`error,warning`), in catalogue order; all when it names none. */
  function checksSeverities(value) {
    var wanted = SEVERITIES.filter(function (s) {
      return String(value || "").toLowerCase().split(",").some(function (v) { return v.trim() === s; });
    });
    return wanted.length ? wanted : SEVERITIES.slice();
  }

  function initChecksFilter() {
    var form = $("checks-filter");
    if (!form) return;
    var severity = $("checks-severity");
    var select = $("checks-rule");
    // History you can walk (issue 9 point 8): new / still present against the snapshot before.
    var findingStatus = $("checks-finding-status");
    var status = form.querySelector(".filter-status");
    var groups = Array.prototype.slice.call(document.querySelectorAll(".rule-group[data-rule]"));
    var sections = Array.prototype.slice.call(document.querySelectorAll(".severity-group"));

    function countOf(group) { return group.querySelectorAll(".finding").length; }

    // One option per rule that has findings, sorted, written as text (never markup).
    var counts = {};
    groups.forEach(function (g) {
      var rule = g.getAttribute("data-rule");
      counts[rule] = (counts[rule] || 0) + countOf(g);
    });
    Object.keys(counts).sort().forEach(function (rule) {
      var option = el("option", null, rule + " (" + formatNumber(counts[rule]) + ")");
      option.value = rule;
      select.appendChild(option);
    });

    /** Selects the option of `select` whose value is `value`; false when there is none. */
    function choose(select, value) {
      for (var i = 0; i < select.options.length; i++) {
        if (select.options[i].value === value) { select.value = value; return true; }
      }
      return false;
    }

    // ?severity=error,warning (or repeated: severity=error&severity=warning), &rule=ID; values
    // the page has no option for are ignored.
    var q = params();
    if (q) {
      var asked = checksSeverities(q.getAll("severity").join(","));
      if (asked.length !== SEVERITIES.length) choose(severity, asked.join(","));
      if (q.has("rule") && Object.prototype.hasOwnProperty.call(counts, q.get("rule"))) choose(select, q.get("rule"));
      if (findingStatus && q.has("status")) choose(findingStatus, q.get("status"));
    }

    function apply(updateUrl) {
      var wanted = checksSeverities(severity.value);
      var rule = select.value;
      // Asked for by name (a rule, or infos alone), a group is opened, whatever its severity.
      var openShown = !!rule || severity.value === "info";
      var shownGroups = 0, shownFindings = 0, total = 0;
      var wantedStatus = findingStatus ? findingStatus.value : "";
      groups.forEach(function (g) {
        total += countOf(g);
        // Findings of another status are hidden one by one; a group with none left is hidden.
        var n = 0;
        Array.prototype.forEach.call(g.querySelectorAll(".finding"), function (f) {
          var shown = !wantedStatus || f.getAttribute("data-status") === wantedStatus;
          f.hidden = !shown;
          if (shown) n++;
        });
        var ok = n > 0 && wanted.indexOf(g.getAttribute("data-severity")) !== -1 && (!rule || g.getAttribute("data-rule") === rule);
        g.hidden = !ok;
        if (ok) {
          shownGroups++;
          shownFindings += n;
          if (openShown) { var d = g.querySelector("details"); if (d) d.open = true; }
        }
      });
      sections.forEach(function (s) { s.hidden = !s.querySelector(".rule-group:not([hidden])"); });
      root.setAttribute("data-checks-shown", String(shownFindings));
      if (status) {
        status.textContent = shownFindings === total ? "Showing all " + formatNumber(total) + " findings." :
          "Showing " + formatNumber(shownFindings) + " of " + formatNumber(total) + " findings" +
          (shownGroups === 0 ? ": none of this rule at this severity. Choose All severities or All rules." : ".");
      }
      if (updateUrl) replaceQuery(findingStatus ? { severity: severity.value, rule: rule, status: wantedStatus } : { severity: severity.value, rule: rule });
    }

    severity.addEventListener("change", function () { apply(true); });
    select.addEventListener("change", function () { apply(true); });
    if (findingStatus) findingStatus.addEventListener("change", function () { apply(true); });
    form.addEventListener("submit", function (e) { e.preventDefault(); apply(true); });
    form.hidden = false;
    apply(false);
    // Reveal a permalinked finding even when the query's filters hide it.
    revealTarget();
  }

  /** Open every closed <details> around the element the URL's hash names, show it if a filter
   *  hid it, and scroll it into view: a permalink always lands on its finding. */
  function revealTarget() {
    var hash = window.location.hash;
    if (!hash || hash.length < 2) return;
    var id;
    try { id = decodeURIComponent(hash.slice(1)); } catch (e) { id = hash.slice(1); }
    var target = document.getElementById(id);
    if (!target) return;
    var changed = false;
    // A finding the status filter hid (issue 9 point 8) is shown too.
    if (target.hidden && target.classList && target.classList.contains("finding")) { target.hidden = false; changed = true; }
    for (var node = target.parentNode; node && node !== document; node = node.parentNode) {
      if (node.nodeName && node.nodeName.toLowerCase() === "details" && !node.open) { node.open = true; changed = true; }
      if (node.hidden && node.classList && (node.classList.contains("rule-group") || node.classList.contains("severity-group"))) {
        node.hidden = false;
        changed = true;
      }
    }
    if (changed && target.scrollIntoView) target.scrollIntoView({ block: "start" });
    root.setAttribute("data-revealed", id);
  }

  function initPermalinks() {
    if (!$("checks-filter")) revealTarget();
    window.addEventListener("hashchange", revealTarget);
  }

  // ---------------------------------------------------------------------------------------------
  // Overview: sortable columns (issue 9, point 10)
  // ---------------------------------------------------------------------------------------------
  // A header with data-sort gets a <button>: a click (or Enter/Space) sorts the rows by that
  // column, ascending first, then toggles; aria-sort says which column and which way. The page's
  // own order, problems first, is the "descending" order of the Findings column; every other
  // order breaks ties by it, so sorting is deterministic and the filters keep working.

  var SEVERITY_RANK = { error: 2, warning: 1 };

  function initSorting() {
    var table = $("placements");
    if (!table || !table.tHead || !table.tBodies[0]) return;
    var body = table.tBodies[0];
    var headers = Array.prototype.slice.call(table.tHead.querySelectorAll("th[data-sort]"));
    if (!headers.length) return;
    var rows = Array.prototype.slice.call(body.rows).map(function (row, index) {
      var cells = row.cells;
      var revision = cells.length ? parseInt(cells[cells.length - 1].textContent, 10) : NaN;
      return {
        row: row,
        index: index,
        key: cells.length ? cells[0].textContent : "",
        kind: row.getAttribute("data-kind") || "",
        severity: SEVERITY_RANK[row.getAttribute("data-severity")] || 0,
        revision: isNaN(revision) ? -1 : revision
      };
    });

    function compare(column) {
      switch (column) {
        case "key": return function (a, b) { return a.key < b.key ? -1 : a.key > b.key ? 1 : 0; };
        case "kind": return function (a, b) { return a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0; };
        case "severity": return function (a, b) { return a.severity - b.severity; };
        case "revision": return function (a, b) { return a.revision - b.revision; };
        default: return function () { return 0; };
      }
    }

    function sortBy(th, direction) {
      var by = compare(th.getAttribute("data-sort"));
      var sign = direction === "descending" ? -1 : 1;
      var sorted = rows.slice().sort(function (a, b) { return sign * by(a, b) || a.index - b.index; });
      var fragment = document.createDocumentFragment();
      sorted.forEach(function (r) { fragment.appendChild(r.row); });
      body.appendChild(fragment);
      headers.forEach(function (h) {
        if (h === th) h.setAttribute("aria-sort", direction); else h.removeAttribute("aria-sort");
      });
    }

    headers.forEach(function (th) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort-button";
      while (th.firstChild) button.appendChild(th.firstChild);
      th.appendChild(button);
      button.addEventListener("click", function () {
        sortBy(th, th.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending");
      });
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Experiment pages (issue 9, point 7): the bucket marker's label and the lookup's copy link.
  // The label sits under the allocation bar at the subscriber's bucket ("bucket 4,213 of 10,000 →
  // variant b"); the link is an ordinary <a href="?subscriber=…"> (what to copy by hand when the
  // clipboard refuses) with a "Copy link" button beside it. Positioned through the CSSOM, which the
  // CSP's style-src 'self' allows (no style attribute is written).
  // ---------------------------------------------------------------------------------------------

  function lookupURL(id) {
    try {
      var url = new URL(window.location.href);
      url.hash = "";
      url.searchParams.set("subscriber", id);
      return url.href;
    } catch (e) {
      return "?subscriber=" + encodeURIComponent(id);
    }
  }

  function copyText(text) {
    if (navigator.clipboard && typeof navigator.clipboard.writeText === "function") {
      return navigator.clipboard.writeText(text).catch(function () { return copyBySelection(text); });
    }
    return copyBySelection(text);
  }

  function copyBySelection(text) {
    return new Promise(function (resolve, reject) {
      var area = el("textarea", "visually-hidden");
      area.value = text;
      area.setAttribute("readonly", "");
      area.setAttribute("aria-hidden", "true");
      document.body.appendChild(area);
      area.select();
      var copied = false;
      try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
      document.body.removeChild(area);
      if (copied) resolve(); else reject(new Error("the browser refused to copy"));
    });
  }

  function removeLookupExtras() {
    Array.prototype.forEach.call(document.querySelectorAll(".alloc-marker-label, .lookup-share"), function (node) {
      node.parentNode.removeChild(node);
    });
  }

  function showMarkerLabel(b, variantText) {
    var bar = document.querySelector(".alloc .alloc-bar");
    if (!bar || !bar.parentNode) return;
    var label = el("p", "alloc-marker-label",
      "bucket " + formatNumber(b) + " of " + formatNumber(BUCKET_COUNT) + " \u2192 " + variantText);
    var percent = (b + 0.5) * 100 / BUCKET_COUNT;
    label.style.left = percent + "%";
    if (percent < 15) label.classList.add("is-start");
    else if (percent > 85) label.classList.add("is-end");
    bar.parentNode.insertBefore(label, bar.nextSibling);
  }

  function showCopyLink(output, id) {
    var url = lookupURL(id);
    var share = el("p", "lookup-share");
    var link = el("a", "lookup-link", "Link to this lookup");
    link.href = url;
    var button = el("button", "copy-link", "Copy link");
    button.type = "button";
    button.setAttribute("data-url", url);
    var status = el("span", "copy-status");
    status.setAttribute("role", "status");
    button.addEventListener("click", function () {
      copyText(url).then(function () {
        status.textContent = "Link copied.";
      }, function () {
        status.textContent = "Could not copy: copy the link beside the button instead.";
      });
    });
    share.appendChild(link);
    share.appendChild(document.createTextNode(" "));
    share.appendChild(button);
    share.appendChild(document.createTextNode(" "));
    share.appendChild(status);
    // After the <output>, not in it: its live region announces the result, not the controls.
    output.parentNode.insertBefore(share, output.nextSibling);
  }

  // ---------------------------------------------------------------------------------------------
  // Experiment: subscriber lookup
  // ---------------------------------------------------------------------------------------------

  var SVG_NS = "http://www.w3.org/2000/svg";

  function initLookup() {
    var form = $("lookup");
    if (!form) return;
    var input = $("subscriber-id");
    var output = $("lookup-result");
    var table = $("variants");
    var key = form.getAttribute("data-experiment-key");
    if (!input || !output || key === null) return;

    var rows = table && table.tBodies[0]
      ? Array.prototype.slice.call(table.tBodies[0].rows).filter(function (r) {
        return r.hasAttribute("data-weight");
      })
      : [];
    var weights = rows.map(function (r) { return r.getAttribute("data-weight"); });
    var ids = rows.map(function (r) { return r.getAttribute("data-variant-id"); });
    var ranges = bucketRanges(weights);
    var bars = Array.prototype.slice.call(document.querySelectorAll(".alloc-bar"));
    var generation = 0;

    function clearMarks() {
      rows.forEach(function (r) { r.classList.remove("is-drawn"); r.removeAttribute("aria-current"); });
      bars.forEach(function (bar) {
        bar.classList.remove("has-drawn");
        Array.prototype.forEach.call(bar.querySelectorAll(".alloc-segment.is-drawn"), function (s) {
          s.classList.remove("is-drawn");
        });
        Array.prototype.forEach.call(bar.querySelectorAll(".alloc-marker"), function (m) {
          m.parentNode.removeChild(m);
        });
      });
      output.removeAttribute("data-bucket");
      output.removeAttribute("data-variant-id");
      output.removeAttribute("data-variant-index");
      removeLookupExtras();
    }

    function markBars(b, index) {
      bars.forEach(function (bar) {
        var vb = bar.viewBox && bar.viewBox.baseVal;
        var segments = bar.querySelectorAll(".alloc-segment");
        if (segments[index]) { segments[index].classList.add("is-drawn"); bar.classList.add("has-drawn"); }
        if (!vb || !vb.width) return;
        var x = vb.x + (b + 0.5) * vb.width / BUCKET_COUNT;
        var line = document.createElementNS(SVG_NS, "line");
        line.setAttribute("class", "alloc-marker");
        line.setAttribute("x1", String(x));
        line.setAttribute("x2", String(x));
        line.setAttribute("y1", String(vb.y));
        line.setAttribute("y2", String(vb.y + vb.height));
        bar.appendChild(line);
      });
    }

    function show(id) {
      var mine = ++generation;
      clearMarks();
      output.classList.remove("is-error");
      if (id === "") {
        output.textContent = "";
        output.classList.remove("has-result");
        return Promise.resolve();
      }
      return bucket(id, key).then(function (b) {
        if (mine !== generation) return;
        var index = variantIndex(b, weights);
        output.textContent = "";
        output.classList.add("has-result");
        output.setAttribute("data-bucket", String(b));
        var line = el("span", "lookup-line");
        line.appendChild(document.createTextNode("Bucket "));
        line.appendChild(el("strong", "lookup-bucket", String(b)));
        line.appendChild(document.createTextNode(" of " + formatNumber(BUCKET_COUNT) + " "));
        if (index === null) {
          line.appendChild(document.createTextNode("draws nothing: this experiment has no variants, so nothing is served."));
          output.appendChild(line);
          showCopyLink(output, id);
          return;
        }
        var vid = ids[index] === null ? "#" + (index + 1) : ids[index];
        output.setAttribute("data-variant-id", vid);
        output.setAttribute("data-variant-index", String(index));
        line.appendChild(document.createTextNode("draws variant "));
        var name = el("strong", "lookup-variant");
        name.appendChild(el("span", "swatch v" + (index % 8)));
        // The id as the page shows it (data-variant-id spells out control characters), isolated.
        name.appendChild(el("bdi", null, vid));
        line.appendChild(name);
        var range = ranges[index];
        line.appendChild(document.createTextNode(range
          ? " (buckets " + range.start + "\u2013" + range.end + ")."
          : "."));
        output.appendChild(line);
        if (id !== id.trim()) {
          output.appendChild(el("span", "lookup-note",
            "The id has leading or trailing spaces; they are hashed too, as the SDK would."));
        }
        if (rows[index]) {
          rows[index].classList.add("is-drawn");
          rows[index].setAttribute("aria-current", "true");
        }
        markBars(b, index);
        showMarkerLabel(b, "variant " + vid);
        showCopyLink(output, id);
      }, function (err) {
        if (mine !== generation) return;
        output.classList.add("is-error");
        output.textContent = "Could not compute the bucket: " + (err && err.message ? err.message : String(err));
      });
    }

    var showLater = debounce(function () {
      show(input.value);
      replaceQuery({ subscriber: input.value });
    }, 200);

    form.addEventListener("submit", function (e) {
      e.preventDefault();
      show(input.value);
      replaceQuery({ subscriber: input.value });
    });
    input.addEventListener("input", showLater);
    form.addEventListener("reset", function () {
      setTimeout(function () { show(""); replaceQuery({ subscriber: "" }); }, 0);
    });

    form.hidden = false;
    var p = params();
    if (p && p.has("subscriber")) {
      input.value = p.get("subscriber");
      // Submit through the form, as a user would: the same code path, and it must not navigate.
      if (typeof form.requestSubmit === "function") form.requestSubmit();
      else show(input.value);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Scrollable regions: make a table or drawing that overflows reachable by keyboard.
  // (Templates may already give .table-wrap tabindex="0"; this adds it only when needed.)
  // ---------------------------------------------------------------------------------------------

  function initScrollRegions() {
    var regions = document.querySelectorAll(".table-wrap, .drawing-scroll, .chart-scroll, pre.source");
    function update() {
      Array.prototype.forEach.call(regions, function (r) {
        var overflows = r.scrollWidth > r.clientWidth + 1;
        // Mobile (issue 9, point 11): the stylesheet shows a "scroll sideways" hint on it.
        if (overflows) r.setAttribute("data-overflows", "");
        else r.removeAttribute("data-overflows");
        if (overflows && !r.hasAttribute("tabindex")) {
          r.setAttribute("tabindex", "0");
          r.setAttribute("data-tabindex-added", "");
        } else if (!overflows && r.hasAttribute("data-tabindex-added")) {
          r.removeAttribute("tabindex");
          r.removeAttribute("data-tabindex-added");
        }
      });
    }
    update();
    window.addEventListener("resize", debounce(update, 150));
  }

  function checkImages() {
    // Images that failed before this deferred script could listen (a wrong {ROOT} path).
    Array.prototype.forEach.call(document.images, function (img) {
      if (img.complete && img.naturalWidth === 0 && img.getAttribute("src")) {
        recordProblem("failed to load <img> " + (img.currentSrc || img.src));
      }
    });
  }

  function checkStylesheet() {
    // site.css sets --site-css on :root; without it the page's {ROOT} path or the file is wrong.
    var probe = window.getComputedStyle ? getComputedStyle(root).getPropertyValue("--site-css") : "loaded";
    if (String(probe).trim() !== "loaded") recordProblem("site.css is not applied (check the stylesheet link)");
  }

  /* ---- snapshot ages --------------------------------------------------------------------------
     <time datetime="…" data-age> gets "· 3 days old" after it, measured when the page is viewed:
     the generated page itself carries no clock. */

  function describeAge(seconds) {
    var magnitude = Math.abs(seconds);
    var value, unit;
    if (magnitude < 3600) { value = Math.max(1, Math.floor(magnitude / 60)); unit = "minute"; }
    else if (magnitude < 86400) { value = Math.floor(magnitude / 3600); unit = "hour"; }
    else if (magnitude < 86400 * 60) { value = Math.floor(magnitude / 86400); unit = "day"; }
    else if (magnitude < 86400 * 730) { value = Math.floor(magnitude / (86400 * 30)); unit = "month"; }
    else { value = Math.floor(magnitude / (86400 * 365)); unit = "year"; }
    var text = value + " " + unit + (value === 1 ? "" : "s");
    return seconds >= 0 ? text + " old" : text + " in the future";
  }

  function initAges() {
    Array.prototype.forEach.call(document.querySelectorAll("time[data-age]"), function (time) {
      var then = Date.parse(time.getAttribute("datetime") || "");
      if (isNaN(then)) return;
      var age = el("span", "age", " · " + describeAge((Date.now() - then) / 1000));
      time.parentNode.insertBefore(age, time.nextSibling);
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Site search (issue 9, point 2): the header's box over assets/search-index.js, a script that
  // assigns self.fallbackSearchIndex = {kinds, pages, targets: [[page, label]],
  // entries: [[kind, text, target, anchor?]]} (the format is documented in SearchIndex.swift). It is loaded on first use with <script src> (the CSP allows the site's
  // own scripts; file:// forbids fetching JSON). Every result is built with textContent.
  // ---------------------------------------------------------------------------------------------

  var SEARCH_LIMIT = 50;
  var SEARCH_SNIPPET = 80;

  /** The entries of `index` whose text contains `query` (case-insensitive), best first: an exact
   *  match, then a prefix, then a substring; then by kind (the index's order), then index order.
   *  Returns {total, results: [{kind, text, label, path, at}]} with at most `limit` results. */
  function searchEntries(index, query, limit) {
    var q = String(query || "").trim().toLowerCase();
    if (!q || !index || !index.entries) return { total: 0, results: [] };
    var entries = index.entries;
    if (!index.lower) index.lower = entries.map(function (e) { return String(e[1]).toLowerCase(); });
    var matches = [];
    for (var i = 0; i < entries.length; i++) {
      var text = index.lower[i];
      var at = text.indexOf(q);
      if (at < 0) continue;
      matches.push({ rank: text === q ? 0 : at === 0 ? 1 : 2, kind: entries[i][0], i: i, at: at });
    }
    matches.sort(function (a, b) { return a.rank - b.rank || a.kind - b.kind || a.i - b.i; });
    var results = matches.slice(0, limit === undefined ? SEARCH_LIMIT : limit).map(function (m) {
      var e = entries[m.i];
      var target = index.targets[e[2]];
      var anchor = e.length > 3 ? "#" + (e[3] === 1 ? "page-" + e[1] : e[3]) : "";
      return { kind: index.kinds[e[0]], text: e[1], label: target[1], path: index.pages[target[0]] + anchor, at: m.at };
    });
    return { total: matches.length, results: results };
  }

  /** The part of `text` around a match at `at` (`length` long), at most SEARCH_SNIPPET characters. */
  function searchSnippet(text, at, length) {
    if (text.length <= SEARCH_SNIPPET) return text;
    var start = Math.max(0, Math.min(at - 20, text.length - SEARCH_SNIPPET));
    start = Math.max(0, Math.min(start, at));
    var end = Math.min(text.length, Math.max(start + SEARCH_SNIPPET, at + length));
    return (start > 0 ? "…" : "") + text.slice(start, end) + (end < text.length ? "…" : "");
  }

  api.searchEntries = searchEntries;
  api.searchSnippet = searchSnippet;

  /** The search box's controls, made here when the layout leaves them out, as the built-in one
      does: the box shows only with this script, and its controls written into every page were
      about 560 bytes of each (2% of the average page) that a page without script never shows.
      Each control is added only when no element has its id, so a layout that writes some or all
      of them keeps its own (and one that writes the input keeps its own label too). */
  function addSearchControls(box) {
    if (!$("site-search-input")) {
      var label = el("label", null, "Search");
      label.setAttribute("for", "site-search-input");
      var input = el("input");
      input.id = "site-search-input";
      input.type = "search";
      input.setAttribute("autocomplete", "off");
      input.setAttribute("spellcheck", "false");
      input.setAttribute("placeholder", "Placement, funnel, page, experiment, paywall, product\u2026");
      input.setAttribute("aria-describedby", "site-search-hint site-search-status");
      box.appendChild(label);
      box.appendChild(input);
    }
    if (!$("site-search-hint")) {
      var hint = el("span", "visually-hidden", "Press / to search; arrows and Enter to choose; Escape to close.");
      hint.id = "site-search-hint";
      box.appendChild(hint);
    }
    if (!$("site-search-status")) {
      var status = el("output");
      status.id = "site-search-status";
      status.setAttribute("for", "site-search-input");
      status.setAttribute("aria-live", "polite");
      box.appendChild(status);
    }
    if (!$("site-search-results")) {
      var list = el("ul", "site-search-results");
      list.id = "site-search-results";
      list.setAttribute("aria-label", "Search results");
      list.hidden = true;
      box.appendChild(list);
    }
  }

  function initSearch() {
    var box = document.querySelector(".site-search[data-search-index]");
    if (box) addSearchControls(box);
    var input = $("site-search-input");
    var list = $("site-search-results");
    var status = $("site-search-status");
    if (!box || !input || !list || !status) return;
    var siteRoot = box.getAttribute("data-search-root") || "";
    var loading = false;
    var failed = false;

    function index() { return window.fallbackSearchIndex; }

    function load() {
      if (index() || loading || failed) return;
      loading = true;
      status.textContent = "Loading the search index…";
      var script = document.createElement("script");
      script.src = box.getAttribute("data-search-index");
      script.onload = function () { loading = false; render(); };
      script.onerror = function () {
        loading = false;
        failed = true;
        // The problem log's capture listener records the failed <script>.
        status.textContent = "The search index (assets/search-index.js) could not be loaded.";
      };
      document.head.appendChild(script);
    }

    function close() {
      list.hidden = true;
      box.classList.remove("is-open");
    }

    function links() { return Array.prototype.slice.call(list.querySelectorAll("a")); }

    function render() {
      var query = input.value.trim();
      while (list.firstChild) list.removeChild(list.firstChild);
      if (!query) { status.textContent = ""; close(); return; }
      if (!index()) { load(); return; }
      var found = searchEntries(index(), query, SEARCH_LIMIT);
      found.results.forEach(function (result) {
        var item = el("li");
        var link = el("a");
        // Paths are the site's own relative file names; never a scheme.
        link.setAttribute("href", /^[a-z][a-z0-9+.-]*:/i.test(result.path) ? "#" : siteRoot + result.path);
        link.appendChild(el("span", "search-kind", result.kind + ": "));
        // The snippet with the matched part in <mark>, each part set as text.
        var snippet = searchSnippet(result.text, result.at, query.length);
        var text = el("bdi", "search-text");
        var at = snippet.toLowerCase().indexOf(query.toLowerCase());
        if (at < 0) {
          text.textContent = snippet;
        } else {
          text.appendChild(document.createTextNode(snippet.slice(0, at)));
          text.appendChild(el("mark", null, snippet.slice(at, at + query.length)));
          text.appendChild(document.createTextNode(snippet.slice(at + query.length)));
        }
        link.appendChild(text);
        link.appendChild(document.createTextNode(" → "));
        link.appendChild(el("bdi", "search-label", result.label));
        item.appendChild(link);
        list.appendChild(item);
      });
      var more = found.total - found.results.length;
      if (more > 0) list.appendChild(el("li", "search-more", formatNumber(more) + " more; type more to narrow the search"));
      if (found.total === 0) {
        status.textContent = "Nothing matches “" + query + "”.";
      } else {
        status.textContent = (more > 0 ? "The first " + found.results.length + " of " : "") + formatNumber(found.total) +
          " result" + (found.total === 1 ? "" : "s") + ".";
      }
      list.hidden = found.total === 0;
      box.classList.toggle("is-open", found.total > 0);
    }

    var renderLater = debounce(render, 80);
    input.addEventListener("input", function () { if (!index()) load(); renderLater(); });
    input.addEventListener("focus", function () { load(); if (input.value.trim() && list.firstChild) { list.hidden = false; box.classList.add("is-open"); } });
    input.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown") {
        var first = links()[0];
        if (first) {
          e.preventDefault();
          list.hidden = false; // reopened after Escape
          box.classList.add("is-open");
          first.focus();
        }
      } else if (e.key === "Enter") {
        e.preventDefault();
        if (index()) render(); // what is typed now, not what the debounce last saw
        var top = links()[0];
        if (top) top.click();
      } else if (e.key === "Escape") {
        if (!list.hidden) { e.preventDefault(); close(); }
        else if (input.value) { e.preventDefault(); input.value = ""; render(); }
      }
    });
    list.addEventListener("keydown", function (e) {
      var all = links();
      var at = all.indexOf(document.activeElement);
      if (e.key === "ArrowDown" && at >= 0 && at < all.length - 1) { e.preventDefault(); all[at + 1].focus(); }
      else if (e.key === "ArrowUp") { e.preventDefault(); if (at > 0) all[at - 1].focus(); else input.focus(); }
      else if (e.key === "Escape") { e.preventDefault(); input.focus(); close(); }
    });
    // A result on this very page (a funnel row) navigates without leaving it: close the list.
    list.addEventListener("click", function (e) {
      if (e.target && e.target.closest && e.target.closest("a")) close();
    });
    box.addEventListener("focusout", function (e) {
      if (!e.relatedTarget || !box.contains(e.relatedTarget)) close();
    });
    // "/" focuses the search from anywhere on the page (as on GitHub).
    input.setAttribute("aria-keyshortcuts", "/");
    document.addEventListener("keydown", function (e) {
      if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      var t = e.target;
      var tag = t && t.nodeName ? t.nodeName.toLowerCase() : "";
      if (tag === "input" || tag === "textarea" || tag === "select" || (t && t.isContentEditable)) return;
      e.preventDefault();
      input.focus();
      input.select();
    });
    box.hidden = false;
    // ?search=… opens the page with that search shown (a link to a search; the browser tests).
    var query = params();
    var initial = query ? query.get("search") : null;
    if (initial) {
      input.value = initial;
      if (index()) render(); else load();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Funnel graph (issue 9 point 5): zoom and the way on from a page.
  //   <figure class="funnel-drawing" data-graph> gets a toolbar (− / + / Fit) before its drawing.
  //   Fit (the default, and without script) scales the SVG to the figure's width; + and − set its
  //   width attribute (an attribute, not a style, so the CSP allows it) and let it scroll.
  //   Hovering or focusing a page box (a.fd-link[data-node]) marks its outgoing steps, their
  //   labels and priority beads, and the pages they lead to with .is-lit, the box with .is-origin,
  //   and the svg with .has-path so the stylesheet dims the rest: where a user can go from here.
  // ---------------------------------------------------------------------------------------------
  function initFunnelGraphs() {
    var figures = document.querySelectorAll("figure.funnel-drawing[data-graph]");
    Array.prototype.forEach.call(figures, function (figure) {
      var svg = figure.querySelector("svg.fd");
      if (!svg) return;
      var naturalWidth = parseFloat(svg.getAttribute("width")) || 0;
      var naturalHeight = parseFloat(svg.getAttribute("height")) || 0;
      if (naturalWidth <= 0 || naturalHeight <= 0) return;
      var scroller = figure.querySelector(".drawing-scroll");

      // Zoom: null is "fit to width".
      var zoom = null;
      var bar = document.createElement("div");
      bar.className = "fd-zoom";
      bar.setAttribute("role", "toolbar");
      bar.setAttribute("aria-label", "Zoom the page graph");
      function button(text, label, action) {
        var b = document.createElement("button");
        b.type = "button";
        b.textContent = text;
        b.setAttribute("aria-label", label);
        b.setAttribute("data-zoom-action", action);
        bar.appendChild(b);
        return b;
      }
      button("\u2212", "Zoom out", "out");
      button("+", "Zoom in", "in");
      button("Fit", "Fit to width", "fit");
      var status = document.createElement("output");
      status.className = "fd-zoom-status";
      status.setAttribute("aria-live", "polite");
      bar.appendChild(status);
      figure.insertBefore(bar, figure.firstChild);

      /** The drawing's scale as shown: its width on screen over its own width. */
      function scale() {
        var shown = svg.getBoundingClientRect().width;
        return shown > 0 ? shown / naturalWidth : 1;
      }
      function apply() {
        if (zoom === null) {
          figure.classList.remove("is-zoomed");
          svg.setAttribute("width", String(naturalWidth));
          svg.setAttribute("height", String(naturalHeight));
          figure.setAttribute("data-zoom", "fit");
        } else {
          figure.classList.add("is-zoomed");
          svg.setAttribute("width", String(Math.round(naturalWidth * zoom)));
          svg.setAttribute("height", String(Math.round(naturalHeight * zoom)));
          figure.setAttribute("data-zoom", String(Math.round(zoom * 100) / 100));
        }
        status.textContent = (zoom === null ? "Fit to width: " : "") + Math.round(scale() * 100) + "%";
        if (scroller) window.dispatchEvent(new Event("resize"));
      }
      bar.addEventListener("click", function (e) {
        var b = e.target && e.target.closest ? e.target.closest("button[data-zoom-action]") : null;
        if (!b) return;
        var action = b.getAttribute("data-zoom-action");
        var now = scale();
        if (action === "in") zoom = Math.min(4, now * 1.25);
        else if (action === "out") zoom = Math.max(0.2, now / 1.25);
        else zoom = null;
        apply();
      });
      apply();
      // A drawing that starts closed (a big funnel) has no size until it opens.
      var details = figure.closest("details");
      if (details) details.addEventListener("toggle", function () { if (details.open) apply(); });

      // The way on from a page: built once, so a hover is linear in what it lights.
      var leaving = {};
      Array.prototype.forEach.call(svg.querySelectorAll("[data-from]"), function (el) {
        var from = el.getAttribute("data-from");
        (leaving[from] = leaving[from] || []).push(el);
      });
      var lit = [];
      var current = null;
      function clear() {
        lit.forEach(function (el) { el.classList.remove("is-lit", "is-origin"); });
        lit = [];
        current = null;
        svg.classList.remove("has-path");
      }
      function light(nodeId) {
        if (nodeId === current) return;
        clear();
        current = nodeId;
        svg.classList.add("has-path");
        var origin = document.getElementById(nodeId);
        if (origin) { origin.classList.add("is-lit", "is-origin"); lit.push(origin); }
        (leaving[nodeId] || []).forEach(function (el) {
          el.classList.add("is-lit");
          lit.push(el);
          var target = document.getElementById(el.getAttribute("data-to") || "");
          if (target && !target.classList.contains("is-lit")) { target.classList.add("is-lit"); lit.push(target); }
        });
      }
      function nodeOf(target) {
        var link = target && target.closest ? target.closest("a.fd-link[data-node]") : null;
        return link ? link.getAttribute("data-node") : null;
      }
      svg.addEventListener("focusin", function (e) {
        var node = nodeOf(e.target);
        if (node) light(node);
      });
      svg.addEventListener("focusout", function (e) {
        if (!e.relatedTarget || !nodeOf(e.relatedTarget)) clear();
      });
      svg.addEventListener("mouseover", function (e) {
        var node = nodeOf(e.target);
        if (node) light(node);
      });
      svg.addEventListener("mouseleave", function () {
        var focused = nodeOf(document.activeElement);
        if (focused && svg.contains(document.activeElement)) light(focused);
        else clear();
      });
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Phone previews: locale switch (funnel pages, issue 9 point 4)
  //
  // Without script every locale's screen is a <details>, the default locale's open, so every
  // locale stays one click away. The switch (hidden until this runs) opens the chosen locale's
  // screen on every page and closes the others; it compares data-locale values as strings.
  // ---------------------------------------------------------------------------------------------

  function initPreviewSwitch() {
    var bars = document.querySelectorAll(".preview-switch");
    Array.prototype.forEach.call(bars, function (bar) {
      var section = bar.closest(".previews");
      if (!section) return;
      var buttons = bar.querySelectorAll("button[data-preview-locale]");
      function show(locale) {
        Array.prototype.forEach.call(buttons, function (button) {
          button.setAttribute("aria-pressed", button.getAttribute("data-preview-locale") === locale ? "true" : "false");
        });
        var screens = section.querySelectorAll("details.preview-screen");
        Array.prototype.forEach.call(screens, function (screen) {
          screen.open = screen.getAttribute("data-locale") === locale;
        });
        section.setAttribute("data-preview-locale", locale);
      }
      Array.prototype.forEach.call(buttons, function (button) {
        button.addEventListener("click", function () { show(button.getAttribute("data-preview-locale")); });
      });
      bar.hidden = false;
    });
  }

  function init() {
    root.classList.add("js");
    scanForInlineCode();
    checkStylesheet();
    checkImages();
    var steps = [initFilters, initSorting, initLookup, initScrollRegions, initAges, initChecksFilter, initPermalinks, initSearch, initFunnelGraphs, initPreviewSwitch];
    steps.forEach(function (step) {
      try { step(); } catch (e) { recordProblem("script error: " + (e && e.message ? e.message : String(e))); }
    });
    root.setAttribute("data-js", "ready");
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
