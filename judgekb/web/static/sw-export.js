// judgekb service worker for an exported site on a static host (https, or localhost): saves every file
// of the export on the device, so the copy keeps working without the network.  Files answer from the
// device first (an export never changes in place; a new export is a new version and is saved anew).
"use strict";
var CACHE = "judgekb-export-v1";
var running = null;

self.addEventListener("install", function (event) { event.waitUntil(self.skipWaiting()); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

function broadcast(message) {
  return self.clients.matchAll({ includeUncontrolled: true }).then(function (clients) {
    clients.forEach(function (c) { c.postMessage(message); });
  });
}

function precache() {
  if (running) return running;
  running = (async function () {
    var base = new URL("./", self.location.href);
    var list = await (await fetch(new URL("offline-files.json", base), { cache: "no-store" })).json();
    var cache = await caches.open(CACHE);
    var kept = await cache.match(new URL("__judgekb_version", base));
    var have = kept ? await kept.text() : "";
    var total = list.files.length;
    if (have === list.version) {
      await broadcast({ type: "progress", done: total, total: total, version: list.version, complete: true });
      return;
    }
    var queue = list.files.slice(), done = 0, failed = 0;
    async function worker() {
      while (queue.length) {
        var url = new URL(queue.shift(), base);
        try {
          var response = await fetch(url, { cache: "no-store" });
          if (response.ok) await cache.put(url, response); else failed++;
        } catch (e) { failed++; }
        done++;
        if (done % 200 === 0) await broadcast({ type: "progress", done: done, total: total, version: list.version });
      }
    }
    await Promise.all([worker(), worker(), worker(), worker(), worker(), worker()]);
    if (!failed) await cache.put(new URL("__judgekb_version", base), new Response(list.version));
    await broadcast({ type: "progress", done: done - failed, total: total, version: list.version, complete: !failed });
  })().finally(function () { running = null; });
  return running;
}

self.addEventListener("message", function (event) {
  if (event.data && event.data.type === "precache") event.waitUntil(precache().catch(function () {}));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(caches.match(request, { ignoreSearch: true }).then(function (hit) {
    return hit || fetch(request);
  }));
});
