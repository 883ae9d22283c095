"use strict";
// A very small test runner shared by the Node tests under Site/test/.
// Each test prints "ok - name" or "not ok - name" (with the reason indented below); the last
// line is "RESULT passed=N failed=M", which run.sh adds up. The exit status is 1 on any failure.

const tests = [];

function test(name, fn) {
  tests.push({ name, fn });
}

class AssertionError extends Error {}

function fail(message) {
  throw new AssertionError(message);
}

function equal(actual, expected, what) {
  if (!Object.is(actual, expected)) {
    fail(`${what || "value"}: expected ${fmt(expected)}, got ${fmt(actual)}`);
  }
}

function ok(condition, message) {
  if (!condition) fail(message || "condition is false");
}

function fmt(v) {
  if (typeof v === "string") return JSON.stringify(v);
  if (Object.is(v, -0)) return "-0";
  return String(v);
}

async function run() {
  let passed = 0;
  let failed = 0;
  for (const t of tests) {
    try {
      await t.fn();
      passed++;
      console.log(`ok - ${t.name}`);
    } catch (e) {
      failed++;
      console.log(`not ok - ${t.name}`);
      const text = e instanceof AssertionError ? e.message : (e && e.stack) || String(e);
      for (const line of String(text).split("\n")) console.log(`    ${line}`);
    }
  }
  console.log(`RESULT passed=${passed} failed=${failed}`);
  process.exitCode = failed ? 1 : 0;
}

module.exports = { test, run, equal, ok, fail, fmt };
