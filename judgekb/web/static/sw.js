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
    return cache.addAll(["/", "/card", "/changes", "/offline/page", "/static/style.css", "/static/app.js", "/static/icon.svg", "/offline/index.json"]);
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
    await broadcast({ type: "progress", done: 0, total: total, version: list.version });
    // one download holds every page: phones do not send the laptop thousands of requests
    var response = null;
    for (var attempt = 0; attempt < 30; attempt++) {  // the server may still be preparing it (503)
      response = await fetch(list.bundle, { cache: "no-store" });
      if (response.status !== 503) break;
      await new Promise(function (resolve) { setTimeout(resolve, 5000); });
    }
    if (!response.ok) throw new Error("offline bundle: HTTP " + response.status);
    var data = await response.json();
    var urls = Object.keys(data.pages), done = 0;
    for (var i = 0; i < urls.length; i++) {
      await pages.put(key(urls[i]), new Response(data.pages[urls[i]], { headers: { "Content-Type": "text/html; charset=utf-8" } }));
      done++;
      if (done % 250 === 0) await broadcast({ type: "progress", done: done, total: total, version: list.version });
    }
    var complete = list.pages.every(function (u) { return Object.prototype.hasOwnProperty.call(data.pages, u); });
    if (complete) await pages.put("/__judgekb_version", new Response(list.version));
    await broadcast({ type: "progress", done: done, total: total, version: list.version, complete: complete });
  })().finally(function () { running = null; });
  return running;
}

self.addEventListener("message", function (event) {
  if (event.data && event.data.type === "precache") event.waitUntil(precache().catch(function () {}));
});

// The network first; after NETWORK_WAIT_MS a saved copy of the very same page may answer instead; a failed
// fetch (no network) answers from the saved copy at once.
function respond(request, keep) {
  return new Promise(function (resolve) {
    var settled = false;
    function finish(response) { if (!settled) { settled = true; resolve(response); } }
    var timer = setTimeout(function () {
      caches.match(key(request.url)).then(function (hit) { if (hit) finish(hit); });
    }, NETWORK_WAIT_MS);
    fetch(request).then(function (response) {
      clearTimeout(timer);
      if (keep && response.ok) {
        var copy = response.clone();
        caches.open(keep).then(function (cache) { cache.put(key(request.url), copy); });
      }
      finish(response);
    }, function () {
      clearTimeout(timer);
      fromCache(request).then(finish);
    });
  });
}

async function fromCache(request) {
  var k = key(request.url), hit = await caches.match(k);
  if (hit) return hit;
  var path = new URL(request.url).pathname;
  if (request.mode === "navigate") {
    if (path === "/card") return caches.match(self.location.origin + "/card");  // the script finds the card on the device
    if (path === "/") return caches.match(self.location.origin + "/");
    // a page not saved (deck check, builder, a version's changes): the site's own page, with its menu and what works offline
    var page = await caches.match(self.location.origin + "/offline/page");
    if (page) return new Response(page.body, { status: 503, statusText: "Offline", headers: page.headers });
  }
  return new Response("Offline, and this page is not saved on this device.", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url), path = url.pathname;
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (path.indexOf("/api/") === 0 || path === "/offline/urls.json" || path === "/offline/bundle.json" || path === "/sw.js") return;
  var keep = path.indexOf("/c/") === 0 || (path === "/card" && url.search) ? PAGES
    : path.indexOf("/static/") === 0 || path === "/offline/index.json" || path === "/card" || path === "/changes" || path === "/docs/scenarios" ? SHELL : null;
  event.respondWith(respond(request, keep));
});
