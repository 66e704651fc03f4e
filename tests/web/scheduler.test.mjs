// Being the scheduler in the page (issue 49), as a student plays: a run
// stepped by decision, picks made by clicking a thread and by its number
// key, undo, and the link that carries the picks opened elsewhere at the
// same decision. scripts/web --test runs it after gui.test.mjs.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';

import { launchChromium, serveSite, waitSaid } from './site.mjs';

const site = process.env.POOLSCOPE_SITE;
const out = process.env.POOLSCOPE_GUI_TEST_OUT;  // screenshots, kept for a look
mkdirSync(out, { recursive: true });

const server = await serveSite(site);
const browser = await launchChromium();
after(async () => {
  await browser.close();
  server.close();
});

// A number key held over a frame (chromium.mjs presses letters and named keys).
async function pressDigit(page, digit, ms = 300) {
  const key = { key: String(digit), code: `Digit${digit}`, windowsVirtualKeyCode: 48 + digit };
  await page.send('Input.dispatchKeyEvent', { type: 'keyDown', ...key, text: String(digit) });
  await page.wait(ms);
  await page.send('Input.dispatchKeyEvent', { type: 'keyUp', ...key });
}

async function open(fragment) {
  const page = await browser.newPage({ width: 1280, height: 720 });
  await page.goto(server.url + fragment);
  await page.waitFor(() => window.poolscopePage?.frames > 2);
  return page;
}

// The decision the page waits at (view_scheduler.cpp's state): its number,
// its choices (each with its thread and where its row is) and the schedule
// so far; waits until `accept` takes it.
const decision = (page, accept = '() => true') => page.waitFor(
  (source) => { const d = window.poolscopePage.state.decision; return d && eval(source)(d) && d; }, accept);

// A small scenario: two workers, five tasks at once, so decisions come early and are few.
const small = {
  name: 'sched-small', seed: 5, time_scale: 1,
  task: { duration: '10ms' },
  phases: [{ name: 'burst', duration: '100ms', arrival: { kind: 'burst', count: 5, every: '1s' } }],
  pools: [{ design: 'gammazero', config: { maxWorkers: 2 } }],
  simulation: { cpus: 2, costs: 'free', policy: 'random', seed: 9 },
};

test('a run stepped by decision: a click and a number key pick, undo goes back one, the link replays the picks', async () => {
  const d = deflateRawSync(Buffer.from(JSON.stringify(small))).toString('base64url');
  const page = await open(`#v=1&d=${d}&sched=`);
  const first = await decision(page);
  assert.ok(first.choices.length >= 2, 'a decision has two choices or more');
  assert.equal(first.schedule, '');
  await page.screenshot(path.join(out, 'sched-decision-1280x720.png'));

  // A click on the last choice's row picks its thread.
  const clicked = first.choices.at(-1);
  await page.click(...clicked.at);
  const second = await decision(page, `(d) => d.decision > ${first.decision}`);
  assert.equal(second.schedule.split('.').at(-1), String(clicked.thread), 'the clicked thread was picked');
  const before = second.schedule;

  // Its number key picks the first.
  await pressDigit(page, 1);
  const third = await decision(page, `(d) => d.decision > ${second.decision}`);
  assert.equal(third.schedule.split('.').at(-1), String(second.choices[0].thread), 'key 1 picked the first choice');

  // Undo: the run replayed without the last pick, at the same decision as before it.
  await page.press('Control+Z');
  const back = await decision(page, `(d) => d.schedule === ${JSON.stringify(before)}`);
  assert.equal(back.decision, second.decision);
  assert.deepEqual(back.choices.map((c) => c.thread), second.choices.map((c) => c.thread));

  // The link carries the picks: opened elsewhere, the same decision waits.
  await page.press('Control+L');
  const link = await page.waitFor(() => window.poolscopePage.lastLink);
  assert.match(link, new RegExp(`&sched=${before.replace(/\./g, '\\.')}(&|$)`));
  await page.close();
  const again = await open(new URL(link).hash);
  const same = await decision(again, `(d) => d.schedule === ${JSON.stringify(before)}`);
  assert.equal(same.decision, second.decision);
  assert.deepEqual(same.choices, second.choices.map((c, i) => ({ ...c, at: same.choices[i].at })));
  assert.deepEqual(again.problems, []);
  await again.close();
});

test('a link whose picks do not fit the run says at which decision', async () => {
  const d = deflateRawSync(Buffer.from(JSON.stringify(small))).toString('base64url');
  const page = await open(`#v=1&d=${d}&sched=99`);
  await waitSaid(page, /pick 1 \(thread 99\) does not fit the run/);
  await page.close();
});
