// The search index is fetched when the reader starts a search, not on every page load,
// and it is the index of the page's language (sitebuild/after_pages/search_index.py writes one each).
//
// Material's script, which runs after this one (sitebuild/after_pages/search_index.py puts it first), asks for
// search/search_index.json below the site root with an XMLHttpRequest as soon as the
// page loads, and its search waits for the answer. This script holds that one request
// back until the reader first focuses the search field (a click on it or on the search
// icon, or Material's keys /, s and f, all focus it), then sends it to this language's
// index, given in the data-index attribute. Every other request goes out unchanged.
// Material's search worker (a script of its own) is started then too: until the search
// starts, Material talks to a stand-in that keeps its messages.
// Without JavaScript there is no search, and nothing to hold.
(function () {
  var config = JSON.parse(document.getElementById("__config").textContent);
  var asked = new URL("search/search_index.json", new URL(config.base, location.href)).href;
  var index = new URL(document.currentScript.getAttribute("data-index"), location.href).href;
  var held = new WeakSet();
  var start;
  var started = new Promise(function (resolve) { start = resolve; });

  var open = XMLHttpRequest.prototype.open;
  var send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url) {
    var args = Array.prototype.slice.call(arguments);
    if (new URL(url, location.href).href === asked) {
      held.add(this);
      args[1] = index;
    }
    return open.apply(this, args);
  };
  XMLHttpRequest.prototype.send = function () {
    var request = this, args = arguments;
    if (!held.has(request)) return send.apply(request, args);
    started.then(function () { send.apply(request, args); });
  };

  var RealWorker = window.Worker;
  window.Worker = function (url, options) {
    if (!/\/workers\/search\.[^/]*\.js$/.test(new URL(url, location.href).pathname)) {
      return new RealWorker(url, options);
    }
    var standIn = new EventTarget(), waiting = [], worker = null;
    standIn.postMessage = function (message) {
      if (worker) worker.postMessage(message); else waiting.push(message);
    };
    started.then(function () {
      worker = new RealWorker(url, options);
      worker.addEventListener("message", function (event) {
        standIn.dispatchEvent(new MessageEvent("message", {data: event.data}));
      });
      waiting.splice(0).forEach(function (message) { worker.postMessage(message); });
    });
    return standIn;
  };

  document.addEventListener("focusin", function (event) {
    if (event.target.matches("[data-md-component=search-query]")) start();
  });
  // A link to a search (?q=word) opens it at once, and a page opened from a search result
  // (?h=word) highlights the word, which needs the index too.
  var params = new URLSearchParams(location.search);
  if (params.has("q") || params.has("h")) start();
})();
