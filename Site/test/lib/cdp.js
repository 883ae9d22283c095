"use strict";
// Headless Chromium driven over the DevTools protocol, for the tests that must act inside a
// loaded page (axe-core, full-page screenshots) rather than read its DOM once (lib/browser.js).
//
// The protocol runs over a pipe (--remote-debugging-pipe: Chromium reads commands on its fd 3 and
// writes replies and events on its fd 4, each message JSON ended by a NUL byte), so no port is
// opened and no WebSocket client is needed. Chromium gets the same throwaway profile, home and
// TMPDIR as lib/browser.js's runs.
//
//   const browser = await Browser.launch();
//   const page = await browser.newPage();
//   await page.open(url, { width: 1280, height: 900, mobile: false, scheme: "dark" });
//   const value = await page.evaluate("document.title");
//   await browser.close();

const fs = require("fs");
const path = require("path");
const { spawn } = require("child_process");
const { CHROMIUM, chromiumScratch, chromiumLaunch } = require("./browser");

class ProtocolError extends Error {}

// Browsers still running when the process ends (a test that failed before closing its own) are
// killed then. Their process and pipes do not keep Node running by themselves: every call
// waiting for a reply holds a timer, so Node waits exactly as long as something awaits Chromium.
const live = new Set();
process.on("exit", () => { for (const child of live) child.kill("SIGKILL"); });

class Browser {
  /// Starts Chromium; `flags` are added to its command line.
  static async launch(flags) {
    // One profile per browser: a profile is locked while in use.
    const { env, flags: base } = chromiumLaunch(fs.mkdtempSync(path.join(chromiumScratch(), "cdp-")));
    const args = [...base, "--remote-debugging-pipe", "--hide-scrollbars", "--font-render-hinting=none", ...(flags || []), "about:blank"];
    const child = spawn(CHROMIUM, args, { env, stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
    live.add(child);
    child.unref();
    for (const stream of child.stdio) if (stream && stream.unref) stream.unref();
    const browser = new Browser(child);
    // The first reply proves the pipe works (or says why Chromium ended).
    await browser.send("Browser.getVersion");
    return browser;
  }

  constructor(child) {
    this.child = child;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = new Map(); // sessionId + " " + method -> [fn]
    this.log = "";
    this.buffer = Buffer.alloc(0);
    child.stderr.on("data", (d) => { this.log = (this.log + d.toString("utf8")).slice(-20000); });
    child.stdio[4].on("data", (d) => this.receive(d));
    child.on("exit", (code, signal) => {
      live.delete(child);
      const e = new ProtocolError(`Chromium ended (${signal || code}) during a DevTools call:\n${this.log.slice(-2000)}`);
      for (const { reject } of this.pending.values()) reject(e);
      this.pending.clear();
      this.exited = true;
    });
    child.on("error", (e) => {
      for (const { reject } of this.pending.values()) reject(e);
      this.pending.clear();
      this.exited = true;
    });
  }

  receive(data) {
    this.buffer = Buffer.concat([this.buffer, data]);
    let end;
    while ((end = this.buffer.indexOf(0)) >= 0) {
      const message = JSON.parse(this.buffer.subarray(0, end).toString("utf8"));
      this.buffer = this.buffer.subarray(end + 1);
      if (message.id !== undefined) {
        const call = this.pending.get(message.id);
        if (!call) continue;
        this.pending.delete(message.id);
        if (message.error) call.reject(new ProtocolError(`${call.method}: ${message.error.message}`));
        else call.resolve(message.result);
      } else {
        const fns = this.listeners.get(`${message.sessionId || ""} ${message.method}`) || [];
        for (const fn of fns.slice()) fn(message.params);
      }
    }
  }

  /// Sends one command (to `sessionId`'s target when given) and resolves with its result.
  send(method, params, sessionId, timeout = 60000) {
    if (this.exited) return Promise.reject(new ProtocolError(`Chromium has ended; cannot send ${method}`));
    const id = this.nextId++;
    const message = { id, method, params: params || {} };
    if (sessionId) message.sessionId = sessionId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ProtocolError(`${method}: no reply within ${timeout} ms`));
      }, timeout);
      this.pending.set(id, {
        method,
        resolve: (v) => { clearTimeout(timer); resolve(v); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      });
      this.child.stdio[3].write(JSON.stringify(message) + "\0");
    });
  }

  /// Resolves with the params of the next `method` event of `sessionId`.
  once(sessionId, method, timeout = 60000) {
    const key = `${sessionId || ""} ${method}`;
    return new Promise((resolve, reject) => {
      const fns = this.listeners.get(key) || [];
      const fn = (params) => {
        clearTimeout(timer);
        fns.splice(fns.indexOf(fn), 1);
        resolve(params);
      };
      const timer = setTimeout(() => {
        fns.splice(fns.indexOf(fn), 1);
        reject(new ProtocolError(`no ${method} within ${timeout} ms`));
      }, timeout);
      fns.push(fn);
      this.listeners.set(key, fns);
    });
  }

  /// Subscribes `fn` to every `method` event of `sessionId`.
  on(sessionId, method, fn) {
    const key = `${sessionId || ""} ${method}`;
    const fns = this.listeners.get(key) || [];
    fns.push(fn);
    this.listeners.set(key, fns);
  }

  async newPage() {
    const { targetId } = await this.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await this.send("Target.attachToTarget", { targetId, flatten: true });
    const page = new Page(this, sessionId);
    await page.send("Page.enable");
    await page.send("Runtime.enable");
    await page.send("Log.enable");
    return page;
  }

  async close() {
    if (this.exited) return;
    const ended = new Promise((resolve) => this.child.once("exit", resolve));
    try { await this.send("Browser.close", {}, undefined, 10000); } catch (e) { /* ended already */ }
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 10000);
    await ended;
    clearTimeout(timer);
  }
}

class Page {
  constructor(browser, sessionId) {
    this.browser = browser;
    this.sessionId = sessionId;
    this.problems = [];
    // What the console and the browser's log say went wrong (a CSP violation, an uncaught error).
    browser.on(sessionId, "Runtime.exceptionThrown", (p) => {
      this.problems.push(`uncaught: ${(p.exceptionDetails.exception && p.exceptionDetails.exception.description) || p.exceptionDetails.text}`);
    });
    browser.on(sessionId, "Log.entryAdded", (p) => {
      if (p.entry.level === "error") this.problems.push(`${p.entry.source}: ${p.entry.text}`);
    });
  }

  send(method, params, timeout) {
    return this.browser.send(method, params, this.sessionId, timeout);
  }

  /// Opens `url` in a viewport of `width` × `height` CSS px (`mobile`: a phone's viewport and
  /// touch) with prefers-color-scheme `scheme` ("light" or "dark"); resolves after the load event.
  async open(url, { width = 1280, height = 900, mobile = false, scheme = "light" } = {}) {
    await this.send("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile });
    await this.send("Emulation.setEmulatedMedia", { media: "screen", features: [{ name: "prefers-color-scheme", value: scheme }] });
    this.problems = [];
    const loaded = this.browser.once(this.sessionId, "Page.loadEventFired");
    const nav = await this.send("Page.navigate", { url });
    if (nav.errorText) throw new ProtocolError(`cannot open ${url}: ${nav.errorText}`);
    await loaded;
    // Fonts and a layout pass after site.js's deferred work.
    await this.evaluate("document.fonts ? document.fonts.ready.then(() => true) : true");
  }

  /// Evaluates `expression` in the page (awaiting a promise) and returns its value as JSON would.
  async evaluate(expression, timeout) {
    const r = await this.send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true }, timeout);
    if (r.exceptionDetails) {
      const d = r.exceptionDetails;
      throw new ProtocolError(`in the page: ${(d.exception && d.exception.description) || d.text}`);
    }
    return r.result.value;
  }

  /// A PNG of the whole page (at most `maxHeight` CSS px tall), as a Buffer.
  async screenshot(maxHeight = 8000) {
    const m = await this.send("Page.getLayoutMetrics");
    const size = m.cssContentSize || m.contentSize;
    const width = Math.ceil(m.cssLayoutViewport ? m.cssLayoutViewport.clientWidth : size.width);
    const height = Math.min(Math.ceil(size.height), maxHeight);
    const r = await this.send("Page.captureScreenshot", {
      format: "png", captureBeyondViewport: true,
      clip: { x: 0, y: 0, width, height, scale: 1 },
    });
    return Buffer.from(r.data, "base64");
  }
}

module.exports = { Browser, Page, ProtocolError };
