// What htmx leaves silent, said in place, so a click never seems to do nothing: a request
// that fails (a stale tab, a 403 or 404, a server error, a dropped connection) shows a small
// notice with a way to reload; choosing a battle result ticks "took part" on its row; the
// step list folds on a phone; a copy button copies the join link. No inline code: the
// Content Security Policy allows only this file.
(function () {
  "use strict";

  function notice(text) {
    var box = document.getElementById("request-notice");
    if (!box) return;
    box.querySelector("[data-notice-text]").textContent = text;
    box.hidden = false;
  }

  function reasonOf(xhr) {
    // The app's 400, 403 and 404 pages carry their reason in [data-refusal].
    try {
      var page = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
      var reason = page.querySelector("[data-refusal]");
      return reason ? reason.textContent.trim() : "";
    } catch (e) {
      return "";
    }
  }

  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    var status = xhr ? xhr.status : 0;
    var reason = xhr ? reasonOf(xhr) : "";
    var text;
    if (status >= 500) {
      text = "Something went wrong on the server; nothing was changed by this request.";
    } else if (reason) {
      text = reason;
    } else if (status === 403) {
      text = "That is not yours to do.";
    } else if (status === 404) {
      text = "That is no longer here: the page may be out of date.";
    } else {
      text = "The request was refused (" + status + ").";
    }
    notice(text + " Reload the page to see it as it stands.");
  });

  document.addEventListener("htmx:sendError", function () {
    notice("The server could not be reached: check the connection, then reload the page.");
  });

  document.addEventListener("click", function (event) {
    var close = event.target.closest("[data-notice-close]");
    if (close) {
      close.closest("#request-notice").hidden = true;
    }
  });

  // Long lists that fold on a phone (the post-battle sequence's steps): drawn open for wide
  // screens and for pages read without this script, closed here on a narrow one.
  function fold(root) {
    if (!window.matchMedia("(max-width: 768px)").matches) return;
    root.querySelectorAll("details[data-fold-narrow][open]").forEach(function (details) {
      details.removeAttribute("open");
    });
  }
  document.addEventListener("DOMContentLoaded", function () { fold(document); });
  document.addEventListener("htmx:afterSwap", function () { fold(document); });

  // A copy button ([data-copy] names the element whose text it copies: the join link). Drawn
  // hidden, shown here: without this script the text stays there to select by hand.
  function showCopyButtons(root) {
    root.querySelectorAll("button[data-copy][hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }
  document.addEventListener("DOMContentLoaded", function () { showCopyButtons(document); });
  document.addEventListener("htmx:afterSwap", function () { showCopyButtons(document); });

  function copied(id, text) {
    var said = document.querySelector("[data-copy-said='" + id + "']");
    if (said) said.textContent = text;
  }

  function copyBySelection(source, id) {
    // Where the clipboard API is missing (a page served over plain HTTP): select the text
    // and copy it, or leave it selected for the player to copy.
    var range = document.createRange();
    range.selectNodeContents(source);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    var done = false;
    try {
      done = document.execCommand("copy");
    } catch (e) {
      done = false;
    }
    copied(id, done ? "Copied." : "Selected: copy it with your keyboard.");
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (!button) return;
    var id = button.getAttribute("data-copy");
    var source = document.getElementById(id);
    if (!source) return;
    var text = source.textContent.trim();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(
        function () { copied(id, "Copied."); },
        function () { copyBySelection(source, id); }
      );
    } else {
      copyBySelection(source, id);
    }
  });

  // Offline (static/js/sw.js, core/offline.py). The worker is registered from the site's root
  // and told who is logged in (the meta offline-user: an opaque key, empty for nobody), so that
  // it drops any other user's saved pages; the log-out form tells it nobody is. Without
  // signal a banner says so, and no form is sent: each says it needs the network instead.
  var who = document.querySelector("meta[name='offline-user']");

  function tellWorker(key) {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage({ type: "user", key: key });
    });
  }

  if (who && "serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register(who.getAttribute("data-worker"), { scope: "/" }).then(
      function () { tellWorker(who.content); },
      function () { /* no worker: the app works as before, online only */ }
    );
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!navigator.onLine) {
      event.preventDefault();
      offlineBanner();
      return;
    }
    if (form.matches && form.matches("form[action$='/accounts/logout/']")) tellWorker("");
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (navigator.onLine) return;
    event.preventDefault();
    offlineBanner();
  });

  function offlineBanner() {
    var box = document.getElementById("offline-notice");
    if (!box || box.hasAttribute("data-saved-copy")) {
      if (box) box.hidden = false;
      return;
    }
    box.textContent = "You are offline: what is on this page stays readable, but changes " +
      "need the network: no form is sent until it returns.";
    box.hidden = false;
  }

  function submitButtons() {
    return document.querySelectorAll(
      "form button:not([type=button]):not([type=reset]), form input[type=submit]"
    );
  }

  function goneOffline() {
    offlineBanner();
    submitButtons().forEach(function (button) {
      if (button.disabled) return;
      button.disabled = true;
      button.setAttribute("data-offline-disabled", "");
    });
  }

  function backOnline() {
    var box = document.getElementById("offline-notice");
    if (box && box.hasAttribute("data-saved-copy")) {
      box.textContent = "You are back online: reload the page to see it as it stands.";
    } else if (box) {
      box.hidden = true;
    }
    document.querySelectorAll("[data-offline-disabled]").forEach(function (button) {
      button.disabled = false;
      button.removeAttribute("data-offline-disabled");
    });
  }

  window.addEventListener("offline", goneOffline);
  window.addEventListener("online", backOnline);
  document.addEventListener("DOMContentLoaded", function () {
    if (!navigator.onLine) goneOffline();
  });

  // The offline page lists the pages this phone keeps for the user (read from the worker's
  // caches, which hold only the logged-in user's own).
  function listSavedCopies(list) {
    if (!window.caches) return;
    caches.keys().then(function (names) {
      var mine = names.filter(function (name) { return name.indexOf("mh-user-") === 0; });
      return Promise.all(mine.map(function (name) {
        return caches.open(name).then(function (cache) {
          return cache.keys().then(function (requests) {
            return Promise.all(requests.map(function (request) {
              return cache.match(request).then(function (response) {
                return { url: request.url, title: response.headers.get("X-Offline-Title") };
              });
            }));
          });
        });
      }));
    }).then(function (groups) {
      var copies = [].concat.apply([], groups);
      if (!copies.length) return;
      copies.forEach(function (copy) {
        var link = document.createElement("a");
        link.href = copy.url;
        link.textContent = decodeURIComponent(copy.title || copy.url).replace(/&#x27;/g, "'")
          .replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">")
          .replace(/&amp;/g, "&");
        var item = document.createElement("li");
        item.appendChild(link);
        list.appendChild(item);
      });
      list.hidden = false;
      var none = document.querySelector("[data-offline-none]");
      if (none) none.hidden = true;
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var list = document.querySelector("[data-offline-copies]");
    if (list) listSavedCopies(list);
  });

  // A battle report's row: choosing a result means the warband took part.
  document.addEventListener("change", function (event) {
    var select = event.target;
    if (!select.matches || !select.matches("select[name$='-result']") || !select.value) return;
    var row = select.closest("tr, fieldset, li, div");
    var box = row && row.querySelector("input[type=checkbox][name$='-took_part']");
    if (box) box.checked = true;
  });
})();
