// The page around poolscope-gui (poolscope-gui.js + .wasm): it reads the link
// in the address, starts the GUI with it as the GUI's own command line, calls
// a frame at each animation frame, and gives the GUI what a page has instead
// of a desktop's (a file picker, downloads, the clipboard). The C++ side of
// each is visualizer/app/*.web.cpp; docs/web.md says what a link carries.
'use strict';

(() => {
  // A link: #v=1&s=tour&view=1s:2.5s or #v=1&d=<the scenario, deflated, base64url>.
  //   v   the link format this page reads (a newer or older one is refused, saying so)
  //   pv  the poolscope version that made it (a shipped scenario may differ in another)
  //   s   a shipped scenario, by name        d   a whole scenario, compressed
  // and these options of poolscope-gui, under their own names (challenge: a
  // scheduler challenge by name, instead of s or d; sched: its picks so far):
  const LINK_FORMAT = '1';
  const LINK_OPTIONS = ['view', 'tab', 'palette', 'time-scale', 'challenge', 'sched'];
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
    errors: [], printed: [], said: [], state: {},
  };
  const PROGRESS = 'poolscope-challenges';  // the challenges won, in local storage (progress_store.web.cpp)
  // The GUI's Ctrl shortcuts (open, save, export, link, zoom) are the GUI's, not the browser's.
  window.addEventListener('keydown', (e) => {
    if ((e.ctrlKey || e.metaKey) && 'oselOSEL+=-'.includes(e.key)) e.preventDefault();
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
    return Uint8Array.from(s, (c) => c.charCodeAt(0));
  }
  async function through(stream, bytes) {
    return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
  }
  const deflate = (text) => through(new CompressionStream('deflate-raw'), new TextEncoder().encode(text));
  const inflate = async (bytes) => new TextDecoder().decode(await through(new DecompressionStream('deflate-raw'), bytes));

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
    const unknown = [...params.keys()].filter((k) => !['v', 'pv', 's', 'd', ...LINK_OPTIONS].includes(k));
    if (unknown.length) {
      return { ...none, error: `This link has ${unknown.map((k) => `"${k}"`).join(', ')}, which this page ` +
        `(poolscope ${VERSION}) does not know: it opens the default scenario instead.` };
    }
    const link = { args: [], files: [] };
    if (params.has('d')) {
      let text;
      try {
        text = await inflate(fromBase64url(params.get('d')));
      } catch (e) {
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
  // frames as poolscope-gui --bench-frames N does (bench/web/gui.mjs).
  async function queryArgs(Module) {
    const query = new URLSearchParams(location.search);
    const args = [];
    if (query.has('open')) {
      const url = new URL(query.get('open'), location.href);
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url} could not be fetched (HTTP ${response.status})`);
      const path = `/fetched/${url.pathname.split('/').pop()}`;
      Module.FS.mkdirTree('/fetched');
      Module.FS.writeFile(path, new Uint8Array(await response.arrayBuffer()));
      args.push(path);
    }
    if (query.has('bench-frames')) args.push('--bench-frames', query.get('bench-frames'));
    return args;
  }

  async function start() {
    const link = await readLink(location.hash);
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
    const opening = query.includes('--bench-frames') ? [] : [...OPENING, ...(link.args.includes('--time-scale') ? [] : SPEED)];
    Module.callMain([...link.args, ...query, ...opening]);
    if (page.started === null) {
      // The GUI refused what the link asked for (its message is on stderr): say so, and open without it.
      say(`This link could not be opened: ${page.errors.join('\n') || 'poolscope-gui refused it'}\n` +
          'The default scenario opens instead.');
      page.errors.length = 0;
      Module.callMain([...OPENING, ...SPEED]);
    }
    if (link.error) say(link.error);
    if (link.note) say(link.note);
  }

  start().catch((e) => {
    progress.textContent = '';
    say(`poolscope could not start in this browser: ${e}. It needs WebAssembly and WebGL 2 ` +
        '(any current Chrome, Firefox, Safari or Edge).');
  });
})();
