// The browser build under Node.js (scripts/web --test): the same figures as
// the native runner, scenario by scenario; the runner's messages for bad
// input; and the simulation's own tests compiled for the browser.
//   POOLSCOPE_RUNNER  the native runner (build/bin/poolscope)
//   POOLSCOPE_WEB     the browser build's folder (build-web/web)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { withoutHost } from './results.mjs';

const runner = process.env.POOLSCOPE_RUNNER;
const web = process.env.POOLSCOPE_WEB;
assert.ok(runner && web, 'set POOLSCOPE_RUNNER and POOLSCOPE_WEB (scripts/web --test does)');
const { loadPoolscope, PoolscopeError } = await import(path.join(web, 'poolscope-api.mjs'));
const ps = await loadPoolscope();
const scratch = mkdtempSync(path.join(tmpdir(), 'poolscope-web-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

// The native runner's events of one pool, as its JSON writes them (result_json.cpp).
function eventsAsRunnerWrites(ev, poolName) {
  const out = [];
  for (let i = 0; i < ev.count; ++i) {
    if (ev.pools[ev.pool[i]] !== poolName) continue;
    // In nlohmann's order (its objects sort their keys), so that text compares.
    const e = {};
    if (ev.arg[i]) e.arg = ev.arg[i];
    if (ev.arg2[i]) e.arg2 = ev.arg2[i];
    e.counters = [ev.workers[i], ev.busy[i], ev.queued[i], ev.blocked[i]];
    e.kind = ev.kinds[ev.kind[i]];
    if (ev.rule[i]) e.rule = ev.rules[ev.rule[i]];
    e.t = ev.time[i] / 1e9;
    if (ev.task[i]) e.task = ev.task[i];
    if (ev.worker[i]) e.worker = ev.worker[i];
    out.push(e);
  }
  return out;
}

// Compared key by key (not as text: key order is the writer's business).
function sameJson(a, b, where) {
  assert.deepStrictEqual(a, b, where);
}

// Known bug, open (docs/web-engine.md, "Known differences"): survey run in an
// instance that ran failing-tasks or gopool-threshold before gives one busy
// worker fewer in one pool than run first, so some state outlives a run. Until
// it is found, survey is compared from an instance of its own.
const RUN_IN_A_FRESH_INSTANCE = new Set(['survey']);

for (const { name } of ps.scenarios()) {
  test(`${name}: the browser build computes what the native runner does, event for event`, async () => {
    const out = path.join(scratch, `${name}.json`);
    const native = spawnSync(runner, ['run', name, '--sim', '--events', '--quiet', '--out', out]);
    assert.ok(native.status === 0 || native.status === 1, `native runner: ${native.stderr}`);
    const expected = JSON.parse(readFileSync(out, 'utf8'));
    const engine = RUN_IN_A_FRESH_INSTANCE.has(name) ? await loadPoolscope() : ps;
    const got = engine.run(engine.scenarioText(name), { file: name, events: true });
    assert.equal(got.exitStatus, native.status, 'exit status');
    sameJson(withoutHost(got.result), withoutHost(expected), 'the result, host figures aside');
    for (const pool of expected.pools) {
      // Compared as a boolean first: a mismatch of a million events is then
      // narrowed to its first differing event, not printed whole.
      const mine = eventsAsRunnerWrites(got.events, pool.name);
      const theirs = pool.events ?? [];
      assert.equal(mine.length, theirs.length, `${pool.name}: events`);
      const first = mine.findIndex((e, i) => JSON.stringify(e) !== JSON.stringify(theirs[i]));
      assert.equal(first, -1, `${pool.name}: event ${first}: ${JSON.stringify(mine[first])} vs ${JSON.stringify(theirs[first])}`);
    }
  });
}

test('a bad scenario gets the runner\'s own message: the file, the JSON path, what was expected', () => {
  const bad = JSON.stringify({ format: 'poolscope-scenario/1', name: 'x', lesson: 'y', phases: [], pools: [{ design: 'antz' }] });
  const file = path.join(scratch, 'bad.json');
  execFileSync('sh', ['-c', `cat > ${file}`], { input: bad });
  const native = spawnSync(runner, ['validate', file]);
  assert.equal(native.status, 2);
  const nativeMessage = native.stderr.toString().replace(/^poolscope: /, '').trim();
  assert.throws(() => ps.validate(bad, file), (e) => e instanceof PoolscopeError && e.message === nativeMessage);
  assert.throws(() => ps.run(bad, { file }), (e) => e instanceof PoolscopeError && e.message === nativeMessage);
  assert.throws(() => ps.validate('{"name": ', 'cut.json'), (e) => e instanceof PoolscopeError && /^cut\.json: /.test(e.message));
  assert.throws(() => ps.validate('[1, 2]', 'array.json'), PoolscopeError);
});

test('every file of the bad-input corpus gets the native runner\'s own message, never a trap', () => {
  const dir = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'data', 'bad');
  const rows = readFileSync(path.join(dir, 'expected.tsv'), 'utf8').split('\n')
    .filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t')).filter(([kind]) => kind === 'scenario');
  assert.ok(rows.length > 100, `${rows.length} bad scenarios`);
  let tested = 0;
  for (const [, name, jsonPath, expected] of rows) {
    const file = path.join(dir, name);
    // A replay file named by the scenario is read from the disk beside it by
    // the native runner; the browser build has only the shipped ones.
    if (jsonPath.endsWith('/arrival/file')) continue;
    // A JavaScript string cannot hold bytes that are not UTF-8: such a file
    // reaches the API already decoded (by the page's file reader).
    const bytes = readFileSync(file);
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      continue;
    }
    ++tested;
    const native = spawnSync(runner, ['validate', file]);
    assert.equal(native.status, 2, `${name}: native exit`);
    const message = native.stderr.toString().replace(/^poolscope: /, '').trim();
    assert.ok(message.includes(expected), `${name}: the native message`);
    let got = null;
    try {
      ps.validate(bytes.toString('utf8'), file);
    } catch (e) {
      got = e;
    }
    assert.ok(got instanceof PoolscopeError, `${name}: refused (${got})`);
    assert.equal(got.message, message, `${name} (${jsonPath})`);
  }
  assert.ok(tested > 100, `${tested} tested`);
});

test('bad options are named, and real threads are refused with what to do instead', () => {
  const tour = ps.scenarioText('tour');
  assert.throws(() => ps.run(tour, { file: 'tour', real: true }), /options\/real: the browser runs the simulation only/);
  assert.throws(() => ps.run(tour, { file: 'tour', cpu: 2 }), /options\/cpu.*cpus/);
  assert.throws(() => ps.run(tour, { file: 'tour', seed: -1 }), /options\/seed: expected an integer/);
  assert.throws(() => ps.run(tour, { file: 'tour', pools: ['nope'] }), PoolscopeError);
  assert.throws(() => ps.explore(tour, { file: 'tour', policy: 'fifo' }), /options\/policy: expected "random" or "pct"/);
});

test('a run in slices ends as one run whole, and a run left midway is stopped cleanly', () => {
  const tour = ps.scenarioText('tour');
  const whole = ps.run(tour, { file: 'tour' }).result;
  const run = ps.start(tour, { file: 'tour' });
  let slices = 0;
  for (let s = run.advance(500); !s.done; s = run.advance(500)) {
    assert.ok(s.progress >= 0 && s.progress <= 1);
    ++slices;
  }
  assert.ok(slices > 10, `${slices} slices`);
  sameJson(withoutHost(run.result()), withoutHost(whole), 'sliced and whole');
  run.delete();
  const left = ps.start(tour, { file: 'tour' });
  left.advance(200);
  left.delete();
  assert.throws(() => left.advance(), /no run/);
});

test('the Chrome trace is the one the native runner writes', () => {
  const out = path.join(scratch, 'trace.json');
  const native = spawnSync(runner, ['run', 'tour', '--sim', '--quiet', '--chrome-trace', out]);
  assert.equal(native.status, 0, native.stderr.toString());
  const run = ps.start(ps.scenarioText('tour'), { file: 'tour', events: true });
  while (!run.advance().done) {}
  assert.deepStrictEqual(JSON.parse(run.chromeTrace()), JSON.parse(readFileSync(out, 'utf8')));
  run.delete();
  const bare = ps.start(ps.scenarioText('tour'), { file: 'tour' });
  while (!bare.advance().done) {}
  assert.throws(() => bare.chromeTrace(), /needs every event/);
  bare.delete();
});

test('the simulation\'s own tests pass in the browser build (exceptions across fibers, the planted race\'s schedule)', () => {
  const dir = path.join(web, '..', 'web-tests');
  const r = spawnSync(process.execPath, ['--no-experimental-fetch', 'test_sim.js'], { cwd: dir });
  assert.equal(r.status, 0, r.stdout.toString() + r.stderr.toString());
  assert.match(r.stdout.toString(), /All tests passed/);
});
