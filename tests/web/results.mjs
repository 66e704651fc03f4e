// What the browser tests compare in a result, and how.

// What only the host decides: the machine, the build and the wall clock.
export function withoutHost(result) {
  const r = structuredClone(result);
  delete r.environment;
  for (const host of ['wall_s', 'cpu_s', 'peak_rss_bytes']) delete r.run[host];
  for (const p of r.pools) delete p.events;
  return r;
}
