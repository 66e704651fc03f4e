// The GUI's web site, as the browser tests and the benchmark use it: served
// on 127.0.0.1 as any static host would (no special headers); chromium.mjs
// drives the browser.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export { launchChromium } from './chromium.mjs';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml', '.json': 'application/json' };

// `routes` answers some paths itself ({'/test/x': (req, res) => ...}): the
// tests' hosts that misbehave (an HTML page for a file, a dropped connection).
export async function serveSite(dir, routes = {}) {
  const server = createServer(async (req, res) => {
    const route = routes[new URL(req.url, 'http://x').pathname];
    if (route) return route(req, res);
    const name = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/\/$/, '/index.html');
    const file = path.join(dir, path.normalize(name));
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}

// Waits until the page's GUI has said something matching `re` (its status
// line or a dialog, page.js's `said`), and returns it.
export async function waitSaid(page, re, timeout = 120_000) {
  return page.waitFor(
    ([source, flags]) => window.poolscopePage?.said.find((s) => new RegExp(source, flags).test(s.text)),
    [re.source, re.flags], { timeout });
}
