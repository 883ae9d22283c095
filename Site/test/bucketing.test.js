"use strict";
// §5 bucketing in site.js, checked from Node without a DOM.
//
//   node Site/test/bucketing.test.js <bucketing-vectors.json> <bucketing-parity-vectors.json>
//
// - every vector (12 with variants + 32 bucket-only = 44) through FallbackSite.bucket (Web Crypto,
//   globalThis.crypto.subtle) and variantIndex, with each weight as the site writes it into
//   data-weight: the SDK's value (§2.1), taken from number-reading-vectors.json (beside the vector
//   files), which the Swift tests check against the loader, the resolver and the site's output;
// - §2.1 itself: every value the site writes reads back to the SDK's exact double, and draws where
//   the SDK's step-by-step value and JSON.parse's correctly rounded one pick different variants;
// - the same 44 through the pure-JS SHA-256 fallback, and that fallback against node:crypto;
// - rounding edge cases: exact halves ([0.00025, 0.99975], [0.12345, 0.87655]) that tell
//   half-away-from-zero from half-to-even, negatives (roundHalfAwayFromZero directly: a
//   negative cum can never exceed a bucket, so variantIndex cannot tell them apart), [50, 50],
//   weights summing below 1, a zero weight, no variants;
// - bucketRanges agrees with variantIndex for every bucket, against an independent reference.

const fs = require("fs");
const path = require("path");
const nodeCrypto = require("crypto");
const { test, run, equal, ok } = require("./lib/harness");

const site = require(path.join(__dirname, "..", "assets", "site.js"));

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node bucketing.test.js <vectors.json>...");
  process.exit(2);
}

// §2.1 as the Swift side reads it: token -> { bits, siteWeight }, and draws with those weights.
const numberVectors = JSON.parse(fs.readFileSync(path.join(path.dirname(files[0]), "number-reading-vectors.json"), "utf8"));
const sdkNumbers = new Map(numberVectors.numbers.map((n) => [n.token, n]));

/** The IEEE 754 bit pattern of a double, as 16 hex digits. */
function bits(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return view.getBigUint64(0).toString(16).padStart(16, "0");
}

/** The weight the site writes into data-weight for a weight token of the file: the SDK's value. */
function siteWeight(token) {
  const n = sdkNumbers.get(token);
  if (!n || n.siteWeight === undefined) throw new Error(`no §2.1 vector for weight ${token}: add it to number-reading-vectors.json`);
  return n.siteWeight;
}

test("site.js loads without a DOM and exports the API", () => {
  for (const name of ["bucket", "variantIndex", "bucketRanges", "roundHalfAwayFromZero", "parseWeight", "sha256"]) {
    equal(typeof site[name], "function", `typeof ${name}`);
  }
  ok(globalThis.crypto && globalThis.crypto.subtle, "globalThis.crypto.subtle is available in this Node");
  equal(typeof globalThis.window, "undefined", "no window was created");
});

// ---------------------------------------------------------------------------------------------
// The 44 vectors
// ---------------------------------------------------------------------------------------------

/** The weights exactly as written in the file: the raw JSON number text of each "weight". */
function weightTexts(raw) {
  const texts = [];
  const re = /"weight"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;
  let m;
  while ((m = re.exec(raw))) texts.push(m[1]);
  return texts;
}

function bucketViaFallback(subscriberId, key) {
  const digest = site.sha256(new TextEncoder().encode(subscriberId + ":" + key));
  return (((digest[0] << 24) | (digest[1] << 16) | (digest[2] << 8) | digest[3]) >>> 0) % 10000;
}

let vectorCount = 0;
for (const file of files) {
  const raw = fs.readFileSync(file, "utf8");
  const data = JSON.parse(raw);
  const base = path.basename(file);
  if (Array.isArray(data)) {
    data.forEach((c, i) => {
      vectorCount++;
      test(`${base}[${i}] bucket(${JSON.stringify(c.subscriberId).slice(0, 40)}, ${JSON.stringify(c.seed)}) = ${c.bucket}`, async () => {
        equal(await site.bucket(c.subscriberId, c.seed), c.bucket, "bucket (Web Crypto)");
        equal(bucketViaFallback(c.subscriberId, c.seed), c.bucket, "bucket (JS SHA-256 fallback)");
      });
    });
  } else {
    const texts = weightTexts(raw);
    let t = 0;
    data.cases.forEach((c, i) => {
      vectorCount++;
      const mine = texts.slice(t, t + c.variants.length);
      t += c.variants.length;
      test(`${base} case ${i}: ${c.subscriberId} / ${c.seed} -> bucket ${c.expectedBucket}, variant ${c.expectedVariantId}`, async () => {
        equal(mine.length, c.variants.length, "weight texts found");
        const b = await site.bucket(c.subscriberId, c.seed);
        equal(b, c.expectedBucket, "bucket (Web Crypto)");
        equal(bucketViaFallback(c.subscriberId, c.seed), c.expectedBucket, "bucket (JS SHA-256 fallback)");
        const ids = c.variants.map((v) => v.id);
        const weights = mine.map(siteWeight);
        const drawn = site.variantIndex(b, weights);
        equal(ids[drawn], c.expectedVariantId, "variant from the site's weights " + JSON.stringify(weights));
        const r = site.bucketRanges(weights)[drawn];
        ok(r && r.start <= b && b <= r.end, `bucketRanges puts ${b} in the drawn variant's range`);
      });
    });
  }
}

test("all 44 cross-language vectors were read", () => {
  equal(vectorCount, 44, "vector count");
});

// ---------------------------------------------------------------------------------------------
// SHA-256 fallback vs node:crypto (padding boundaries, multi-block, non-ASCII)
// ---------------------------------------------------------------------------------------------

test("JS SHA-256 fallback matches node:crypto for lengths 0..300 and FIPS test strings", () => {
  const samples = [new Uint8Array(0), new TextEncoder().encode("abc"),
    new TextEncoder().encode("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")];
  let seed = 12345;
  for (let n = 0; n <= 300; n++) {
    const bytes = new Uint8Array(n);
    for (let i = 0; i < n; i++) { seed = (seed * 1103515245 + 12345) >>> 0; bytes[i] = seed >>> 24; }
    samples.push(bytes);
  }
  for (const bytes of samples) {
    const mine = Buffer.from(site.sha256(bytes)).toString("hex");
    const ref = nodeCrypto.createHash("sha256").update(bytes).digest("hex");
    equal(mine, ref, `sha256 of ${bytes.length} bytes`);
  }
  equal(Buffer.from(site.sha256(new TextEncoder().encode("abc"))).toString("hex"),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "FIPS 180-2 'abc'");
});

test("bucket() of random ids (fixed seed) agrees with node:crypto", async () => {
  // The same 200 ids on every run, so a failure can be reproduced.
  let seed = 20261201;
  const randomHex = (n) => Array.from({ length: n }, () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return (seed >>> 24).toString(16).padStart(2, "0");
  }).join("");
  for (let i = 0; i < 200; i++) {
    const id = "rov_" + randomHex(12) + (i % 7 === 0 ? "é🎉" : "");
    const key = "exp-" + (i % 13);
    const d = nodeCrypto.createHash("sha256").update(id + ":" + key, "utf8").digest();
    equal(await site.bucket(id, key), d.readUInt32BE(0) % 10000, `bucket(${id}, ${key})`);
  }
});

// ---------------------------------------------------------------------------------------------
// Rounding
// ---------------------------------------------------------------------------------------------

test("roundHalfAwayFromZero: halves go away from zero, for negatives too", () => {
  const r = site.roundHalfAwayFromZero;
  const cases = [
    [0.5, 1], [1.5, 2], [2.5, 3], [9997.5, 9998], [1234.5, 1235],
    [-0.5, -1], [-1.5, -2], [-2.5, -3], [-9997.5, -9998],   // Math.round gives -0, -1, -2, -9997
    [2.4999999999999996, 2], [-2.4999999999999996, -2],
    [0.49999999999999994, 0], [-0.49999999999999994, -0],
    [4503599627370495.5, 4503599627370496], [-4503599627370495.5, -4503599627370496],
    [3400.0000000000005, 3400], [0, 0], [-0, -0], [10000, 10000], [-7, -7],
  ];
  for (const [x, want] of cases) equal(r(x), want, `round(${x})`);
  ok(Math.round(-2.5) === -2, "sanity: JS Math.round(-2.5) is -2, which is why site.js does not use it bare");
});

test("[0.00025, 0.99975]: cum 2.5 rounds to 3 (half-to-even would give 2)", () => {
  const w = ["0.00025", "0.99975"];
  equal(0.00025 * 10000, 2.5, "0.00025 * 10000 is exactly 2.5");
  equal(site.variantIndex(0, w), 0, "bucket 0");
  equal(site.variantIndex(2, w), 0, "bucket 2");
  equal(site.variantIndex(3, w), 1, "bucket 3");
  equal(site.variantIndex(9999, w), 1, "bucket 9999");
  const ranges = site.bucketRanges(w);
  equal(JSON.stringify(ranges), JSON.stringify([{ start: 0, end: 2 }, { start: 3, end: 9999 }]), "ranges");
});

test("[0.99975, 0.00025]: cum 9997.5 rounds to 9998", () => {
  const w = ["0.99975", "0.00025"];
  equal(site.variantIndex(9997, w), 0, "bucket 9997");
  equal(site.variantIndex(9998, w), 1, "bucket 9998");
  equal(site.variantIndex(9999, w), 1, "bucket 9999");
});

test("[0.12345, 0.87655]: cum 1234.5 rounds to 1235 (half-to-even would give 1234)", () => {
  const w = ["0.12345", "0.87655"];
  equal(site.variantIndex(1234, w), 0, "bucket 1234");
  equal(site.variantIndex(1235, w), 1, "bucket 1235");
});

test("[0.34, 0.33, 0.33]: cum 3400.0000000000005 still rounds to 3400", () => {
  const w = ["0.34", "0.33", "0.33"];
  equal(site.variantIndex(3399, w), 0, "bucket 3399");
  equal(site.variantIndex(3400, w), 1, "bucket 3400");
  equal(site.variantIndex(6699, w), 1, "bucket 6699");
  equal(site.variantIndex(6700, w), 2, "bucket 6700");
});

test("negative weights: a negative cum never draws; later variants still compare against cum", () => {
  equal(site.variantIndex(0, ["-0.00025", "1"]), 1, "[-0.00025, 1] bucket 0 (cum -2.5 -> -3)");
  equal(site.variantIndex(0, ["-0.5", "0.7", "0.8"]), 1, "[-0.5, 0.7, 0.8] bucket 0");
  equal(site.variantIndex(1999, ["-0.5", "0.7", "0.8"]), 1, "bucket 1999 (cum 2000)");
  equal(site.variantIndex(2000, ["-0.5", "0.7", "0.8"]), 2, "bucket 2000");
  equal(site.variantIndex(4999, ["0.5", "-0.3", "0.8"]), 0, "[0.5, -0.3, 0.8] bucket 4999");
  equal(site.variantIndex(5000, ["0.5", "-0.3", "0.8"]), 2, "bucket 5000 skips the negative variant");
  equal(site.bucketRanges(["0.5", "-0.3", "0.8"])[1], null, "the negative variant draws no bucket");
  equal(site.variantIndex(9999, ["-1", "-1"]), 1, "all negative: the last variant");
});

test("[50, 50] (percentages by mistake): every bucket draws the first variant", () => {
  for (const b of [0, 1, 5000, 9999]) equal(site.variantIndex(b, ["50", "50"]), 0, `bucket ${b}`);
  equal(site.bucketRanges(["50", "50"])[1], null, "the second variant draws nothing");
});

test("weights summing below 1: the remaining buckets go to the last variant", () => {
  const w = ["0.2", "0.3"];
  equal(site.variantIndex(1999, w), 0, "bucket 1999");
  equal(site.variantIndex(2000, w), 1, "bucket 2000");
  equal(site.variantIndex(4999, w), 1, "bucket 4999 (cum 5000)");
  equal(site.variantIndex(5000, w), 1, "bucket 5000 (past every cum: the last variant)");
  equal(site.variantIndex(9999, w), 1, "bucket 9999");
  equal(site.variantIndex(9999, ["0.1", "0.1", "0.1"]), 2, "0.3 in total, bucket 9999");
  equal(JSON.stringify(site.bucketRanges(w)), JSON.stringify([{ start: 0, end: 1999 }, { start: 2000, end: 9999 }]), "ranges");
});

test("a zero weight gets no buckets; no variants draw nothing", () => {
  equal(site.variantIndex(0, ["0", "1"]), 1, "[0, 1] bucket 0");
  equal(site.variantIndex(0, ["1", "0"]), 0, "[1, 0] bucket 0");
  equal(site.variantIndex(9999, ["1", "0"]), 0, "[1, 0] bucket 9999");
  equal(site.bucketRanges(["1", "0"])[1], null, "[1, 0]: the zero weight draws nothing");
  equal(site.variantIndex(0, []), null, "no variants");
  equal(site.variantIndex(0, null), null, "null weights");
  equal(site.variantIndex(1234, ["0.0"]), 0, "a single variant with weight 0 still draws (the last)");
});

// ---------------------------------------------------------------------------------------------
// §2.1: the SDK's step-by-step value, not JSON.parse's
// ---------------------------------------------------------------------------------------------

test("every data-weight the site writes reads back to the SDK's exact double", () => {
  let count = 0;
  for (const n of numberVectors.numbers) {
    if (n.siteWeight === undefined) continue;
    count++;
    equal(bits(site.parseWeight(n.siteWeight)), n.bits, `parseWeight(${n.siteWeight}) for the token ${n.token}`);
  }
  ok(count >= 50, `${count} values checked`);
});

test("the vectors tell the SDK's reading from JSON.parse's", () => {
  const differing = numberVectors.numbers.filter((n) => n.bits !== undefined && bits(JSON.parse(n.token)) !== n.bits);
  ok(differing.length >= 5, `${differing.length} tokens that JSON.parse reads as another double`);
  for (const n of differing) equal(bits(JSON.parse(n.token)), n.correctlyRounded, `JSON.parse(${n.token}) is the correctly rounded value`);
});

for (const d of numberVectors.draws) {
  test(`draw ${JSON.stringify(d.weights)} at bucket ${d.bucket}: variant ${d.variant}, as the Swift resolver draws`, async () => {
    equal(await site.bucket(d.subscriberId, d.key), d.bucket, "bucket");
    equal(JSON.stringify(d.siteWeights), JSON.stringify(d.weights.map(siteWeight)), "the site's weights");
    equal(site.variantIndex(d.bucket, d.siteWeights), d.variant, "variant from the site's weights");
    const r = site.bucketRanges(d.siteWeights)[d.variant];
    ok(r && r.start <= d.bucket && d.bucket <= r.end, "bucketRanges agrees");
    // Drawing with the file's text as JSON.parse reads it would give this instead:
    equal(site.variantIndex(d.bucket, d.weights.map((w) => JSON.parse(w))), d.variantIfCorrectlyRounded, "variant if correctly rounded");
  });
}

test("some draws change with the reading (else the draws above could not fail on JSON.parse)", () => {
  ok(numberVectors.draws.filter((d) => d.variant !== d.variantIfCorrectlyRounded).length >= 2, "at least two");
});

// An independent reference for §5, written differently: exact halves detected by comparing the
// fraction, each variant's set found by brute force over all 10000 buckets.
function referenceIndex(bucket, weights) {
  if (weights.length === 0) return null;
  let cum = 0;
  for (let i = 0; i < weights.length; i++) {
    cum += Number(weights[i]) * 10000;
    const mag = Math.abs(cum);
    const fl = Math.floor(mag);
    const rounded = (mag - fl >= 0.5 ? fl + 1 : fl) * (cum < 0 ? -1 : 1);
    if (bucket < rounded) return i;
  }
  return weights.length - 1;
}

test("variantIndex and bucketRanges match a reference over all buckets for 300 weight sets", () => {
  let seed = 99;
  const rnd = () => { seed = (seed * 1664525 + 1013904223) >>> 0; return seed / 4294967296; };
  const pools = [
    () => (Math.round(rnd() * 10000) / 10000).toString(),            // 0.xxxx
    () => (Math.round(rnd() * 100000) / 100000).toString(),          // 0.xxxxx: exact halves
    () => (rnd() < 0.2 ? "-" : "") + (rnd()).toPrecision(3),         // some negatives
    () => ["0", "0.5", "1", "50", "0.25", "0.00025", "0.99975"][Math.floor(rnd() * 7)],
  ];
  for (let s = 0; s < 300; s++) {
    const n = 1 + Math.floor(rnd() * 5);
    const pool = pools[s % pools.length];
    const w = Array.from({ length: n }, pool);
    const ranges = site.bucketRanges(w);
    for (let b = 0; b < 10000; b++) {
      const want = referenceIndex(b, w);
      const got = site.variantIndex(b, w);
      if (got !== want) equal(got, want, `variantIndex(${b}, ${JSON.stringify(w)})`);
      const r = ranges[got];
      if (!(r && r.start <= b && b <= r.end)) {
        ok(false, `bucketRanges(${JSON.stringify(w)}) = ${JSON.stringify(ranges)} misses bucket ${b} of variant ${got}`);
      }
    }
  }
});

run();
