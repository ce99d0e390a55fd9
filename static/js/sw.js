// The service worker, served from the site's root by core.offline.service_worker, which puts
// SHELL (the static files and the offline page), OFFLINE_PAGE and VERSION before this text.
//
// It keeps two kinds of copies. The shell, for every user: the files a page needs to look
// right. And, per user, only the pages the server marked as his to keep (X-Offline-Cache:
// owner, with X-Offline-User his opaque key): the last roster and printout he opened of each
// of his own warbands. Nothing unmarked is ever kept: no form's answer (only GETs are looked
// at), no htmx partial (only page loads), no other player's page. Copies are kept under the
// user's key, and seeing another key (a page of another user, or the page telling who is
// logged in, or nobody) drops every other user's copies. Offline, a kept page is shown with a
// notice saying when it was saved; any other page gives the offline page.
"use strict";

const SHELL_CACHE = "mh-shell-" + VERSION;
const USER_PREFIX = "mh-user-";
// The pages a user may keep: a warband's roster and its printout for the table.
const KEEPABLE = /^\/warbands\/\d+\/(print\/)?$/;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(SHELL_CACHE)
      .then(function (cache) { return cache.addAll(SHELL); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names
          .filter(function (name) { return name.startsWith("mh-shell-") && name !== SHELL_CACHE; })
          .map(function (name) { return caches.delete(name); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

// Drops every user's copies but those of ``key`` ("" drops them all: nobody is logged in).
function forgetOthers(key) {
  return caches.keys().then(function (names) {
    return Promise.all(names
      .filter(function (name) { return name.startsWith(USER_PREFIX) && name !== USER_PREFIX + key; })
      .map(function (name) { return caches.delete(name); }));
  });
}

function userCaches() {
  return caches.keys().then(function (names) {
    return names.filter(function (name) { return name.startsWith(USER_PREFIX); });
  });
}

// A page tells who is logged in (its meta offline-user), and the log-out form that nobody is.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "user") return;
  var done = forgetOthers(typeof data.key === "string" ? data.key : "");
  event.waitUntil(done.then(function () {
    if (event.source) event.source.postMessage({ type: "user-known" });
  }));
});

async function remember(url, response) {
  var key = response.headers.get("X-Offline-User");
  if (response.status !== 200 || response.headers.get("X-Offline-Cache") !== "owner" || !key) {
    // Not (or no longer) the user's to keep: an old copy of it goes too.
    for (const name of await userCaches()) {
      await (await caches.open(name)).delete(url);
    }
    return;
  }
  await forgetOthers(key);
  var body = await response.clone().text();
  var headers = new Headers();
  response.headers.forEach(function (value, name) {
    if (name.toLowerCase() !== "vary") headers.set(name, value);
  });
  headers.set("X-Offline-Saved", new Date().toISOString());
  var title = /<title>([^<]*)<\/title>/.exec(body);
  headers.set("X-Offline-Title", encodeURIComponent(title ? title[1].trim() : url));
  var cache = await caches.open(USER_PREFIX + key);
  await cache.put(url, new Response(body, { status: 200, headers: headers }));
}

function two(number) {
  return (number < 10 ? "0" : "") + number;
}

function savedAt(iso) {
  var when = new Date(iso);
  var time = two(when.getHours()) + ":" + two(when.getMinutes());
  if (when.toDateString() === new Date().toDateString()) return "saved at " + time;
  return "saved on " + when.toLocaleDateString(undefined, { day: "numeric", month: "short" }) +
    " at " + time;
}

async function savedCopy(url) {
  for (const name of await userCaches()) {
    var hit = await (await caches.open(name)).match(url, { ignoreVary: true });
    if (!hit) continue;
    var notice = "You are offline: this is the copy " + savedAt(hit.headers.get("X-Offline-Saved")) +
      "; changes need the network.";
    // Into the page's own notice box (base.html), or first in a page without one (the
    // printout).
    var box = '<div id="offline-notice" class="offline-notice" role="status" data-saved-copy>' +
      notice;
    var text = await hit.text();
    var marker = /<div id="offline-notice"[^>]*>/;
    var body = marker.test(text) ? text.replace(marker, box) : text.replace(
      /<body[^>]*>/, function (tag) { return tag + box + "</div>"; }
    );
    return new Response(body, { status: 200, headers: hit.headers });
  }
  return null;
}

async function offlinePage() {
  var page = await caches.match(OFFLINE_PAGE, { cacheName: SHELL_CACHE });
  return page || new Response("You are offline, and this page needs the network.", {
    status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" }
  });
}

async function navigate(request) {
  var url = new URL(request.url);
  var keepable = KEEPABLE.test(url.pathname) && !url.search;
  var response;
  try {
    response = await fetch(request);
  } catch (error) {
    return (keepable && await savedCopy(url.href)) || offlinePage();
  }
  if (keepable) await remember(url.href, response);
  return response;
}

async function shellFile(request) {
  try {
    var response = await fetch(request);
    if (response.ok) await (await caches.open(SHELL_CACHE)).put(request, response.clone());
    return response;
  } catch (error) {
    var kept = await caches.match(request, { cacheName: SHELL_CACHE });
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(request));
  } else if (SHELL.indexOf(url.pathname) !== -1) {
    event.respondWith(shellFile(request));
  }
});
