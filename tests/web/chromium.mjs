// Debian's chromium, driven over the DevTools protocol on a pipe
// (--remote-debugging-pipe: JSON messages ended by a NUL, written to the
// browser's fd 3 and read from its fd 4). Only what the site's tests and
// benchmark do: open a page of a given size, read and wait on its state,
// hold keys, take screenshots, pick files and take downloads. It needs
// nothing from npm, so the tests run wherever Debian's packages install.
import { spawn } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// DevTools' key descriptions: the key, its DOM code, its Windows key code
// (what emscripten's GLFW reads), and a modifier's bit.
const MODIFIERS = { Alt: [18, 1], Control: [17, 2], Meta: [91, 4], Shift: [16, 8] };
function describe(key) {
  if (MODIFIERS[key]) return { key, code: `${key}Left`, vk: MODIFIERS[key][0], bit: MODIFIERS[key][1] };
  if (/^[A-Za-z]$/.test(key)) {
    return { key: key.toLowerCase(), code: `Key${key.toUpperCase()}`, vk: key.toUpperCase().charCodeAt(0),
      text: key.toLowerCase() };
  }
  if (/^[0-9]$/.test(key)) return { key, code: `Digit${key}`, vk: key.charCodeAt(0), text: key };
  if (key === '.') return { key, code: 'Period', vk: 190, text: key };
  if (/^F\d+$/.test(key)) return { key, code: key, vk: 111 + Number(key.slice(1)) };
  const named = { Enter: [13, '\r'], Escape: [27], Tab: [9, '\t'], Space: [32, ' '], Backspace: [8], PageUp: [33],
    PageDown: [34] }[key];
  if (named) return { key: key === 'Space' ? ' ' : key, code: key, vk: named[0], text: named[1] };
  throw new Error(`chromium.mjs: no key named '${key}'`);
}

class Connection {
  constructor(input, output) {
    this.input = input;
    this.next = 1;
    this.pending = new Map();
    this.listeners = new Set();
    let buffered = '';
    output.setEncoding('utf8');
    output.on('data', (chunk) => {
      const parts = (buffered + chunk).split('\0');
      buffered = parts.pop();
      for (const part of parts) this.receive(JSON.parse(part));
    });
  }

  receive(message) {
    const waiting = this.pending.get(message.id);
    if (waiting) {
      this.pending.delete(message.id);
      if (message.error) waiting.reject(new Error(`${waiting.method}: ${message.error.message}`));
      else waiting.resolve(message.result);
    } else if (message.method) {
      for (const listener of [...this.listeners]) listener(message);
    }
  }

  send(method, params = {}, sessionId = undefined) {
    const id = this.next++;
    this.input.write(JSON.stringify({ id, method, params, sessionId }) + '\0');
    return new Promise((resolve, reject) => this.pending.set(id, { method, resolve, reject }));
  }

  // The first event `method` (of `sessionId`, if given) that `accept` takes.
  event(method, { sessionId, accept = () => true, timeout = 60_000 } = {}) {
    return new Promise((resolve, reject) => {
      const done = (fn, value) => {
        clearTimeout(timer);
        this.listeners.delete(listener);
        fn(value);
      };
      const listener = (m) => {
        if (m.method === method && (!sessionId || m.sessionId === sessionId) && accept(m.params)) done(resolve, m.params);
      };
      const timer = setTimeout(() => done(reject, new Error(`no ${method} within ${timeout} ms`)), timeout);
      this.listeners.add(listener);
    });
  }
}

class Page {
  constructor(cdp, sessionId, context, downloads) {
    Object.assign(this, { cdp, sessionId, context, downloads, problems: [] });
    cdp.listeners.add((m) => {
      if (m.sessionId === sessionId && m.method === 'Runtime.exceptionThrown') {
        const d = m.params.exceptionDetails;
        this.problems.push(d.exception?.description ?? d.text);
      }
    });
  }

  send(method, params) { return this.cdp.send(method, params, this.sessionId); }

  async goto(url) {
    const loaded = this.cdp.event('Page.loadEventFired', { sessionId: this.sessionId });
    await this.send('Page.navigate', { url });
    await loaded;
  }

  // The value of `fn(arg)` in the page (JSON-serialisable; promises awaited).
  async evaluate(fn, arg) {
    const { result, exceptionDetails } = await this.send('Runtime.evaluate', {
      expression: `(${fn})(${JSON.stringify(arg)})`, returnByValue: true, awaitPromise: true });
    if (exceptionDetails) throw new Error(`in the page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    return result.value;
  }

  // The first truthy value of `fn(arg)`, polled.
  async waitFor(fn, arg, { timeout = 60_000, polling = 100 } = {}) {
    const end = Date.now() + timeout;
    for (;;) {
      const value = await this.evaluate(fn, arg);
      if (value) return value;
      if (Date.now() > end) throw new Error(`waited ${timeout} ms for ${fn}`);
      await sleep(polling);
    }
  }

  wait(ms) { return sleep(ms); }

  // A click of the left button at (x, y) CSS px, held for `ms` so that
  // Dear ImGui sees the press at one frame and the release at a later one.
  async click(x, y, ms = 200) {
    const at = { x, y, button: 'left', clickCount: 1 };
    await this.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
    await sleep(ms / 2);
    await this.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...at });
    await sleep(ms);
    await this.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...at });
    await sleep(ms / 2);
  }

  // Holds `keys` ('Control+S') down for `ms`: Dear ImGui sees a key that is
  // down at a frame's start, so a press between two frames would be lost.
  async press(keys, ms = 300) {
    const held = keys.split('+').map(describe);
    let modifiers = 0;
    for (const k of held) {
      modifiers |= k.bit ?? 0;
      const text = modifiers & ~MODIFIERS.Shift[1] ? undefined : k.text;
      await this.send('Input.dispatchKeyEvent', { type: text ? 'keyDown' : 'rawKeyDown', key: k.key, code: k.code,
        windowsVirtualKeyCode: k.vk, modifiers, text });
    }
    await sleep(ms);
    for (const k of held.reverse()) {
      await this.send('Input.dispatchKeyEvent', { type: 'keyUp', key: k.key, code: k.code, windowsVirtualKeyCode: k.vk, modifiers });
      modifiers &= ~(k.bit ?? 0);
    }
  }

  // Types `text` (letters, digits and '.'), a key at a time, each held over a frame.
  async type(text, ms = 120) {
    for (const c of text) await this.press(c, ms);
  }

  async screenshot(file) {
    const { data } = await this.send('Page.captureScreenshot', { format: 'png' });
    writeFileSync(file, Buffer.from(data, 'base64'));
  }

  // Presses `keys` and saves, as `file`, what the page downloads then.
  async download(keys, file) {
    // A small download ends in the same message batch that begins it: listen for both at once.
    let guid;
    const begun = this.cdp.event('Browser.downloadWillBegin',
      { accept: (p) => p.frameId === this.frameId && (guid = p.guid) });
    const ended = this.cdp.event('Browser.downloadProgress',
      { accept: (p) => p.state !== 'inProgress' && p.guid === guid });
    await this.press(keys);
    await begun;
    const { state } = await ended;
    if (state !== 'completed') throw new Error(`the download of ${file} was ${state}`);
    renameSync(path.join(this.downloads, guid), file);
    return file;
  }

  // Presses `keys`, which open the page's file picker, and picks `file` in it.
  async pick(keys, file) {
    // The page's <input> is in no document, and with the chooser intercepted
    // nothing else holds it: take a reference to it as soon as it is announced.
    let input;
    const opened = this.cdp.event('Page.fileChooserOpened', { sessionId: this.sessionId,
      accept: ({ backendNodeId }) => (input = this.send('DOM.resolveNode', { backendNodeId })) });
    await this.press(keys);
    await opened;
    const { object } = await input;
    await this.send('DOM.setFileInputFiles', { files: [file], objectId: object.objectId });
  }

  close() { return this.cdp.send('Target.disposeBrowserContext', { browserContextId: this.context }); }
}

class Browser {
  constructor(child, cdp, profile) {
    Object.assign(this, { child, cdp, profile });
  }

  // A page of `width` x `height` CSS pixels in a context of its own (nothing
  // kept from an earlier page), taking downloads and file pickers.
  async newPage({ width = 1280, height = 720 } = {}) {
    const { browserContextId } = await this.cdp.send('Target.createBrowserContext', { disposeOnDetach: true });
    const downloads = mkdtempSync(path.join(this.profile, 'downloads-'));
    await this.cdp.send('Browser.setDownloadBehavior',
      { behavior: 'allowAndName', browserContextId, downloadPath: downloads, eventsEnabled: true });
    const { targetId } = await this.cdp.send('Target.createTarget', { url: 'about:blank', browserContextId });
    const { sessionId } = await this.cdp.send('Target.attachToTarget', { targetId, flatten: true });
    const page = new Page(this.cdp, sessionId, browserContextId, downloads);
    page.frameId = targetId;  // a page's main frame has its target's id
    await page.send('Page.enable');
    await page.send('Runtime.enable');
    await page.send('Page.setInterceptFileChooserDialog', { enabled: true });
    await page.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
    return page;
  }

  async close() {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    await this.cdp.send('Browser.close').catch(() => {});
    await Promise.race([exited, sleep(5000)]);
    this.child.kill('SIGKILL');
    rmSync(this.profile, { recursive: true, force: true });
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Starts chromium headless, drawing WebGL 2 with SwiftShader (on the CPU).
export async function launchChromium() {
  const profile = mkdtempSync(path.join(tmpdir(), 'poolscope-chromium-'));
  const executable = process.env.POOLSCOPE_CHROMIUM || '/usr/bin/chromium';
  const child = spawn(executable, ['--headless', '--remote-debugging-pipe', `--user-data-dir=${profile}`,
    '--no-sandbox', '--no-first-run', '--no-default-browser-check', '--mute-audio', '--hide-scrollbars',
    '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist',
    '--disable-background-timer-throttling', '--disable-renderer-backgrounding',
    '--disable-backgrounding-occluded-windows', 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
  const failed = new Promise((_, reject) => {
    child.once('error', (e) => reject(new Error(`${executable}: ${e.message}`)));
    child.once('exit', (code) => reject(new Error(`${executable} exited (${code}) before it answered:\n${stderr}`)));
  });
  const cdp = new Connection(child.stdio[3], child.stdio[4]);
  failed.catch(() => {});
  await Promise.race([cdp.send('Browser.getVersion'), failed]);
  child.removeAllListeners('exit');
  return new Browser(child, cdp, profile);
}
