// The browser build against the native runner, in one run (scripts/web
// --bench): the wall time of shipped scenarios simulated in Node.js and
// natively, fiber switches a second, and the module's size. Medians of
// alternating repetitions; ratios, not timed assertions (docs/web-engine.md).
//   POOLSCOPE_RUNNER  the native runner (a Release build is fairest)
//   POOLSCOPE_WEB     the browser build's folder (build-web/web)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const runner = process.env.POOLSCOPE_RUNNER;
const web = process.env.POOLSCOPE_WEB;
const scenarios = (process.env.POOLSCOPE_BENCH_SCENARIOS || 'tour,survey').split(',');
const reps = Number(process.env.POOLSCOPE_BENCH_REPS || 3);
if (!runner || !web) throw new Error('set POOLSCOPE_RUNNER and POOLSCOPE_WEB (scripts/web --bench does)');

const { loadPoolscope } = await import(path.join(web, 'poolscope-api.mjs'));
const ps = await loadPoolscope();
const scratch = mkdtempSync(path.join(tmpdir(), 'poolscope-web-bench-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// The engine's own wall time (the result's run.wall_s): no process start, no loading.
function native(name) {
  const out = path.join(scratch, 'r.json');
  const r = spawnSync(runner, ['run', name, '--sim', '--quiet', '--out', out]);
  if (r.status !== 0 && r.status !== 1) throw new Error(`${runner}: ${r.stderr}`);
  const run = JSON.parse(readFileSync(out, 'utf8')).run;
  return { wall: run.wall_s, switches: run.simulation.switches, virtual: run.simulation.virtual_s };
}
function browser(name, text) {
  const t0 = performance.now();
  const r = ps.run(text, { file: name });
  const wall = (performance.now() - t0) / 1000;
  return { wall, switches: r.result.run.simulation.switches, virtual: r.result.run.simulation.virtual_s };
}

const rows = [];
for (const name of scenarios) {
  const text = ps.scenarioText(name);
  browser(name, text);  // once to warm the JIT: a page runs more than one scenario too
  const n = [], w = [];
  let switches = 0, virtual = 0;
  for (let i = 0; i < reps; ++i) {
    const a = native(name);
    const b = browser(name, text);
    if (a.switches !== b.switches) throw new Error(`${name}: ${a.switches} switches natively, ${b.switches} in the browser build`);
    n.push(a.wall);
    w.push(b.wall);
    switches = a.switches;
    virtual = a.virtual;
  }
  rows.push({ name, native: median(n), web: median(w), switches, virtual });
}
rmSync(scratch, { recursive: true, force: true });

console.log(`scenario      native s   browser s   ÷ native   switches/s native   switches/s browser   virtual s per wall s (browser)`);
for (const r of rows)
  console.log(`${r.name.padEnd(12)} ${r.native.toFixed(3).padStart(9)} ${r.web.toFixed(3).padStart(11)} ` +
              `${(r.web / r.native).toFixed(1).padStart(10)} ${(r.switches / r.native).toExponential(2).padStart(19)} ` +
              `${(r.switches / r.web).toExponential(2).padStart(20)} ${(r.virtual / r.web).toFixed(0).padStart(30)}`);
console.log(`(medians of ${reps} alternating repetitions after one warm-up run in Node.js ${process.versions.node})`);
for (const f of ['poolscope.wasm', 'poolscope.js']) {
  const bytes = readFileSync(path.join(web, f));
  console.log(`${f.padEnd(15)} ${(bytes.length / 1e6).toFixed(2)} MB raw, ${(gzipSync(bytes, { level: 9 }).length / 1e6).toFixed(2)} MB gzipped`);
}
