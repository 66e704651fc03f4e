// The GUI's web site (build-web/site/) in a real browser: Debian's chromium,
// WebGL 2 drawn by SwiftShader, driven over DevTools (chromium.mjs), the site served on
// 127.0.0.1. What a student does: the page opens on tour and draws it; a run
// is the native runner's, event for event; its link shows the same run
// elsewhere; a bad file gets the runner's own message; a result written by the
// desktop runner replays; downloads work. scripts/web --test runs it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';

import { withoutHost } from './results.mjs';
import { launchChromium, serveSite, waitSaid } from './site.mjs';

const runner = process.env.POOLSCOPE_RUNNER;
const site = process.env.POOLSCOPE_SITE;
const out = process.env.POOLSCOPE_GUI_TEST_OUT;  // screenshots and downloads, kept for a look
const checker = path.join(path.dirname(runner), 'poolscope-screenshot-check');
const source = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const corpus = path.join(source, 'tests', 'data', 'bad');
mkdirSync(out, { recursive: true });

// Hosts that misbehave, for ?open=: a login page where a file should be, a dropped connection.
const server = await serveSite(site, {
  '/test/not-json.json': (req, res) => res.writeHead(200, { 'Content-Type': 'text/html' })
    .end('<!DOCTYPE html><title>Sign in</title>'),
  '/test/dropped.json': (req) => req.socket.destroy(),
});
const browser = await launchChromium();
after(async () => {
  await browser.close();
  server.close();
});

// A page of a laptop's size, on the site (with a link's fragment, if given).
async function open(fragment = '', viewport = { width: 1280, height: 720 }) {
  const page = await browser.newPage(viewport);
  await page.goto(server.url + fragment);
  await page.waitFor(() => window.poolscopePage?.frames > 2);
  return page;
}

// Presses a key of the GUI and returns the file the page downloads then.
const download = (page, key, name) => page.download(key, path.join(out, name));

// Opens a file through the page's file picker (Ctrl+O, as a student does).
const pick = (page, file) => page.pick('Control+O', file);

function native(args) {
  const r = spawnSync(runner, args, { cwd: out });
  return { status: r.status, stderr: r.stderr.toString() };
}

// Each pool's colour covers its share of the picture (the desktop smoke test's checker).
function drawsPools(png, designs) {
  // (A few seconds into a run, the fewest workers' colour covers about a thousand pixels.)
  const r = spawnSync(checker, [png, '--designs', designs.join(','), '--min-pixels', '600']);
  assert.equal(r.status, 0, `${png}: ${r.stdout}${r.stderr}`);
}

// The run of a result, as the runner computed it: everything but the host's figures, and the events.
function sameRun(a, b, where) {
  const plain = (r) => {
    const x = withoutHost(r);
    delete x.scenario.time_scale;  // the page's speed, which changes no event of a simulation
    return x;
  };
  assert.deepStrictEqual(plain(a), plain(b), `${where}: the result, host figures aside`);
  for (const [i, pool] of a.pools.entries())
    assert.ok(JSON.stringify(pool.events) === JSON.stringify(b.pools[i].events), `${where}: ${pool.name}'s events`);
}

test('the page opens on tour, simulated and playing at 1x, and draws every pool in its colour', async () => {
  const page = await open();
  const said = await waitSaid(page, /^scenario .*tour\.json$/);
  assert.ok(said);
  // Five seconds of a 42-second scenario at 1x: playing, not over.
  await page.wait(5000);
  const shot = path.join(out, 'tour-1280x720.png');
  await page.screenshot(shot);
  drawsPools(shot, ['fasthttp', 'ants', 'gammazero', 'java', 'spawn']);
  assert.equal((await page.evaluate(() => window.poolscopePage.said)).some((s) => /run has ended/.test(s.text)), false);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a run in the page is the native runner\'s, event for event; a link to it shows the same run', async () => {
  const page = await open('#v=1&s=tour&time-scale=1000');
  await waitSaid(page, /run has ended/);
  const a = JSON.parse(readFileSync(await download(page, 'Control+S', 'tour-page.result.json'), 'utf8'));
  assert.ok(native(['run', 'tour', '--sim', '--events', '--quiet', '--out', 'tour-native.result.json']).status <= 1);
  sameRun(a, JSON.parse(readFileSync(path.join(out, 'tour-native.result.json'), 'utf8')), 'page vs native');

  await page.press('Control+L');
  const link = await page.waitFor(() => window.poolscopePage.lastLink);
  assert.match(link, /#v=1&pv=[^&]+&s=tour/);
  await page.close();
  const again = await open(`${new URL(link).hash}&time-scale=1000`);
  await waitSaid(again, /run has ended/);
  sameRun(a, JSON.parse(readFileSync(await download(again, 'Control+S', 'tour-link.result.json'), 'utf8')), 'via the link');
  await again.close();
});

test('an edited scenario runs in the page as the runner runs it, and its link carries it whole', async () => {
  const doc = JSON.parse(readFileSync(path.join(source, 'scenarios', 'library', 'tour.json'), 'utf8'));
  doc.name = 'tour-edited';
  doc.seed = 77;
  doc.pools = doc.pools.filter((p) => ['ants', 'java'].includes(p.design ?? p.name));
  writeFileSync(path.join(out, 'tour-edited.json'), JSON.stringify(doc));
  const d = deflateRawSync(Buffer.from(JSON.stringify(doc))).toString('base64url');
  const page = await open(`#v=1&d=${d}&time-scale=1000`);
  await waitSaid(page, /run has ended/);
  const a = JSON.parse(readFileSync(await download(page, 'Control+S', 'edited-page.result.json'), 'utf8'));
  assert.ok(native(['run', 'tour-edited.json', '--sim', '--events', '--quiet', '--out', 'edited-native.result.json']).status <= 1);
  const b = JSON.parse(readFileSync(path.join(out, 'edited-native.result.json'), 'utf8'));
  delete a.scenario.file, delete b.scenario.file;  // where each read it from
  sameRun(a, b, 'edited, page vs native');

  await page.press('Control+L');
  const link = await page.waitFor(() => window.poolscopePage.lastLink);
  assert.match(link, /&d=/, 'an edited scenario travels whole');
  await page.close();
  const again = await open(`${new URL(link).hash}&time-scale=1000`);
  await waitSaid(again, /run has ended/);
  const c = JSON.parse(readFileSync(await download(again, 'Control+S', 'edited-link.result.json'), 'utf8'));
  delete c.scenario.file;
  sameRun(a, c, 'edited, via its link');
  await again.close();
});

test('a bad scenario file gets the runner\'s own message in the page\'s dialog, and the page goes on', async () => {
  const page = await open();
  for (const name of ['pool-unknown-design.json', 'truncated-1.json', 'dist-unknown-dist.json']) {
    const file = path.join(corpus, name);
    copyFileSync(file, path.join(out, name));
    const expected = native(['validate', name]).stderr.trim().replace(/^poolscope: /, '');
    await pick(page, file);
    const said = await waitSaid(page, new RegExp(`^Could not open the file: /picked/${name.replace('.', '\\.')}`));
    assert.equal(said.text.replace('Could not open the file: /picked/', ''), expected);
    await page.screenshot(path.join(out, `dialog-${name}.png`));
    await page.press('Enter');  // the dialog's OK
  }
  const frames = await page.evaluate(() => window.poolscopePage.frames);
  await page.waitFor((n) => window.poolscopePage.frames > n + 10, frames);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a result written by the desktop runner replays in the page (one whose trace dropped events says so); screenshots and traces download', async () => {
  assert.ok(native(['run', 'tour', '--sim', '--events', '--quiet', '--out', 'tour-desktop.result.json']).status <= 1);
  const result = JSON.parse(readFileSync(path.join(out, 'tour-desktop.result.json'), 'utf8'));
  const events = result.pools.reduce((n, p) => n + p.events.length, 0);
  const page = await open();
  await pick(page, path.join(out, 'tour-desktop.result.json'));
  const said = await waitSaid(page, /^replaying /);
  assert.equal(said.text, `replaying /picked/tour-desktop.result.json: ${events} events`);
  await page.wait(1000);
  const shot = path.join(out, 'replay-1280x720.png');
  await page.screenshot(shot);
  drawsPools(shot, ['fasthttp', 'ants', 'gammazero', 'java', 'spawn']);

  const png = readFileSync(await download(page, 'F12', 'view.png'));
  assert.deepEqual([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(''), 'PNG');
  const trace = JSON.parse(readFileSync(await download(page, 'Control+E', 'tour.trace.json'), 'utf8'));
  assert.ok(trace.traceEvents.length > events / 2, 'the Chrome/Perfetto trace has the run');

  // A real run whose trace fell behind: the replay says what it misses, and whose.
  const incomplete = structuredClone(result);
  incomplete.status = 'trace-incomplete';
  incomplete.run.events_dropped = 5;
  incomplete.pools[0].events_dropped = 5;
  writeFileSync(path.join(out, 'incomplete.result.json'), JSON.stringify(incomplete));
  await pick(page, path.join(out, 'incomplete.result.json'));
  await waitSaid(page, /^this run's trace dropped 5 events \(fasthttp 5\)/);
  await page.close();
});

test('a link this page cannot honour says why, and the page opens on tour instead', async () => {
  for (const [fragment, why] of [['#v=99&s=tour', /format 99.*reads links of format 1/],
    ['#v=1&s=tour&view=later', /could not be opened: .*--view/],
    ['#v=1&d=AAAA', /cut short or damaged/],
    ['#v=1&s=tour&colour=pink', /"colour", which this page .* does not know/],
    // A link that says two things (issue 53): it used to run the first s, or d over s, silently.
    ['#v=1&s=tour&s=ramp', /gives "s" more than once/],
    ['#v=1&s=tour&view=1s:2s&view=3s:4s', /gives "view" more than once/],
    [`#v=1&s=ramp&d=${deflateRawSync(Buffer.from('{}')).toString('base64url')}`,
      /gives the scenario twice, as "s" \(a shipped scenario, by name\) and "d" \(a whole scenario, compressed\)/]]) {
    const page = await open(fragment);
    const notices = await page.waitFor(() => window.poolscopePage.notices.length && window.poolscopePage.notices);
    assert.match(notices.join('\n'), why, fragment);
    await waitSaid(page, /^scenario .*tour\.json$/);
    await page.close();
  }
});

test('a d= that inflates past 1 MiB is refused as soon as it passes, not after inflating it whole', async () => {
  // 400 MiB of spaces deflate to a link of about 540 KB: issue 53's bomb.
  const d = deflateRawSync(Buffer.alloc(400 * 2 ** 20, 32), { level: 9 }).toString('base64url');
  assert.ok(d.length > 500_000, `${d.length}`);
  const page = await open(`#v=1&d=${d}`);
  const notices = await page.waitFor(() => window.poolscopePage.notices.length && window.poolscopePage.notices);
  assert.match(notices.join('\n'), /inflates to more than 1 MiB, the most a link carries/);
  await waitSaid(page, /^scenario .*tour\.json$/);
  await page.screenshot(path.join(out, 'link-bomb-refused.png'));
  // The one timed assertion of these tests, because it is the issue's own
  // requirement: refused in under 2 s. Reading stops at 1 MiB, some
  // milliseconds, a few tenths of a second in a browser on a machine loaded
  // far past its CPUs; inflating all 400 MiB took 21 s. 2 s is a wide margin
  // above the one and far below the other.
  const ms = await page.evaluate(() => window.poolscopePage.linkMs);
  const steps = await page.evaluate(() => JSON.stringify(window.poolscopePage.linkSteps));
  assert.ok(ms < 2000, `the link took ${ms} ms to refuse (${steps})`);
  await page.close();
});

test('an ?open=FILE that cannot be had names the file and the cause, and the page opens on tour', async () => {
  const other = await serveSite(site);  // another origin (its port), which sends no CORS header
  const gone = await serveSite(site);
  gone.close();  // nothing listens there any more
  const file = (q) => new RegExp(`^The file "${q.replace(/[.?*+^$()[\]\\]/g, '\\$&')}" \\(\\?open=\\) could not be opened: `);
  try {
    for (const [q, why, shot] of [
      ['nosuch.json', /the server answered HTTP 404 Not Found \(no such file/, 'open-404'],
      ['test/not-json.json', /it is not JSON \(a scenario or a result\): it begins "<!DOCTYPE html>/, 'open-not-json'],
      ['test/dropped.json', /the network failed: this site's server did not answer/, 'open-network'],
      [`${gone.url}tour.json`, /did not answer, or does not let this page read it/, 'open-gone'],
      [`${other.url}index.html`, /did not answer, or does not let this page read it: .*Access-Control-Allow-Origin/, 'open-cors']]) {
      const page = await browser.newPage({ width: 1280, height: 720 });
      await page.goto(`${server.url}?open=${encodeURIComponent(q)}`);
      const notices = await page.waitFor(() => window.poolscopePage?.notices.length && window.poolscopePage.notices);
      assert.match(notices.join('\n'), file(q), q);
      assert.match(notices.join('\n'), why, q);
      assert.doesNotMatch(notices.join('\n'), /could not start in this browser|WebAssembly/, q);
      await waitSaid(page, /^scenario .*tour\.json$/);
      await page.screenshot(path.join(out, `${shot}.png`));
      await page.close();
    }
  } finally {
    other.close();
  }
});
