// sw.js: the page's offline shell. Navigations and the page's files go to the network first (so a
// deploy is seen at once) and fall back to the last copy when the link is down, so a reload while
// offline still shows the page, which then draws the last known rows from localStorage. The API
// (`/v1/…`) is never touched: its failures are how the page learns it is offline.

const cacheName = 'recents-shell-v1';
const maxEntries = 64;

self.addEventListener('install', () => self.skipWaiting());

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== cacheName) await caches.delete(name);
      // The navigation's request starts while the worker boots, so a warm load does not wait for it.
      await self.registration.navigationPreload?.enable();
      await self.clients.claim();
    })(),
  );
});

/** The page lists what it loaded before this worker controlled it; keep copies of those too. */
self.addEventListener('message', (event) => {
  if (event.data?.type !== 'cache' || !Array.isArray(event.data.urls)) return;
  event.waitUntil(
    (async () => {
      const cache = await caches.open(cacheName);
      await Promise.all(
        event.data.urls.filter(isShell).map(async (url) => {
          try {
            const res = await fetch(url, { cache: 'force-cache' });
            if (res.ok) await cache.put(url, res);
          } catch {
            // Not reachable now; the next load through this worker keeps it.
          }
        }),
      );
      await trim(cache);
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || !isShell(request.url)) return;
  event.respondWith(networkFirst(event));
});

/** Same-origin files of the page, not the API, the health check or the metrics. */
function isShell(url) {
  const u = new URL(url, self.location.href);
  return u.origin === self.location.origin && !/^\/(v1\/|healthz|metrics)/.test(u.pathname);
}

async function networkFirst(event) {
  const request = event.request;
  const cache = await caches.open(cacheName);
  try {
    const res = (await event.preloadResponse) ?? (await fetch(request));
    if (res.ok && res.type === 'basic') {
      const copy = res.clone();
      event.waitUntil(cache.put(request, copy).then(() => trim(cache)));
    }
    return res;
  } catch (error) {
    // The link is down: the last copy; for a page, any list's page (it reads the list from its address).
    const page = request.mode === 'navigate';
    const copy = (await cache.match(request)) ?? (page ? await cache.match(request, { ignoreSearch: true }) : null);
    if (copy) return copy;
    throw error;
  }
}

/** Keeps the newest `maxEntries` copies (content-hashed names pile up across deploys otherwise). */
async function trim(cache) {
  const keys = await cache.keys();
  for (const key of keys.slice(0, Math.max(0, keys.length - maxEntries))) await cache.delete(key);
}
