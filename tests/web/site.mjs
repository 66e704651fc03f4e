// The GUI's web site, as the browser tests and the benchmark use it: served
// on 127.0.0.1 as any static host would (no special headers), and Debian's
// chromium driven by playwright-core (installed by scripts/web into
// build-web/npm), drawing WebGL 2 with SwiftShader, on the CPU.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml', '.json': 'application/json' };

export async function serveSite(dir) {
  const server = createServer(async (req, res) => {
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

export async function launchChromium(npmDir) {
  const require = createRequire(path.join(npmDir, 'package.json'));
  const { chromium } = require('playwright-core');
  return chromium.launch({
    executablePath: process.env.POOLSCOPE_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist',
      '--disable-background-timer-throttling', '--disable-renderer-backgrounding'],
  });
}

// Waits until the page's GUI has said something matching `re` (its status
// line or a dialog, page.js's `said`), and returns it.
export async function waitSaid(page, re, timeout = 120_000) {
  const handle = await page.waitForFunction(
    ([source, flags]) => window.poolscopePage?.said.find((s) => new RegExp(source, flags).test(s.text)),
    [re.source, re.flags], { timeout, polling: 100 });
  return handle.jsonValue();
}
