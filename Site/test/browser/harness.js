/* In-browser check of window.FallbackSite against the cross-language vectors.
 * run.sh generates vectors.js (window.FALLBACK_VECTORS = {full: {...}, parity: [...]}) from the
 * fixtures; this script runs every vector through the page's own Web Crypto and through the
 * pure-JS fallback, plus the rounding cases, and writes the outcome into the DOM for
 * `chromium --dump-dom`: <html data-harness="done" data-passed="N" data-failed="M">. */
(function () {
  "use strict";
  var root = document.documentElement;
  var failures = document.getElementById("failures");
  var summary = document.getElementById("summary");
  var passed = 0, failed = 0;

  function check(name, actual, expected) {
    if (Object.is(actual, expected)) { passed++; return; }
    failed++;
    var li = document.createElement("li");
    li.textContent = name + ": expected " + String(expected) + ", got " + String(actual);
    failures.appendChild(li);
  }

  function finish() {
    root.setAttribute("data-passed", String(passed));
    root.setAttribute("data-failed", String(failed));
    root.setAttribute("data-harness", "done");
    summary.textContent = passed + " passed, " + failed + " failed";
  }

  var FS = window.FallbackSite;
  var V = window.FALLBACK_VECTORS;
  if (!FS || !V) { failed++; check("FallbackSite and vectors present", false, true); finish(); return; }

  check("isSecureContext (file:// must be one, for Web Crypto)", window.isSecureContext, true);
  check("crypto.subtle present", !!(window.crypto && window.crypto.subtle), true);

  function viaFallback(id, key) {
    var d = FS.sha256(new TextEncoder().encode(id + ":" + key));
    return (((d[0] << 24) | (d[1] << 16) | (d[2] << 8) | d[3]) >>> 0) % 10000;
  }

  var jobs = [];
  V.full.cases.forEach(function (c, i) {
    jobs.push(FS.bucket(c.subscriberId, c.seed).then(function (b) {
      check("full[" + i + "] bucket", b, c.expectedBucket);
      check("full[" + i + "] fallback bucket", viaFallback(c.subscriberId, c.seed), c.expectedBucket);
      var idx = FS.variantIndex(b, c.weightTexts);
      check("full[" + i + "] variant", c.variants[idx].id, c.expectedVariantId);
    }));
  });
  V.parity.forEach(function (c, i) {
    jobs.push(FS.bucket(c.subscriberId, c.seed).then(function (b) {
      check("parity[" + i + "] bucket", b, c.bucket);
      check("parity[" + i + "] fallback bucket", viaFallback(c.subscriberId, c.seed), c.bucket);
    }));
  });

  var r = FS.roundHalfAwayFromZero;
  check("round(2.5)", r(2.5), 3);
  check("round(-2.5)", r(-2.5), -3);
  check("round(-0.5)", r(-0.5), -1);
  check("[0.00025, 0.99975] bucket 2", FS.variantIndex(2, ["0.00025", "0.99975"]), 0);
  check("[0.00025, 0.99975] bucket 3", FS.variantIndex(3, ["0.00025", "0.99975"]), 1);
  check("[50, 50] bucket 9999", FS.variantIndex(9999, ["50", "50"]), 0);
  check("[0.2, 0.3] bucket 9999", FS.variantIndex(9999, ["0.2", "0.3"]), 1);
  check("no variants", FS.variantIndex(0, []), null);

  Promise.all(jobs).then(function () {
    check("vectors checked", V.full.cases.length + V.parity.length, 44);
    finish();
  }, function (e) {
    check("no rejection", String(e), "none");
    finish();
  });
})();
