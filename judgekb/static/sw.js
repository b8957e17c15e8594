// judgekb service worker: keeps every clause page, every card page and the search index on the device,
// so a judge's phone keeps working when the venue network drops.  Pages come from the network when it
// answers (always fresh) and from the saved copy when it does not.
"use strict";
var SHELL = "judgekb-shell-v1";
var PAGES = "judgekb-pages-v1";
var NETWORK_WAIT_MS = 4000;
var running = null;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL).then(function (cache) {
    return cache.addAll(["/", "/card", "/changes", "/static/style.css", "/static/app.js", "/static/icon.svg", "/offline/index.json"]);
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

// One cache key per page: card pages by lower-cased title and edition; the search page without its query.
function key(url) {
  var u = new URL(url, self.location.href);
  if (u.pathname === "/card" && u.searchParams.get("name")) {
    var name = u.searchParams.get("name").trim().replace(/\s+/g, " ").toLowerCase();
    return u.origin + "/card?name=" + encodeURIComponent(name) + "&edition=" + (u.searchParams.get("edition") || "all");
  }
  if (u.pathname === "/") return u.origin + "/";
  return u.origin + u.pathname + u.search;
}

function broadcast(message) {
  return self.clients.matchAll({ includeUncontrolled: true }).then(function (clients) {
    clients.forEach(function (c) { c.postMessage(message); });
  });
}

function precache() {
  if (running) return running;
  running = (async function () {
    var list = await (await fetch("/offline/urls.json", { cache: "no-store" })).json();
    var pages = await caches.open(PAGES);
    var kept = await pages.match("/__judgekb_version");
    var have = kept ? await kept.text() : "";
    var total = list.pages.length;
    if (have === list.version) {
      await broadcast({ type: "progress", done: total, total: total, version: list.version, complete: true });
      return;
    }
    var shell = await caches.open(SHELL);
    await shell.addAll(list.shell.concat(["/offline/index.json"]));
    if (have) { await caches.delete(PAGES); pages = await caches.open(PAGES); }
    var queue = list.pages.slice(), done = 0, failed = 0;
    async function worker() {
      while (queue.length) {
        var url = queue.shift();
        try {
          var response = await fetch(url, { cache: "no-store" });
          if (response.ok) await pages.put(key(url), response); else failed++;
        } catch (e) { failed++; }
        done++;
        if (done % 50 === 0) await broadcast({ type: "progress", done: done, total: total, version: list.version });
      }
    }
    await Promise.all([worker(), worker(), worker(), worker()]);
    if (!failed) await pages.put("/__judgekb_version", new Response(list.version));
    await broadcast({ type: "progress", done: done - failed, total: total, version: list.version, complete: !failed });
  })().finally(function () { running = null; });
  return running;
}

self.addEventListener("message", function (event) {
  if (event.data && event.data.type === "precache") event.waitUntil(precache().catch(function () {}));
});

function fromNetwork(request) {
  return new Promise(function (resolve, reject) {
    var timer = setTimeout(function () { reject(new Error("network too slow")); }, NETWORK_WAIT_MS);
    fetch(request).then(function (r) { clearTimeout(timer); resolve(r); }, function (e) { clearTimeout(timer); reject(e); });
  });
}

async function fromCache(request) {
  var k = key(request.url), hit = await caches.match(k);
  if (hit) return hit;
  var path = new URL(request.url).pathname;
  if (request.mode === "navigate") {
    if (path === "/card") return caches.match(self.location.origin + "/card");  // the script finds the card on the device
    if (path === "/") return caches.match(self.location.origin + "/");
  }
  return new Response("Offline, and this page is not saved on this device.", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/api/") === 0 || url.pathname === "/offline/urls.json" || url.pathname === "/sw.js") return; // the page handles these failing
  event.respondWith(fromNetwork(request).then(function (response) {
    if (response.ok && (url.pathname.indexOf("/c/") === 0 || url.pathname === "/card" || url.pathname.indexOf("/static/") === 0 || url.pathname === "/offline/index.json")) {
      var copy = response.clone();
      caches.open(url.pathname.indexOf("/c/") === 0 || url.search ? PAGES : SHELL).then(function (cache) { cache.put(key(request.url), copy); });
    }
    return response;
  }, function () { return fromCache(request); }));
});
