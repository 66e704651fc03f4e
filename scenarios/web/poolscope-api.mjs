// poolscope in JavaScript: the engine, every design and the simulation, in
// WebAssembly (poolscope.js + poolscope.wasm beside this file). An ES module
// for Node.js, a page or a Web Worker:
//
//   import { loadPoolscope } from './poolscope-api.mjs';
//   const ps = await loadPoolscope();
//   ps.scenarios()                       // [{name, lesson}]
//   const text = ps.scenarioText('tour');
//   const run = ps.run(text, {file: 'tour', pools: ['ants'], events: true});
//   run.result                           // what `poolscope run --out` writes
//   run.events.time, run.events.kind ... // typed columns, one per field
//
// Every error is a PoolscopeError whose message is the runner's own. The
// calls are synchronous: a long run blocks its thread (use start()/advance()
// to run it in slices, or call it from a Web Worker). docs/web-engine.md
// documents every call.

export class PoolscopeError extends Error {
  constructor(message) {
    super(message);
    this.name = 'PoolscopeError';
  }
}

const COLUMNS = {
  time: Float64Array, task: Float64Array, arg: Float64Array, arg2: Int32Array,
  worker: Uint32Array, workers: Uint32Array, busy: Uint32Array, queued: Uint32Array, blocked: Uint32Array,
  pool: Uint16Array, rule: Uint16Array, kind: Uint8Array,
};

async function loadModule(options) {
  const here = new URL('.', import.meta.url);
  if (typeof process === 'object' && process.versions && process.versions.node) {
    // Node.js: the generated loader is CommonJS, and reads its wasm itself
    // badly under Node's fetch: it is handed the bytes.
    const { createRequire } = await import('node:module');
    const { readFileSync } = await import('node:fs');
    const require = createRequire(import.meta.url);
    const create = require(new URL('poolscope.js', here).pathname);
    return create({ wasmBinary: readFileSync(new URL('poolscope.wasm', here)), ...options });
  }
  // A page or a worker: the loader is a classic script that defines createPoolscopeModule.
  if (typeof globalThis.createPoolscopeModule !== 'function') {
    if (typeof importScripts === 'function') importScripts(new URL('poolscope.js', here).href);
    else
      await new Promise((resolve, reject) => {
        const s = document.createElement('script');
        s.src = new URL('poolscope.js', here).href;
        s.onload = resolve;
        s.onerror = () => reject(new PoolscopeError('could not load ' + s.src));
        document.head.appendChild(s);
      });
  }
  return globalThis.createPoolscopeModule({ locateFile: (f) => new URL(f, here).href, ...options });
}

// Loads the module. `options` go to emscripten's module (print, printErr, ...).
export async function loadPoolscope(options = {}) {
  return new Poolscope(await loadModule(options));
}

class Poolscope {
  constructor(m) {
    this.m = m;
  }

  // Calls an exported function with string arguments, and returns its reply.
  call(name, ...args) {
    const m = this.m;
    const held = [];
    const raw = args.map((a) => {
      if (typeof a !== 'string') return a;
      const size = m.lengthBytesUTF8(a) + 1;
      const p = m._malloc(size);
      m.stringToUTF8(a, p, size);
      held.push(p);
      return p;
    });
    try {
      m['_poolscope_' + name](...raw);
    } finally {
      held.forEach((p) => m._free(p));
    }
    return m.UTF8ToString(m._poolscope_reply(), m._poolscope_reply_size());
  }

  // A call whose reply is text of its own (a result, a trace), or an error.
  raw(name, ...args) {
    const text = this.call(name, ...args);
    if (this.m._poolscope_reply_failed()) throw new PoolscopeError(JSON.parse(text).error);
    return text;
  }

  value(name, ...args) {
    const reply = JSON.parse(this.call(name, ...args));
    if (!reply.ok) throw new PoolscopeError(reply.error);
    return reply.value;
  }

  // [{name, lesson}] of the shipped scenarios (built in).
  scenarios() { return this.value('list_scenarios'); }
  // A shipped scenario's file, as text.
  scenarioText(name) { return this.value('scenario_text', name); }
  // What `poolscope pools --json` prints: each design with its parameters.
  designs() { return this.value('list_designs'); }
  // What `poolscope validate` finds: {name, phases, arrivals, tasks, clients,
  // pools, duration, skipped}; a bad scenario throws with the runner's message.
  validate(text, file = 'scenario.json') { return this.value('validate', text, file); }
  // `poolscope explore`: {ran, failure: null | {schedule, seed, policy, problem}}.
  explore(text, options = {}) {
    const { file = 'scenario.json', ...rest } = options;
    return this.value('explore', text, file, JSON.stringify(rest));
  }

  // A run made, not yet advanced: options as for run().
  start(text, options = {}) {
    const { file = 'scenario.json', ...rest } = options;
    return new Run(this, this.value('run_new', text, file, JSON.stringify(rest)).run);
  }

  // A simulated run to its end. options: file (the name its messages use;
  // a shipped scenario's name finds the files it names), pools, set
  // ({"POOL.PARAM": value}), seed, timeScale, cpus, costs, policy, simSeed,
  // maxTasks, events (keep every event). Seeds above 2^53: decimal strings.
  run(text, options = {}) {
    const r = this.start(text, options);
    try {
      while (!r.advance().done) {}
      return { result: r.result(), exitStatus: r.exitStatus(), events: options.events ? r.events() : null };
    } finally {
      r.delete();
    }
  }
}

class Run {
  constructor(ps, id) {
    this.ps = ps;
    this.id = id;
  }
  // Runs at most `switches` switches of the simulation: {done, progress, now}.
  advance(switches = 1e6) { return this.ps.value('run_advance', this.id, switches); }
  // Once done: the result, as `poolscope run --out` writes it (no events).
  result() { return JSON.parse(this.ps.raw('run_result', this.id)); }
  // Once done, made with events: what `poolscope run --chrome-trace` writes, as text.
  chromeTrace() { return this.ps.raw('run_chrome_trace', this.id); }
  // 0, or 1 as the runner exits for a stall, a breach or a failed simulation.
  exitStatus() { return this.ps.value('run_events', this.id).exitStatus; }
  // Once done, with events kept: {count, pools, kinds, rules, <field>: typed array}.
  events() {
    const m = this.ps.m;
    const tables = this.ps.value('run_events', this.id);
    const out = { count: tables.count, pools: tables.pools, kinds: tables.kinds, rules: tables.rules };
    for (const [name, Type] of Object.entries(COLUMNS)) {
      const name_p = m._malloc(16);
      m.stringToUTF8(name, name_p, 16);
      const p = m._poolscope_run_column(this.id, name_p);
      m._free(name_p);
      out[name] = new Type(m.HEAPU8.buffer, p, tables.count).slice();
    }
    return out;
  }
  // Frees it; a run not ended is stopped and run to its end first.
  delete() { this.ps.value('run_delete', this.id); }
}
