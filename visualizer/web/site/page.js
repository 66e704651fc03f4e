// The page around poolscope-gui (poolscope-gui.js + .wasm): it reads the link
// in the address, starts the GUI with it as the GUI's own command line, calls
// a frame at each animation frame, and gives the GUI what a page has instead
// of a desktop's (a file picker, downloads, the clipboard). The C++ side of
// each is visualizer/app/*.web.cpp; docs/web.md says what a link carries.
'use strict';

(() => {
  // A link: #v=1&s=tour&view=1s:2.5s or #v=1&d=<the scenario, deflated, base64url>, or a
  // lesson at a step, #v=1&lesson=why-a-pool&step=3 (poolscope-gui's --lesson and --step), or a
  // scheduler challenge with its picks so far, #v=1&challenge=NAME&sched=3.5 (--challenge, --sched).
  // Every key it may carry, in this one table (docs/web.md, "Links"): a key
  // not here is refused, and so is a key given twice, or two keys of one
  // `group` (they would say two things: which scenario, say). An `option` is
  // one of poolscope-gui's command-line options, passed on under its own name.
  const LINK_KEYS = {
    v: { what: 'the link format this page reads (a newer or older one is refused, saying so)' },
    pv: { what: 'the poolscope version that made it (a shipped scenario may differ in another)' },
    s: { what: 'a shipped scenario, by name', group: 'the scenario' },
    d: { what: 'a whole scenario, compressed', group: 'the scenario' },
    view: { option: true },
    tab: { option: true },
    palette: { option: true },
    'time-scale': { option: true },
    lesson: { option: true },
    step: { option: true },
    challenge: { option: true },
    sched: { option: true },
  };
  const LINK_FORMAT = '1';
  const LINK_OPTIONS = Object.keys(LINK_KEYS).filter((k) => LINK_KEYS[k].option);
  // A `d` inflates to at most this: past it, the page stops and refuses at
  // once. A scenario file may be 64 MiB (kMaxInputBytes), but a scenario
  // typed or edited is a few KB; inflating 64 MiB took over a second on a
  // busy machine, where the 540 KB bomb must be refused within 2 s.
  const MAX_LINK_SCENARIO_BYTES = 1024 * 1024;
  // The page opens playing, at 1x unless the link says (a simulation's speed changes none of its events).
  const OPENING = ['--play'];
  const SPEED = ['--time-scale', '1'];
  const VERSION = document.body.dataset.version;

  const canvas = document.getElementById('canvas');
  const progress = document.getElementById('progress');
  const notice = document.getElementById('notice');
  document.getElementById('notice-close').onclick = () => { notice.hidden = true; canvas.focus(); };

  // What the tests and the benchmark read (tests/web/gui.test.mjs).
  const page = window.poolscopePage = {
    started: null, firstFrame: null, frames: 0, stopped: false, downloads: [], lastLink: null, notices: [],
    errors: [], printed: [], said: [], linkSteps: [], state: {},
  };
  const PROGRESS = 'poolscope-challenges';  // the challenges won, in local storage (progress_store.web.cpp)
  // The GUI's Ctrl shortcuts (open, save, export, link, zoom) are the GUI's, not the browser's.
  window.addEventListener('keydown', (e) => {
    if ((e.ctrlKey || e.metaKey) && 'oselaOSELA+=-'.includes(e.key)) e.preventDefault();
  });

  // Opening a file takes the frame that reads it (a big result, seconds):
  // until the GUI says what it made of it, the page says it is at work.
  function busy(text) {
    progress.textContent = text;
    progress.hidden = false;
  }
  canvas.addEventListener('drop', (e) => {
    const files = e.dataTransfer?.files;
    if (files?.length) busy(`Opening ${files[0].name}…`);
  }, true);

  function say(text) {
    page.notices.push(text);
    document.getElementById('notice-text').textContent = text;
    notice.hidden = false;
  }

  // --- links --------------------------------------------------------------

  function toBase64url(bytes) {
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }
  function fromBase64url(text) {
    const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    // A plain loop: Uint8Array.from(s, mapFn) took 0.86 s for a 540 KB link.
    const bytes = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
    return bytes;
  }
  async function through(stream, bytes) {
    return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
  }
  const deflate = (text) => through(new CompressionStream('deflate-raw'), new TextEncoder().encode(text));
  // Inflated slice by slice, stopping as soon as it passes `limit` bytes (a
  // 540 KB link can inflate to 400 MB, which took 21 s to refuse whole). The
  // stream inflates each slice written to it whole (1 KiB of a bomb is
  // 1 MiB), so the input goes in 1 KiB at a time, each when there is room.
  class TooLarge extends Error {}
  async function inflate(bytes, limit) {
    const stream = new DecompressionStream('deflate-raw');
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    let stopped = false;
    (async () => {
      for (let at = 0; at < bytes.length && !stopped; at += 1024) {
        await writer.ready;
        if (!stopped) writer.write(bytes.subarray(at, at + 1024)).catch(() => {});
      }
      if (!stopped) await writer.close();
    })().catch(() => {});  // a damaged stream: the reader says so
    const chunks = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limit) {
        stopped = true;
        reader.cancel().catch(() => {});
        throw new TooLarge();
      }
      chunks.push(value);
    }
    const all = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) all.set(c, at), at += c.length;
    return new TextDecoder().decode(all);
  }

  // The GUI's arguments for the link in the address, and the files they name;
  // or why the link cannot be honoured (the page then opens as without it).
  async function readLink(hash) {
    const params = new URLSearchParams(hash.replace(/^#/, ''));
    const none = { args: [], files: [] };
    if (![...params.keys()].length) return none;
    const v = params.get('v');
    if (v !== LINK_FORMAT) {
      return { ...none, error: `This link was made by ${v ? `a poolscope whose links are of format ${v}` :
        'something other than poolscope'}; this page (poolscope ${VERSION}) reads links of format ${LINK_FORMAT}. ` +
        'It opens the default scenario instead: ask for a link made with this version, or the scenario file.' };
    }
    const keys = [...params.keys()];
    const quoted = (list) => list.map((k) => `"${k}"`).join(', ');
    const unknown = keys.filter((k) => !Object.hasOwn(LINK_KEYS, k));
    if (unknown.length) {
      return { ...none, error: `This link has ${quoted(unknown)}, which this page ` +
        `(poolscope ${VERSION}) does not know: it opens the default scenario instead.` };
    }
    const twice = [...new Set(keys.filter((k, i) => keys.indexOf(k) !== i))];
    if (twice.length) {
      return { ...none, error: `This link gives ${quoted(twice)} more than once, so it says two things: ` +
        'this page cannot know which is meant, and opens the default scenario instead.' };
    }
    for (const group of new Set(keys.map((k) => LINK_KEYS[k].group).filter(Boolean))) {
      const both = keys.filter((k) => LINK_KEYS[k].group === group);
      if (both.length > 1) {
        return { ...none, error: `This link gives ${group} twice, as ${both.map((k) => `"${k}" (${LINK_KEYS[k].what})`)
          .join(' and ')}: this page cannot know which is meant, and opens the default scenario instead.` };
      }
    }
    const link = { args: [], files: [] };
    if (params.has('d')) {
      page.linkSteps.push(['keys checked', performance.now()]);
      let text;
      try {
        const bytes = fromBase64url(params.get('d'));
        page.linkSteps.push(['decoded', performance.now()]);
        text = await inflate(bytes, MAX_LINK_SCENARIO_BYTES);
      } catch (e) {
        if (e instanceof TooLarge) {
          return { ...none, error: 'This link\'s scenario ("d") inflates to more than ' +
            `${MAX_LINK_SCENARIO_BYTES >> 20} MiB, the most a link carries (share a bigger scenario as a file): ` +
            'it opens the default scenario instead.' };
        }
        return { ...none, error: 'This link\'s scenario ("d") is cut short or damaged (it did not decompress): ' +
          'it opens the default scenario instead. Copy the whole link again.' };
      }
      let name = 'scenario';
      try { name = String(JSON.parse(text).name || name); } catch (e) { /* the GUI says what is wrong */ }
      const path = `/link/${name.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`;
      link.files.push({ path, text });
      link.args.push(path);
    } else if (params.has('s')) {
      link.args.push('--scenario', params.get('s'));
      const pv = params.get('pv');
      if (pv && pv !== VERSION) {
        link.note = `This link was made with poolscope ${pv}; this page is ${VERSION}. It names the shipped ` +
          `scenario "${params.get('s')}", which may differ between them.`;
      }
    }
    for (const option of LINK_OPTIONS) if (params.has(option)) link.args.push(`--${option}`, params.get(option));
    return link;
  }

  async function makeLink(run) {
    const params = new URLSearchParams({ v: LINK_FORMAT, pv: VERSION });
    if (run.document) params.set('d', toBase64url(await deflate(JSON.stringify(run.document))));
    else if (run.scenario) params.set('s', run.scenario);  // (a lesson's link: lesson and step, in the options)
    for (const [option, value] of Object.entries(run.options || {})) params.set(option, value);
    return `${location.origin}${location.pathname}#${params}`;
  }

  // --- what the GUI calls (visualizer/app/*.web.cpp) ------------------------

  const picked = [];
  let Module;

  function frame() {
    if (page.stopped) return;
    try {
      Module._poolscope_gui_frame();
    } catch (e) {
      say(`poolscope stopped on an error it did not expect: ${e}. Reload the page; the link in the address ` +
          'shows the same run.');
      return;
    }
    if (page.frames++ === 0) {
      page.firstFrame = performance.now();
      progress.hidden = true;
    }
    requestAnimationFrame(frame);
  }

  const hooks = {
    poolscopeStartFrames() {
      page.started = performance.now();
      requestAnimationFrame(frame);
    },
    poolscopePickFile() {
      const input = document.createElement('input');
      input.type = 'file';
      input.accept = '.json,application/json';
      input.onchange = async () => {
        const file = input.files[0];
        if (!file) return;
        Module.FS.mkdirTree('/picked');
        const path = `/picked/${file.name.replace(/\//g, '_')}`;
        Module.FS.writeFile(path, new Uint8Array(await file.arrayBuffer()));
        busy(`Opening ${file.name}…`);
        // Handed over once the indicator has been painted, before the frame that reads it.
        requestAnimationFrame(() => requestAnimationFrame(() => picked.push(path)));
      };
      input.click();
    },
    poolscopeStopFrames() { page.stopped = true; },
    poolscopeTakePicked: () => picked.shift() || null,
    poolscopeAnnounce(text, error) {
      page.said.push({ text, error: !!error, at: performance.now() });
      progress.hidden = true;  // whatever was being opened is open, or refused
      document.getElementById('said').textContent = text;
    },
    poolscopeDownload(path) {
      const name = path.split('/').pop();
      const type = name.endsWith('.png') ? 'image/png' : 'application/json';
      const url = URL.createObjectURL(new Blob([Module.FS.readFile(path)], { type }));
      const a = Object.assign(document.createElement('a'), { href: url, download: name });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      page.downloads.push(name);
    },
    // What the GUI shows that a test reads: the scheduler's decision and where its choices are.
    poolscopeState(name, json) { page.state[name] = JSON.parse(json); },
    poolscopeLoadProgress() {
      try { return localStorage.getItem(PROGRESS); } catch (e) { return null; }
    },
    poolscopeSaveProgress(text) {
      try { localStorage.setItem(PROGRESS, text); return true; } catch (e) { return false; }
    },
    poolscopeCopyLink(run) {
      makeLink(run).then((url) => {
        page.lastLink = url;
        history.replaceState(null, '', url);  // the address bar shows it too
        return navigator.clipboard.writeText(url);
      }).catch(() => say(`The browser did not let the page use the clipboard. The address bar holds the link:\n${page.lastLink}`));
    },
  };

  // The address's query, beside the link: ?open=FILE opens a file hosted with
  // the site (a result to replay, a scenario); ?bench-frames=N measures the
  // frames as poolscope-gui --bench-frames N does (bench/web/gui.mjs). A file
  // that cannot be had is the teacher's typo or host, not the browser: the
  // page names the file and the cause, and opens as without it.
  async function queryArgs(Module) {
    const query = new URLSearchParams(location.search);
    const out = { args: [] };
    if (query.has('open')) {
      const asked = query.get('open');
      out.file = asked;
      const refused = (cause) => ({ ...out, error: `The file "${asked}" (?open=) could not be opened: ${cause}. ` +
        'The default scenario opens instead.' });
      let url;
      try {
        url = new URL(asked, location.href);
      } catch (e) {
        return refused('it is not an address');
      }
      let response;
      try {
        response = await fetch(url);
      } catch (e) {
        // fetch says no more than that it failed: a refusal by another site
        // (CORS) looks like a network error on purpose, so name both there.
        if (url.origin === location.origin) {
          return refused(`the network failed: this site's server did not answer (${e.message})`);
        }
        return refused(`it is on another site, ${url.origin}, which did not answer, or does not let this page ` +
          `read it: that server must send an Access-Control-Allow-Origin header allowing ${location.origin} ` +
          `(${e.message})`);
      }
      if (!response.ok) {
        return refused(`the server answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}` +
          (response.status === 404 ? ' (no such file: check its name and where it was put)' : ''));
      }
      const bytes = new Uint8Array(await response.arrayBuffer());
      // A scenario or a result is a JSON object; a host's HTML page (a login,
      // an error) is not. Anything subtler is the GUI's to say, as for any file.
      const first = new TextDecoder().decode(bytes.subarray(0, 64)).trimStart();
      if (!first.startsWith('{')) {
        return refused(`it is not JSON (a scenario or a result): it begins ${JSON.stringify(first.slice(0, 20) || '(empty)')}`);
      }
      const path = `/fetched/${url.pathname.split('/').pop() || 'file.json'}`;
      Module.FS.mkdirTree('/fetched');
      Module.FS.writeFile(path, bytes);
      out.args.push(path);
    }
    if (query.has('bench-frames')) out.args.push('--bench-frames', query.get('bench-frames'));
    return out;
  }

  async function start() {
    const reading = performance.now();
    page.linkSteps.push(['start', reading]);
    const link = await readLink(location.hash);
    page.linkMs = performance.now() - reading;
    Module = await createPoolscopeGui({
      canvas,
      print: (text) => { page.printed.push(text); console.log(text); },
      printErr: (text) => { page.errors.push(text); console.error(text); },
      ...hooks,
    });
    for (const f of link.files) {
      Module.FS.mkdirTree('/link');
      Module.FS.writeFile(f.path, f.text);
    }
    progress.textContent = 'Starting…';
    const query = await queryArgs(Module);
    const opening = query.args.includes('--bench-frames') ? [] :
      [...OPENING, ...(link.args.includes('--time-scale') ? [] : SPEED)];
    Module.callMain([...link.args, ...query.args, ...opening]);
    if (page.started === null) {
      // The GUI refused what the link or the file asked for (its message is on stderr): say so, and open without it.
      const what = query.file && !query.error && !link.args.length ? `The file "${query.file}" (?open=)` : 'This link';
      say(`${what} could not be opened: ${page.errors.join('\n') || 'poolscope-gui refused it'}\n` +
          'The default scenario opens instead.');
      page.errors.length = 0;
      Module.callMain([...OPENING, ...SPEED]);
    }
    if (query.error) say(query.error);
    if (link.error) say(link.error);
    if (link.note) say(link.note);
  }

  start().catch((e) => {
    progress.textContent = '';
    say(`poolscope could not start in this browser: ${e}. It needs WebAssembly and WebGL 2 ` +
        '(any current Chrome, Firefox, Safari or Edge).');
  });
})();
