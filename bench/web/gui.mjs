// The GUI's web site, measured in headless Chromium (SwiftShader: WebGL 2
// drawn on the CPU), beside the desktop GUI where one is built:
//   - navigation to the first frame of tour (the page's own clock);
//   - tour simulated end to end in the page, as fast as it goes (1000x), and
//     the native runner's --sim on the same scenario, as a ratio;
//   - the frame time while playing and while seeking a 100,000-event replay
//     (ramp, 95,115 events), as poolscope-gui --bench-frames measures it,
//     in the page and (under Xvfb) on the desktop.
// Figures vary with the machine's load: compare within one run. scripts/web
// --bench runs it; docs/web.md quotes it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import { launchChromium, serveSite, waitSaid } from '../../tests/web/site.mjs';

const site = process.env.POOLSCOPE_SITE;
const runner = process.env.POOLSCOPE_RUNNER;
const gui = path.join(path.dirname(runner), 'poolscope-gui');
const ROUNDS = 3;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await serveSite(site);
const browser = await launchChromium();
const page = async (address) => {
  const p = await browser.newPage({ width: 1280, height: 720 });
  await p.goto(server.url + address);
  return p;
};
const state = (p) => p.evaluate(() => window.poolscopePage);

// 1. Navigation to the first frame of tour.
const firsts = [];
for (let i = 0; i < ROUNDS; ++i) {
  const p = await page('');
  await p.waitFor(() => window.poolscopePage?.firstFrame, null, { timeout: 120_000 });
  firsts.push((await state(p)).firstFrame);
  await p.close();
}
console.log(`navigation to tour's first frame: median ${median(firsts).toFixed(0)} ms ` +
  `(${firsts.map((x) => x.toFixed(0)).join(', ')})`);

// 2. tour simulated end to end, from its first frame to its end.
const ends = [];
for (let i = 0; i < ROUNDS; ++i) {
  const p = await page('#v=1&s=tour&time-scale=1000');
  const ended = await waitSaid(p, /run has ended/, 300_000);
  ends.push(ended.at - (await state(p)).firstFrame);
  await p.close();
}
const natives = [];
for (let i = 0; i < ROUNDS; ++i) {
  const t0 = process.hrtime.bigint();
  spawnSync(runner, ['run', 'tour', '--sim', '--quiet']);
  natives.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
console.log(`tour simulated end to end: in the page median ${median(ends).toFixed(0)} ms ` +
  `(drawing every frame meanwhile); the native runner's --sim ${median(natives).toFixed(0)} ms; ` +
  `ratio ${(median(ends) / median(natives)).toFixed(1)}`);

// 3. Frames of a 100,000-event replay, in the page and on the desktop.
const dir = path.join(site, 'bench');
mkdirSync(dir, { recursive: true });
const result = path.join(dir, 'ramp.result.json');
spawnSync(runner, ['run', 'ramp', '--sim', '--events', '--quiet', '--out', result]);
const p = await page('?open=bench/ramp.result.json&bench-frames=300');
await p.waitFor(() => window.poolscopePage?.stopped, null, { timeout: 600_000 });
console.log('in the page (1280 x 720, SwiftShader; CPU time is the wall clock there):');
for (const line of (await state(p)).printed) console.log(`  ${line}`);
await p.close();
if (existsSync(gui) && spawnSync('sh', ['-c', 'command -v xvfb-run']).status === 0) {
  const desk = spawnSync('xvfb-run', ['-a', '-s', '-screen 0 1280x720x24', gui, '--replay', result, '--size', '1280x720',
    '--bench-frames', '300']);
  console.log('on the desktop (1280 x 720, Mesa llvmpipe under Xvfb):');
  for (const line of desk.stdout.toString().trim().split('\n')) console.log(`  ${line}`);
} else {
  console.log(`(no desktop figures: ${gui} or xvfb-run is missing)`);
}
await browser.close();
server.close();
