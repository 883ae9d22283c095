"use strict";
// WCAG 2.x contrast of the theme's colour tokens, light and dark.
//
//   node Site/test/contrast.test.js
//
// Reads the custom properties of site.css's first `:root { … }` block (light) and of the
// `@media (prefers-color-scheme: dark) { :root { … } }` block (dark: light values it does not
// override carry over), then checks every foreground/background pair the stylesheet actually
// uses: 4.5:1 for text, 3:1 for large text and for non-text UI (borders of inputs, focus ring,
// drawing strokes, allocation segments, swatches).

const fs = require("fs");
const path = require("path");
const { test, run, ok } = require("./lib/harness");

const css = fs.readFileSync(path.join(__dirname, "..", "assets", "site.css"), "utf8");

function block(from) {
  const open = css.indexOf("{", from);
  let depth = 0;
  for (let i = open; i < css.length; i++) {
    if (css[i] === "{") depth++;
    else if (css[i] === "}" && --depth === 0) return css.slice(open + 1, i);
  }
  throw new Error("unbalanced braces");
}

function vars(text) {
  const out = {};
  const re = /(--[a-z0-9-]+)\s*:\s*(#[0-9a-fA-F]{3,8})\s*;/g;
  let m;
  while ((m = re.exec(text))) out[m[1]] = m[2];
  return out;
}

const light = vars(block(css.indexOf(":root")));
const darkMedia = css.indexOf("@media (prefers-color-scheme: dark)");
const dark = Object.assign({}, light, vars(block(css.indexOf(":root", darkMedia))));

function rgb(hex) {
  let h = hex.slice(1);
  if (h.length === 3) h = h.split("").map((c) => c + c).join("");
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255);
}

function luminance(hex) {
  const [r, g, b] = rgb(hex).map((c) => (c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4)));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function ratio(a, b) {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

const TEXT = 4.5;
const LARGE = 3; // large or bold text ≥ 18.66px, and non-text UI components / graphics

// [foreground, background, minimum, where]
const pairs = [
  // body text
  ["--fg", "--bg", TEXT, "body text"],
  ["--fg", "--bg-subtle", TEXT, "text on header, table head, listings, lookup"],
  ["--fg", "--bg-muted", TEXT, "inline code"],
  ["--fg-muted", "--bg", TEXT, "muted text"],
  ["--fg-muted", "--bg-subtle", TEXT, "table head labels, line numbers"],
  ["--fg-muted", "--bg-muted", TEXT, "muted text on code/hover"],
  ["--link", "--bg", TEXT, "links"],
  ["--link", "--bg-subtle", TEXT, "links on subtle backgrounds, row hover"],
  ["--link", "--error-bg", TEXT, "link inside an error notice"],
  ["--link", "--warning-bg", TEXT, "link inside a warning notice"],
  ["--link", "--info-bg", TEXT, "link inside an info notice / drawn row"],
  ["--link", "--ok-bg", TEXT, "link inside an ok notice"],
  ["--fg", "--error-bg", TEXT, "notice text (error)"],
  ["--fg", "--warning-bg", TEXT, "notice text (warning)"],
  ["--fg", "--info-bg", TEXT, "notice text (info), drawn variant row"],
  ["--fg", "--ok-bg", TEXT, "notice text (ok)"],
  ["--fg", "--mark-bg", TEXT, "marked source line"],
  ["--fg-muted", "--info-bg", TEXT, "muted text in the drawn row"],
  ["--bg", "--link", TEXT, "primary button label"],
  // severities
  ["--error-fg", "--error-bg", TEXT, "error badge"],
  ["--warning-fg", "--warning-bg", TEXT, "warning badge"],
  ["--info-fg", "--info-bg", TEXT, "info badge"],
  ["--ok-fg", "--ok-bg", TEXT, "no-findings badge"],
  ["--error-fg", "--bg", TEXT, "error text, skipped badge, stat"],
  ["--warning-fg", "--bg", TEXT, "warning stat"],
  ["--info-fg", "--bg", TEXT, "info stat"],
  ["--ok-fg", "--bg", TEXT, "ok stat"],
  ["--error-fg", "--bg-subtle", TEXT, "lookup error"],
  ["--warning-fg", "--bg-subtle", TEXT, "lookup note"],
  // target kinds
  ["--kind-funnel-fg", "--kind-funnel-bg", TEXT, "funnel badge"],
  ["--kind-experiment-fg", "--kind-experiment-bg", TEXT, "experiment badge"],
  ["--kind-paywall-fg", "--kind-paywall-bg", TEXT, "paywall badge"],
  ["--kind-nothing-fg", "--kind-nothing-bg", TEXT, "nothing badge"],
  // source listing tokens, on the listing and on marked lines
  ...["--tok-key", "--tok-string", "--tok-number", "--tok-literal", "--fg-muted"].flatMap((t) =>
    ["--bg-subtle", "--mark-bg", "--error-bg", "--warning-bg", "--info-bg"].map((bg) => [t, bg, TEXT, `${t} token on ${bg}`])),
  // funnel drawing text
  ["--fg", "--fd-page-bg", TEXT, "page label"],
  ["--fg-muted", "--fd-page-bg", TEXT, "page type label"],
  ["--fg-muted", "--fd-unreachable-bg", TEXT, "unreachable page label"],
  ["--fd-terminal-fg", "--fd-terminal-bg", TEXT, "End terminal label"],
  ["--fd-unknown", "--bg", TEXT, "unknown-target terminal label"],
  ["--fd-rule", "--bg-subtle", TEXT, "rule edge label"],
  ["--fd-default", "--bg-subtle", TEXT, "default edge label"],
  ["--fd-unknown", "--bg-subtle", TEXT, "unknown edge label"],
  ["--fg-muted", "--bg-subtle", TEXT, "edge label"],
  // non-text
  ["--border-strong", "--bg", LARGE, "input and button borders"],
  ["--focus", "--bg", LARGE, "focus ring"],
  ["--focus", "--bg-subtle", LARGE, "focus ring on subtle backgrounds"],
  ["--fd-page-stroke", "--bg-subtle", LARGE, "page outline"],
  ["--fd-page-start", "--bg-subtle", LARGE, "start page outline"],
  ["--fd-edge", "--bg-subtle", LARGE, "edge"],
  ["--fd-rule", "--bg-subtle", LARGE, "rule edge"],
  ["--fd-default", "--bg-subtle", LARGE, "default edge"],
  ["--fd-unknown", "--bg-subtle", LARGE, "unknown edge"],
  ["--fd-terminal-bg", "--bg-subtle", LARGE, "End terminal"],
  ["--error-fg", "--bg", LARGE, "finding severity bar (error)"],
  ["--warning-fg", "--bg", LARGE, "finding severity bar (warning)"],
  ["--info-fg", "--bg", LARGE, "finding severity bar (info)"],
  ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => [`--v${i}`, "--bg", LARGE, `variant colour v${i} (segment, swatch; and the --bg marker notch on it)`]),
  ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => [`--v${i}`, "--bg-subtle", LARGE, `variant swatch v${i} in the lookup`]),
];

for (const [scheme, tokens] of [["light", light], ["dark", dark]]) {
  test(`${scheme}: every token the pairs use is defined`, () => {
    const missing = [...new Set(pairs.flatMap(([a, b]) => [a, b]))].filter((t) => !tokens[t]);
    ok(missing.length === 0, `missing: ${missing.join(", ")}`);
  });
  test(`${scheme}: ${pairs.length} colour pairs meet WCAG AA`, () => {
    const bad = [];
    for (const [fg, bg, min, where] of pairs) {
      if (!tokens[fg] || !tokens[bg]) continue;
      const r = ratio(tokens[fg], tokens[bg]);
      if (r < min) bad.push(`${where}: ${fg} ${tokens[fg]} on ${bg} ${tokens[bg]} = ${r.toFixed(2)}:1 (needs ${min}:1)`);
    }
    ok(bad.length === 0, bad.join("\n"));
  });
}

test("the icons' colours match the theme tokens (light and dark)", () => {
  const dir = path.join(__dirname, "..", "assets", "icons");
  const expect = {
    "error.svg": ["--error-fg"], "warning.svg": ["--warning-fg"], "info.svg": ["--info-fg"],
    "check.svg": ["--ok-fg"], "funnel.svg": ["--kind-funnel-fg"], "experiment.svg": ["--kind-experiment-fg"],
    "paywall.svg": ["--kind-paywall-fg"], "nothing.svg": ["--kind-nothing-fg"],
  };
  const bad = [];
  for (const [file, [token]] of Object.entries(expect)) {
    const svg = fs.readFileSync(path.join(dir, file), "utf8").toLowerCase();
    const darkAt = svg.indexOf("prefers-color-scheme: dark");
    const lightPart = svg.slice(0, darkAt);
    const darkPart = svg.slice(darkAt);
    if (!lightPart.includes(light[token].toLowerCase())) bad.push(`${file}: light colour is not ${token} ${light[token]}`);
    if (!darkPart.includes(dark[token].toLowerCase())) bad.push(`${file}: dark colour is not ${token} ${dark[token]}`);
  }
  ok(bad.length === 0, bad.join("\n"));
});

run();
